/** Tabs (the ARIA tabs pattern): arrow keys move between them, the chosen one's panel follows. */
import { useId, useRef, type ReactNode } from 'react';

export interface TabsProps<K extends string> {
  label: string;
  tabs: ReadonlyArray<{ key: K; label: string }>;
  current: K;
  onChange: (key: K) => void;
  children: ReactNode;
}

export function Tabs<K extends string>({ label, tabs, current, onChange, children }: TabsProps<K>) {
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: React.KeyboardEvent) => {
    const i = tabs.findIndex((tab) => tab.key === current);
    const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : null;
    if (next === null) return;
    e.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length]!;
    onChange(tab.key);
    requestAnimationFrame(() => list.current?.querySelector<HTMLElement>(`[data-key="${tab.key}"]`)?.focus());
  };
  return (
    <>
      <div role="tablist" aria-label={label} className="admin-tabs" ref={list} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.key}
            type="button"
            role="tab"
            id={`${id}-${tab.key}`}
            data-key={tab.key}
            aria-selected={tab.key === current}
            aria-controls={`${id}-panel`}
            tabIndex={tab.key === current ? 0 : -1}
            onClick={() => onChange(tab.key)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${current}`} className="admin-tabpanel">
        {children}
      </div>
    </>
  );
}
