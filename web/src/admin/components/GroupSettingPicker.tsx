/**
 * The picker of a group setting ("who can …"): the groups and people it names, each removable,
 * and a box to add more. Settings that take only system groups (require_system_group) offer
 * a plain choice of one group instead, as the family does.
 */
import { useId, useMemo } from 'react';
import type { User, UserGroup } from '@chat/client';
import { t } from '../../i18n';
import { allowedGroups, encodeSetting, settingItems, type GroupSettingValue, type PermissionConfig } from '../groupSetting';
import { groupLabel } from '../labels';
import { Combobox, type ComboOption } from './Combobox';

export interface GroupSettingPickerProps {
  label: string;
  value: GroupSettingValue;
  onChange: (value: GroupSettingValue) => void;
  groups: UserGroup[];
  users: User[];
  nobodyId: number;
  config?: PermissionConfig;
  disabled?: boolean;
  name?: string;
}

export function GroupSettingPicker({ label, value, onChange, groups, users, nobodyId, config, disabled, name }: GroupSettingPickerProps) {
  const id = useId();
  const items = settingItems(value, nobodyId);
  const offered = useMemo(() => allowedGroups(groups, config), [groups, config]);
  const byGroup = useMemo(() => new Map(groups.map((g) => [g.id, g])), [groups]);
  const byUser = useMemo(() => new Map(users.map((u) => [u.user_id, u])), [users]);

  if (config?.require_system_group) {
    return (
      <div className="setting-row setting-select" data-setting={name}>
        <div className="setting-text">
          <label htmlFor={id}>{label}</label>
        </div>
        <div className="setting-control">
          <select id={id} value={typeof value === 'number' ? String(value) : ''} disabled={disabled} onChange={(e) => onChange(Number(e.target.value))}>
            {typeof value !== 'number' && <option value="">{t('admin.group.custom')}</option>}
            {offered.map((g) => (
              <option key={g.id} value={g.id}>{groupLabel(g)}</option>
            ))}
          </select>
        </div>
      </div>
    );
  }

  const set = (subgroups: number[], members: number[]) => onChange(encodeSetting({ subgroups, members }, nobodyId));
  const options: ComboOption[] = [
    ...offered.filter((g) => g.id !== nobodyId && !items.subgroups.includes(g.id)).map((g) => ({ key: `g${g.id}`, label: groupLabel(g), detail: g.is_system_group ? t('admin.group.role_group') : t('admin.group.user_group') })),
    ...users.filter((u) => !items.members.includes(u.user_id)).map((u) => ({ key: `u${u.user_id}`, label: u.full_name, detail: u.delivery_email ?? u.email })),
  ];
  const pick = (o: ComboOption) => {
    const n = Number(o.key.slice(1));
    if (o.key.startsWith('g')) set([...items.subgroups, n], items.members);
    else set(items.subgroups, [...items.members, n]);
  };

  return (
    <fieldset className="setting-row group-picker" data-setting={name} aria-describedby={`${id}-value`}>
      <legend className="setting-text">{label}</legend>
      <div className="setting-control">
        <ul className="pills" id={`${id}-value`} aria-label={t('admin.group.current', { setting: label })}>
          {items.subgroups.map((g) => (
            <li key={`g${g}`} className="pill">
              {groupLabel(byGroup.get(g))}
              {!disabled && (
                <button type="button" className="pill-remove" aria-label={t('admin.group.remove', { name: groupLabel(byGroup.get(g)) })} onClick={() => set(items.subgroups.filter((x) => x !== g), items.members)}>×</button>
              )}
            </li>
          ))}
          {items.members.map((u) => (
            <li key={`u${u}`} className="pill pill-user">
              {byUser.get(u)?.full_name ?? t('admin.user.unknown', { id: u })}
              {!disabled && (
                <button type="button" className="pill-remove" aria-label={t('admin.group.remove', { name: byUser.get(u)?.full_name ?? String(u) })} onClick={() => set(items.subgroups, items.members.filter((x) => x !== u))}>×</button>
              )}
            </li>
          ))}
          {!items.subgroups.length && !items.members.length && <li className="pill-empty">{t('admin.group.nobody')}</li>}
        </ul>
        {!disabled && <Combobox label={t('admin.group.add', { setting: label })} placeholder={t('admin.group.add_placeholder')} options={options} onPick={pick} />}
      </div>
    </fieldset>
  );
}
