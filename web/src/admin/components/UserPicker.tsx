/** Picks several people (removable pills and a box to add more), e.g. a new channel's first subscribers. */
import { useMemo } from 'react';
import type { User } from '@chat/client';
import { t } from '../../i18n';
import { Combobox } from './Combobox';

export interface UserPickerProps {
  label: string;
  value: number[];
  onChange: (ids: number[]) => void;
  users: User[];
  disabled?: boolean;
}

export function UserPicker({ label, value, onChange, users, disabled }: UserPickerProps) {
  const byId = useMemo(() => new Map(users.map((u) => [u.user_id, u])), [users]);
  const options = useMemo(
    () => users.filter((u) => !value.includes(u.user_id)).map((u) => ({ key: String(u.user_id), label: u.full_name, detail: u.delivery_email ?? u.email })),
    [users, value],
  );
  return (
    <fieldset className="user-picker">
      <legend>{label}</legend>
      <ul className="pills" aria-label={t('admin.picked', { label })}>
        {value.map((id) => {
          const name = byId.get(id)?.full_name ?? t('admin.user.unknown', { id });
          return (
            <li key={id} className="pill pill-user">
              {name}
              {!disabled && (
                <button type="button" className="pill-remove" aria-label={t('admin.group.remove', { name })} onClick={() => onChange(value.filter((x) => x !== id))}>×</button>
              )}
            </li>
          );
        })}
        {!value.length && <li className="pill-empty">{t('admin.nobody_picked')}</li>}
      </ul>
      {!disabled && <Combobox label={t('admin.add_person', { label })} placeholder={t('admin.person_placeholder')} options={options} onPick={(o) => onChange([...value, Number(o.key)])} />}
    </fieldset>
  );
}
