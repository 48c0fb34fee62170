/**
 * A subsection of organization settings, saved as one (the family's save/discard bar): the
 * fields show the store's values until changed, the changes are sent together, and "Saving…"
 * lasts until the event brings the new values into the store. The server's refusal is shown
 * in words beside the buttons.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { errorText } from '../../api';
import { t } from '../../i18n';
import { SaveState, SettingsGroup, useSave } from '../../settings/controls';
import { changedValues, invalidReason, readValues, sameValue, settledDraft, toParams, type FieldDef, type Values } from '../formModel';
import { FieldControl } from './FieldControl';

export interface SettingsFormProps {
  title: string;
  fields: readonly FieldDef[];
  /** Where the current values are read: the snapshot (with `prefix`) or an object of them. */
  source: Record<string, unknown>;
  prefix?: string;
  canEdit: boolean;
  isOwner: boolean;
  save: (params: Record<string, unknown>) => Promise<unknown>;
  testId?: string;
  /** Something shown right after a field, by the field's name (e.g. the allowed domains under the sign-up restriction). */
  after?: Partial<Record<string, ReactNode>>;
}

export function SettingsForm({ title, fields, source, prefix = '', canEdit, isOwner, save, testId, after }: SettingsFormProps) {
  const current = useMemo(() => readValues(fields, source, prefix), [fields, source, prefix]);
  const [draft, setDraft] = useState<Values>({});
  const equalsAll = (a: Values, b: Values) => fields.every((f) => sameValue(f.kind, a[f.name], b[f.name]));
  const saving = useSave<Values>(current, equalsAll);

  // Changes the store now holds (their event came) are no longer a draft.
  useEffect(() => setDraft((d) => (Object.keys(d).length ? settledDraft(fields, current, d) : d)), [fields, current]);

  const shown = { ...current, ...draft };
  const changes = changedValues(fields, current, draft);
  const dirty = Object.keys(changes).length > 0;
  const problems = Object.fromEntries(fields.map((f) => [f.name, f.name in changes ? invalidReason(f, changes[f.name]) : null]));
  const blocked = Object.values(problems).some(Boolean);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!dirty || blocked) return;
    const params = toParams(fields, changes);
    const sent = { ...changes };
    saving.save(
      () => save(params).catch((err: unknown) => Promise.reject(new Error(errorText(err)))),
      undefined,
      (c) => Object.entries(sent).every(([name, v]) => sameValue(fields.find((f) => f.name === name)!.kind, c[name], v)),
    );
  };

  return (
    <SettingsGroup title={title}>
      <form className="admin-form" onSubmit={submit} data-testid={testId}>
        {fields.map((f) => {
          const ownerLocked = !!f.ownerOnly && !isOwner;
          const problem = problems[f.name];
          return (
            <div key={f.name} className="admin-field">
              <FieldControl
                field={f}
                value={shown[f.name]}
                onChange={(v) => setDraft((d) => ({ ...d, [f.name]: v }))}
                disabled={!canEdit || ownerLocked || saving.status.kind === 'saving'}
                invalid={problem ? t(problem) : null}
              />
              {canEdit && ownerLocked && <p className="setting-hint">{t('admin.owner_only')}</p>}
              {after?.[f.name]}
            </div>
          );
        })}
        {canEdit && (
          <div className="settings-actions admin-save-bar">
            {dirty && (
              <>
                <button type="submit" className="primary" disabled={blocked || saving.status.kind === 'saving'}>{t('admin.save_changes')}</button>
                <button type="button" onClick={() => setDraft({})} disabled={saving.status.kind === 'saving'}>{t('admin.discard')}</button>
              </>
            )}
            <SaveState status={saving.status} />
          </div>
        )}
      </form>
    </SettingsGroup>
  );
}
