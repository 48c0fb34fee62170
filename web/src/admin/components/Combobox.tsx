/**
 * A text box that suggests matches as one types (the ARIA combobox pattern): arrow keys move
 * through the suggestions, Enter picks one, Escape closes the list. Used to add people and
 * groups to pickers without loading a list of hundreds of options at once.
 */
import { useId, useMemo, useState } from 'react';

export interface ComboOption {
  key: string;
  label: string;
  detail?: string;
}

export interface ComboboxProps {
  label: string;
  options: readonly ComboOption[];
  onPick: (option: ComboOption) => void;
  disabled?: boolean;
  placeholder?: string;
  /** Shows the label to sighted people too (otherwise it only names the box). */
  showLabel?: boolean;
  max?: number;
  testId?: string;
}

export function matchOptions(options: readonly ComboOption[], query: string, max: number): ComboOption[] {
  const q = query.trim().toLowerCase();
  const hits = q ? options.filter((o) => o.label.toLowerCase().includes(q) || (o.detail ?? '').toLowerCase().includes(q)) : [...options];
  // Names that start with the query first, as people expect from a search box.
  if (q) hits.sort((a, b) => Number(!a.label.toLowerCase().startsWith(q)) - Number(!b.label.toLowerCase().startsWith(q)));
  return hits.slice(0, max);
}

export function Combobox({ label, options, onPick, disabled, placeholder, showLabel, max = 8, testId }: ComboboxProps) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const hits = useMemo(() => matchOptions(options, query, max), [options, query, max]);
  const shown = open && hits.length > 0;

  const pick = (o: ComboOption | undefined) => {
    if (!o) return;
    onPick(o);
    setQuery('');
    setActive(0);
    // Closed until the person types or asks for the list again.
    setOpen(false);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((i) => (shown ? Math.min(i + 1, hits.length - 1) : 0));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (e.key === 'Enter') {
      if (shown) {
        e.preventDefault();
        pick(hits[active]);
      }
    } else if (e.key === 'Escape' && shown) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <div className="combobox" data-testid={testId}>
      <label htmlFor={id} className={showLabel ? 'combobox-label' : 'visually-hidden'}>{label}</label>
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={`${id}-list`}
        aria-activedescendant={shown ? `${id}-opt-${active}` : undefined}
        value={query}
        disabled={disabled}
        placeholder={placeholder}
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(query.trim() !== '')}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      <ul id={`${id}-list`} role="listbox" aria-label={label} className="combobox-list" hidden={!shown}>
        {shown &&
          hits.map((o, i) => (
            <li
              key={o.key}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              // mousedown, not click: the input's blur would close the list first.
              onMouseDown={(e) => {
                e.preventDefault();
                pick(o);
              }}
            >
              <span>{o.label}</span>
              {o.detail && <span className="combobox-detail">{o.detail}</span>}
            </li>
          ))}
      </ul>
    </div>
  );
}
