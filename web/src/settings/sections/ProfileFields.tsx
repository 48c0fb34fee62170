/**
 * The organization's custom profile fields, each with the editor its type needs (text, long
 * text, choice, date, link, people, external account, pronouns), saved one field at a time.
 */
import { useId, useMemo } from 'react';
import { t } from '../../i18n';
import { useAppState, useReg } from '../../state/store';
import { SaveState, Select, SettingsGroup, TextSetting, useSave } from '../controls';
import { saveProfileField } from '../lib/calls';
import { useMe } from '../lib/hooks';
import { checkFieldValue, externalAccount, FIELD_TYPE, fieldChoices, profileChange, profileValueMatches, userIds, type ProfileField } from '../lib/profileFields';

export function ProfileFields() {
  const reg = useReg();
  const fields = ((reg.custom_profile_fields as ProfileField[] | undefined) ?? []).slice().sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  return (
    <SettingsGroup title={t('settings.profile.fields')}>
      {fields.length === 0 && <p className="settings-description">{t('settings.profile.no_fields')}</p>}
      {fields.map((f) => <FieldEditor key={f.id} field={f} />)}
    </SettingsGroup>
  );
}

function FieldEditor({ field }: { field: ProfileField }) {
  const reg = useReg();
  const me = useMe();
  const current = me?.profile_data?.[String(field.id)]?.value;
  const save = useSave<string | undefined>(current);
  const locked = field.editable_by_user === false && !reg.is_admin;
  const label = field.required ? `${field.name} ${t('settings.profile.required')}` : field.name;

  const send = (entered: string | number[]) => {
    if (typeof entered === 'string') {
      const problem = checkFieldValue(field, entered);
      if (problem) return save.fail(t(problem === 'bad_url' ? 'settings.profile.bad_url' : 'settings.profile.bad_date'));
    }
    const change = profileChange(field, entered);
    const display = change.op === 'remove' ? '' : Array.isArray(change.value) ? JSON.stringify(change.value) : change.value;
    save.save(() => saveProfileField(change), display, (now) => profileValueMatches(now, change));
  };

  const hint = locked ? t('settings.profile.field_not_editable') : fieldHint(field, reg.realm_default_external_accounts as Record<string, { name?: string }> | undefined);
  const value = save.value ?? '';
  switch (field.type) {
    case FIELD_TYPE.SELECT:
      return (
        <Select
          name={`field-${field.id}`}
          label={label}
          hint={hint}
          disabled={locked}
          value={value}
          choices={[{ value: '', label: t('settings.profile.choose') }, ...fieldChoices(field).map((c) => ({ value: c.key, label: c.text }))]}
          status={save.status}
          onChange={(v) => send(String(v))}
        />
      );
    case FIELD_TYPE.USER:
      return <PeopleField field={field} label={label} hint={hint} disabled={locked} ids={userIds(save.value)} status={save.status} onChange={send} />;
    default:
      return (
        <TextSetting
          name={`field-${field.id}`}
          label={label}
          hint={hint}
          disabled={locked}
          value={value}
          multiline={field.type === FIELD_TYPE.LONG_TEXT}
          type={field.type === FIELD_TYPE.DATE ? 'date' : field.type === FIELD_TYPE.URL ? 'url' : 'text'}
          status={save.status}
          onSave={(v) => send(v)}
        />
      );
  }
}

function fieldHint(field: ProfileField, defaults?: Record<string, { name?: string }>): string | undefined {
  if (field.type === FIELD_TYPE.EXTERNAL_ACCOUNT) {
    const account = externalAccount(field, defaults);
    return field.hint || t('settings.profile.external_hint', { kind: account.name ?? field.name });
  }
  if (field.type === FIELD_TYPE.PRONOUNS) return field.hint || t('settings.profile.pronouns_hint');
  return field.hint || undefined;
}

/** A user field: the people chosen, each removable, and a list to add another. */
function PeopleField({ field, label, hint, disabled, ids, status, onChange }: {
  field: ProfileField; label: string; hint?: string; disabled: boolean; ids: number[]; status: ReturnType<typeof useSave>['status']; onChange: (ids: number[]) => void;
}) {
  const id = useId();
  const users = useAppState((s) => s.users);
  const candidates = useMemo(
    () => [...users.values()].filter((u) => u.is_active && !u.is_bot && !ids.includes(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name)),
    [users, ids],
  );
  return (
    <div className="setting-row" role="group" aria-labelledby={`${id}-label`}>
      <div className="setting-text">
        <div id={`${id}-label`}>{label}</div>
        {hint && <div className="setting-hint">{hint}</div>}
      </div>
      <div className="setting-control">
        {ids.length === 0 && <span className="setting-hint">{t('settings.profile.users_none')}</span>}
        <ul className="settings-list" style={{ flexBasis: '100%' }}>
          {ids.map((uid) => {
            const name = users.get(uid)?.full_name ?? String(uid);
            return (
              <li key={uid}>
                <span className="grow">{name}</span>
                <button type="button" disabled={disabled} aria-label={t('settings.profile.users_remove', { name, field: field.name })} onClick={() => onChange(ids.filter((x) => x !== uid))}>
                  {t('settings.remove')}
                </button>
              </li>
            );
          })}
        </ul>
        <select
          aria-label={t('settings.profile.users_add', { field: field.name })}
          disabled={disabled}
          value=""
          aria-describedby={`${id}-state`}
          onChange={(e) => e.target.value && onChange([...ids, Number(e.target.value)])}
        >
          <option value="">{t('settings.profile.users_add', { field: field.name })}</option>
          {candidates.map((u) => <option key={u.user_id} value={u.user_id}>{u.full_name}</option>)}
        </select>
        <SaveState id={`${id}-state`} status={status} />
      </div>
    </div>
  );
}
