/**
 * A labelled text field saved with its own button (or Enter), for values that are typed rather
 * than picked: the draft is local until saved, and follows the store when not being edited.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { t } from '../../i18n';
import { SaveState } from './SaveState';
import { IDLE, type SaveStatus } from './useSave';

export interface TextSettingProps {
  label: ReactNode;
  value: string;
  onSave: (value: string) => void;
  disabled?: boolean;
  hint?: ReactNode;
  status?: SaveStatus;
  type?: 'text' | 'email' | 'number' | 'url' | 'date';
  maxLength?: number;
  multiline?: boolean;
  name?: string;
  saveLabel?: string;
}

export function TextSetting({ label, value, onSave, disabled, hint, status = IDLE, type = 'text', maxLength, multiline, name, saveLabel }: TextSettingProps) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setDraft(value);
  }, [value, editing]);
  const changed = draft !== value;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!changed || disabled) return;
    setEditing(false);
    onSave(draft);
  };
  const common = {
    id,
    name,
    value: draft,
    disabled,
    maxLength,
    'aria-describedby': `${id}-state${hint ? ` ${id}-hint` : ''}`,
    onFocus: () => setEditing(true),
    onBlur: () => setEditing(draft !== value),
  };
  return (
    <form className="setting-row setting-text-field" onSubmit={submit}>
      <div className="setting-text">
        <label htmlFor={id}>{label}</label>
        {hint && <div id={`${id}-hint`} className="setting-hint">{hint}</div>}
      </div>
      <div className="setting-control">
        {multiline ? (
          <textarea {...common} rows={3} onChange={(e) => setDraft(e.target.value)} />
        ) : (
          <input {...common} type={type} onChange={(e) => setDraft(e.target.value)} />
        )}
        <button type="submit" disabled={disabled || !changed}>{saveLabel ?? t('misc.save')}</button>
        <SaveState id={`${id}-state`} status={status} />
      </div>
    </form>
  );
}
