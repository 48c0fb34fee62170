/** A labelled checkbox with an optional hint and the state of its save beside it. */
import { useId, type ReactNode } from 'react';
import { SaveState } from './SaveState';
import { IDLE, type SaveStatus } from './useSave';

export interface ToggleProps {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  hint?: ReactNode;
  status?: SaveStatus;
  /** A name for tests and for finding the control (e.g. the setting's name). */
  name?: string;
}

export function Toggle({ label, checked, onChange, disabled, hint, status = IDLE, name }: ToggleProps) {
  const id = useId();
  return (
    <div className="setting-row setting-toggle">
      <input id={id} type="checkbox" name={name} checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} aria-describedby={`${id}-state${hint ? ` ${id}-hint` : ''}`} />
      <div className="setting-text">
        <label htmlFor={id}>{label}</label>
        {hint && <div id={`${id}-hint`} className="setting-hint">{hint}</div>}
      </div>
      <SaveState id={`${id}-state`} status={status} />
    </div>
  );
}
