/**
 * Authentication methods: which ways of logging in the organization allows (owners only).
 * Saved as one JSON object, PATCH /realm authentication_methods; methods this server does
 * not run are shown and cannot be switched on.
 */
import { useEffect, useId, useState } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { SaveState, SettingsGroup, SettingsSection, useSave } from '../../settings/controls';
import { useReg } from '../../state/store';
import type { SectionProps } from '../AdminView';
import { ReadOnlyNote } from '../components/ReadOnlyNote';
import { patchRealm } from '../api';

type Methods = Record<string, { enabled: boolean; available: boolean; unavailable_reason?: string }>;

/** The methods whose switch differs from the current state, as the object PATCH /realm takes. */
export function methodChanges(current: Methods, draft: Record<string, boolean>): Record<string, boolean> {
  return Object.fromEntries(Object.entries(draft).filter(([name, on]) => current[name]?.enabled !== on));
}

export default function AuthMethods({ access }: SectionProps) {
  const reg = useReg();
  const methods = (reg.realm_authentication_methods ?? {}) as Methods;
  const [draft, setDraft] = useState<Record<string, boolean>>({});
  const saving = useSave(methods, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  const changes = methodChanges(methods, draft);
  const dirty = Object.keys(changes).length > 0;
  const canEdit = access === 'edit';
  const names = Object.keys(methods).sort((a, b) => Number(methods[b]!.available) - Number(methods[a]!.available) || a.localeCompare(b));
  const noneLeft = names.every((n) => !(draft[n] ?? methods[n]!.enabled));

  // Switches the store now agrees with are no longer a draft.
  useEffect(() => setDraft((d) => (Object.keys(methodChanges(methods, d)).length === Object.keys(d).length ? d : methodChanges(methods, d))), [methods]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!dirty || noneLeft) return;
    const sent = { ...changes };
    saving.save(
      () => patchRealm({ authentication_methods: sent }).catch((err: unknown) => Promise.reject(new Error(errorText(err)))),
      undefined,
      (c) => Object.entries(sent).every(([name, on]) => c[name]?.enabled === on),
    );
  };

  return (
    <SettingsSection title={t('admin.section.auth')} testId="admin-auth-methods">
      {!canEdit && <ReadOnlyNote text={t('admin.auth.owners_only')} />}
      <SettingsGroup title={t('admin.auth.methods')}>
        <form onSubmit={submit}>
          {names.map((name) => (
            <MethodRow
              key={name}
              name={name}
              method={methods[name]!}
              checked={draft[name] ?? methods[name]!.enabled}
              disabled={!canEdit || (!methods[name]!.available && !methods[name]!.enabled) || saving.status.kind === 'saving'}
              onChange={(on) => setDraft((d) => ({ ...d, [name]: on }))}
            />
          ))}
          {canEdit && (
            <div className="settings-actions admin-save-bar">
              {dirty && (
                <>
                  <button type="submit" className="primary" disabled={noneLeft || saving.status.kind === 'saving'}>{t('admin.save_changes')}</button>
                  <button type="button" onClick={() => setDraft({})}>{t('admin.discard')}</button>
                </>
              )}
              {dirty && noneLeft && <span className="settings-error" role="alert">{t('admin.auth.need_one')}</span>}
              <SaveState status={saving.status} />
            </div>
          )}
        </form>
      </SettingsGroup>
    </SettingsSection>
  );
}

function MethodRow({ name, method, checked, disabled, onChange }: { name: string; method: Methods[string]; checked: boolean; disabled: boolean; onChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <div className="setting-row setting-toggle">
      <input id={id} type="checkbox" name={name} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} aria-describedby={method.available ? undefined : `${id}-why`} />
      <div className="setting-text">
        <label htmlFor={id}>{name === 'Email' ? t('admin.auth.email') : name === 'Dev' ? t('admin.auth.dev') : name}</label>
        {!method.available && <div id={`${id}-why`} className="setting-hint">{method.unavailable_reason ?? t('admin.auth.unavailable')}</div>}
      </div>
    </div>
  );
}
