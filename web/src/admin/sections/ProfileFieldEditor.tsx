/** The form adding or editing a custom profile field: name, hint, type and what the type needs, and its flags. */
import { useId, useState } from 'react';
import { t } from '../../i18n';
import { ActionStatus } from '../components/ActionStatus';
import { useAction } from '../components/useAction';
import { FIELD_TYPE_LABELS, nextChoiceKey, type ProfileFieldForm } from '../profileFieldForm';

const ACCOUNT_KINDS = [
  { value: 'github', label: 'GitHub' },
  { value: 'twitter', label: 'X (Twitter)' },
];

export function ProfileFieldEditor(props: {
  initial: ProfileFieldForm;
  isNew: boolean;
  submitLabel: string;
  okText: string;
  request: (form: ProfileFieldForm) => Promise<unknown>;
  onDone?: () => void;
  onCancel?: () => void;
}) {
  const id = useId();
  const [form, setForm] = useState(props.initial);
  const action = useAction();
  const set = (patch: Partial<ProfileFieldForm>) => setForm((f) => ({ ...f, ...patch }));
  const setChoice = (i: number, text: string) => set({ choices: form.choices.map((c, j) => (j === i ? { ...c, text } : c)) });
  return (
    <form
      className="admin-form profile-field-form"
      data-testid="profile-field-form"
      onSubmit={(e) => {
        e.preventDefault();
        action.run(() => props.request(form), props.okText, () => {
          if (props.isNew) setForm(props.initial);
          props.onDone?.();
        });
      }}
    >
      <div className="stack">
        <label htmlFor={`${id}-type`}>{t('admin.pf.type')}</label>
        <select id={`${id}-type`} value={form.type} disabled={!props.isNew} onChange={(e) => set({ type: Number(e.target.value) })}>
          {FIELD_TYPE_LABELS.map((o) => (
            <option key={o.value} value={o.value}>{t(o.label)}</option>
          ))}
        </select>
        {form.type === 7 && (
          <>
            <label htmlFor={`${id}-kind`}>{t('admin.pf.account_kind')}</label>
            <select id={`${id}-kind`} value={form.subtype} onChange={(e) => set({ subtype: e.target.value })}>
              {ACCOUNT_KINDS.map((k) => (
                <option key={k.value} value={k.value}>{k.label}</option>
              ))}
              <option value="custom">{t('admin.pf.account_custom')}</option>
            </select>
            {form.subtype === 'custom' && (
              <>
                <label htmlFor={`${id}-pattern`}>{t('admin.pf.url_pattern')}</label>
                <input id={`${id}-pattern`} type="text" required placeholder="https://example.com/%(username)s" value={form.urlPattern} onChange={(e) => set({ urlPattern: e.target.value })} />
              </>
            )}
          </>
        )}
        {(form.type !== 7 || form.subtype === 'custom') && (
          <>
            <label htmlFor={`${id}-name`}>{t('admin.pf.name')}</label>
            <input id={`${id}-name`} type="text" required={form.type !== 7} value={form.name} onChange={(e) => set({ name: e.target.value })} />
          </>
        )}
        <label htmlFor={`${id}-hint`}>{t('admin.pf.hint')}</label>
        <input id={`${id}-hint`} type="text" value={form.hint} onChange={(e) => set({ hint: e.target.value })} />
      </div>
      {form.type === 3 && (
        <fieldset>
          <legend>{t('admin.pf.choices')}</legend>
          {form.choices.map((c, i) => (
            <div key={c.key} className="settings-actions">
              <label htmlFor={`${id}-choice-${c.key}`} className="visually-hidden">{t('admin.pf.choice_n', { n: i + 1 })}</label>
              <input id={`${id}-choice-${c.key}`} type="text" value={c.text} onChange={(e) => setChoice(i, e.target.value)} />
              <button type="button" onClick={() => set({ choices: form.choices.filter((_, j) => j !== i) })} disabled={form.choices.length <= 1} aria-label={t('admin.pf.remove_choice', { n: i + 1 })}>×</button>
            </div>
          ))}
          <button type="button" onClick={() => set({ choices: [...form.choices, { key: nextChoiceKey(form.choices), text: '' }] })}>{t('admin.pf.add_choice')}</button>
        </fieldset>
      )}
      <label className="checkbox-row">
        <input type="checkbox" checked={form.displayInSummary} onChange={(e) => set({ displayInSummary: e.target.checked })} />
        {t('admin.pf.summary')}
      </label>
      <label className="checkbox-row">
        <input type="checkbox" checked={form.required} onChange={(e) => set({ required: e.target.checked })} />
        {t('admin.pf.required')}
      </label>
      <label className="checkbox-row">
        <input type="checkbox" checked={form.editableByUser} onChange={(e) => set({ editableByUser: e.target.checked })} />
        {t('admin.pf.editable')}
      </label>
      <div className="settings-actions">
        <button type="submit" className="primary" disabled={action.state.busy}>{props.submitLabel}</button>
        {props.onCancel && <button type="button" onClick={props.onCancel}>{t('misc.cancel')}</button>}
        <ActionStatus state={action.state} />
      </div>
    </form>
  );
}
