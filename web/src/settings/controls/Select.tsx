/** A labelled drop-down of fixed choices (numbers or strings, as the API names them). */
import { useId, type ReactNode } from 'react';
import { SaveState } from './SaveState';
import { IDLE, type SaveStatus } from './useSave';

export interface Choice<V extends string | number> {
  value: V;
  label: string;
}

export interface SelectProps<V extends string | number> {
  label: ReactNode;
  value: V;
  choices: ReadonlyArray<Choice<V>>;
  onChange: (value: V) => void;
  disabled?: boolean;
  hint?: ReactNode;
  status?: SaveStatus;
  name?: string;
}

export function Select<V extends string | number>({ label, value, choices, onChange, disabled, hint, status = IDLE, name }: SelectProps<V>) {
  const id = useId();
  // A value the list does not have (e.g. set elsewhere) is still shown, as itself.
  const all = choices.some((c) => c.value === value) ? choices : [...choices, { value, label: String(value) }];
  return (
    <div className="setting-row setting-select">
      <div className="setting-text">
        <label htmlFor={id}>{label}</label>
        {hint && <div id={`${id}-hint`} className="setting-hint">{hint}</div>}
      </div>
      <div className="setting-control">
        <select
          id={id}
          name={name}
          value={String(value)}
          disabled={disabled}
          aria-describedby={`${id}-state${hint ? ` ${id}-hint` : ''}`}
          onChange={(e) => {
            const chosen = all.find((c) => String(c.value) === e.target.value);
            if (chosen) onChange(chosen.value);
          }}
        >
          {all.map((c) => (
            <option key={String(c.value)} value={String(c.value)}>{c.label}</option>
          ))}
        </select>
        <SaveState id={`${id}-state`} status={status} />
      </div>
    </div>
  );
}
