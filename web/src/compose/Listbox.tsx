/**
 * The suggestion list under (or above) a text field: a listbox whose options the field points
 * at with aria-activedescendant, so focus stays in the field while Up/Down move through the
 * options, Tab or Enter choose one and Escape closes the list. A click chooses too.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface ListboxState<T> {
  id: string;
  items: T[];
  active: number;
  open: boolean;
  setActive: (i: number) => void;
  close: () => void;
  /** Handles the list's keys; true when the key was used (the caller then does nothing else). */
  onKeyDown: (e: KeyboardEvent) => boolean;
  optionId: (i: number) => string;
  /** Props for the field (an input gets the combobox role; a textarea may not carry it). */
  fieldProps: (asCombobox: boolean) => Record<string, string | boolean | undefined>;
}

/**
 * `items` are the current suggestions (empty: no list); `resetKey` changes when the query
 * does, which moves the highlight back to the first item and reopens a closed list.
 */
export function useListbox<T>(items: T[], resetKey: string, onPick: (item: T, e: KeyboardEvent | null) => void, onEscape?: () => void): ListboxState<T> {
  const id = useId();
  const [active, setActive] = useState(0);
  const [closedFor, setClosedFor] = useState<string | null>(null);
  useEffect(() => {
    setActive(0);
    // A list closed with Escape stays closed until the query changes to one with suggestions
    // (not when the suggestions merely vanish and come back, as on blur or preview).
    if (items.length) setClosedFor((c) => (c === resetKey ? c : null));
  }, [resetKey]);
  const open = items.length > 0 && closedFor !== resetKey;
  const at = Math.min(active, Math.max(0, items.length - 1));
  const optionId = (i: number) => `${id}-opt-${i}`;
  const close = () => setClosedFor(resetKey);
  const onKeyDown = (e: KeyboardEvent): boolean => {
    if (!open || e.nativeEvent.isComposing) return false;
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        setActive((at + 1) % items.length);
        return true;
      case 'ArrowUp':
        e.preventDefault();
        setActive((at - 1 + items.length) % items.length);
        return true;
      case 'Tab':
      case 'Enter':
        if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return false;
        e.preventDefault();
        onPick(items[at]!, e);
        return true;
      case 'Escape':
        e.preventDefault();
        e.stopPropagation();
        onEscape?.();
        close();
        return true;
      default:
        return false;
    }
  };
  const fieldProps = (asCombobox: boolean) => ({
    ...(asCombobox ? { role: 'combobox', 'aria-expanded': open } : {}),
    'aria-autocomplete': 'list',
    'aria-controls': open ? id : undefined,
    'aria-activedescendant': open ? optionId(at) : undefined,
  });
  return { id, items, active: at, open, setActive, close, onKeyDown, optionId, fieldProps };
}

export function Listbox<T>({ state, label, render, onPick, className, testId }: { state: ListboxState<T>; label: string; render: (item: T) => ReactNode; onPick: (item: T) => void; className?: string; testId?: string }) {
  const ref = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (!state.open) return;
    document.getElementById(state.optionId(state.active))?.scrollIntoView({ block: 'nearest' });
  }, [state.open, state.active]);
  if (!state.open) return null;
  return (
    <ul ref={ref} id={state.id} role="listbox" aria-label={label} className={`typeahead ${className ?? ''}`} data-testid={testId}>
      {state.items.map((item, i) => (
        <li
          key={i}
          id={state.optionId(i)}
          role="option"
          aria-selected={i === state.active}
          className={i === state.active ? 'active' : undefined}
          // Keeps focus in the field: choosing must not blur it.
          onMouseDown={(e) => e.preventDefault()}
          onMouseEnter={() => state.setActive(i)}
          onClick={() => onPick(item)}
        >
          {render(item)}
        </li>
      ))}
    </ul>
  );
}
