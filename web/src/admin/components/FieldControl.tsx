/** One setting of a form, drawn by its kind (toggle, choice, text, group setting, limit, channel). */
import { useId } from 'react';
import { t } from '../../i18n';
import { Select, Toggle } from '../../settings/controls';
import { useAllChannels, useGroups, useHumans, useNobodyId, usePermissionConfig } from '../data';
import type { FieldDef } from '../formModel';
import type { GroupSettingValue } from '../groupSetting';
import { GroupSettingPicker } from './GroupSettingPicker';
import { LimitControl } from './LimitControl';

/** Languages offered as the organization's default (their own names, as language menus show them). */
export const LANGUAGES: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'en', label: 'English' },
  { value: 'de', label: 'Deutsch' },
  { value: 'es', label: 'Español' },
  { value: 'fr', label: 'Français' },
  { value: 'it', label: 'Italiano' },
  { value: 'nl', label: 'Nederlands' },
  { value: 'pl', label: 'Polski' },
  { value: 'pt', label: 'Português' },
  { value: 'pt-br', label: 'Português (Brasil)' },
  { value: 'ru', label: 'Русский' },
  { value: 'uk', label: 'Українська' },
  { value: 'tr', label: 'Türkçe' },
  { value: 'ja', label: '日本語' },
  { value: 'ko', label: '한국어' },
  { value: 'zh-hans', label: '简体中文' },
  { value: 'zh-hant', label: '繁體中文' },
  { value: 'hi', label: 'हिन्दी' },
  { value: 'ar', label: 'العربية' },
];

export interface FieldControlProps {
  field: FieldDef;
  value: unknown;
  onChange: (value: unknown) => void;
  disabled?: boolean;
  invalid?: string | null;
}

export function FieldControl(props: FieldControlProps) {
  const { field, value, onChange, disabled, invalid } = props;
  const label = t(field.label);
  const hint = field.hint ? t(field.hint) : undefined;
  switch (field.kind) {
    case 'bool':
      return <Toggle label={label} hint={hint} checked={value === true} onChange={onChange} disabled={disabled} name={field.name} />;
    case 'select': {
      const choices = field.choices ?? (field.name === 'default_language' ? LANGUAGES : (field.options ?? []).map((o) => ({ value: o.value, label: t(o.label) })));
      return <Select label={label} hint={hint} value={value as string | number} choices={choices} onChange={onChange} disabled={disabled} name={field.name} />;
    }
    case 'channel':
      return <ChannelSelect {...props} />;
    case 'group':
      return <GroupField {...props} />;
    case 'timeLimit':
    case 'retention':
    case 'days':
      return <LimitControl kind={field.kind} label={label} value={value as number | null} onChange={onChange} disabled={disabled} invalid={invalid} name={field.name} nullable={field.nullable} />;
    default:
      return <TextField {...props} />;
  }
}

function ChannelSelect({ field, value, onChange, disabled }: FieldControlProps) {
  const channels = useAllChannels().filter((c) => !c.is_archived);
  const choices = [{ value: -1, label: t('admin.channel.none') }, ...channels.map((c) => ({ value: c.stream_id, label: `#${c.name}` }))];
  return <Select label={t(field.label)} value={typeof value === 'number' ? value : -1} choices={choices} onChange={onChange} disabled={disabled} name={field.name} />;
}

function GroupField({ field, value, onChange, disabled }: FieldControlProps) {
  const groups = useGroups();
  const users = useHumans();
  const nobodyId = useNobodyId();
  const config = usePermissionConfig(field.permissionKind ?? 'realm', field.name);
  return (
    <GroupSettingPicker
      label={t(field.label)}
      name={field.name}
      value={(value ?? nobodyId) as GroupSettingValue}
      onChange={onChange}
      groups={groups}
      users={users}
      nobodyId={nobodyId}
      config={config}
      disabled={disabled}
    />
  );
}

function TextField({ field, value, onChange, disabled, invalid }: FieldControlProps) {
  const id = useId();
  const common = {
    id,
    name: field.name,
    value: typeof value === 'string' ? value : '',
    disabled,
    'aria-invalid': !!invalid,
    'aria-describedby': invalid ? `${id}-invalid` : undefined,
  };
  return (
    <div className="setting-row setting-text-field" data-setting={field.name}>
      <div className="setting-text">
        <label htmlFor={id}>{t(field.label)}</label>
        {field.hint && <div className="setting-hint">{t(field.hint)}</div>}
      </div>
      <div className="setting-control">
        {field.kind === 'textarea' ? <textarea {...common} rows={4} onChange={(e) => onChange(e.target.value)} /> : <input {...common} type="text" onChange={(e) => onChange(e.target.value)} />}
        {invalid && <span id={`${id}-invalid`} className="settings-error">{invalid}</span>}
      </div>
    </div>
  );
}
