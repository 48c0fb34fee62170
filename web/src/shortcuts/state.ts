/** Whether the keyboard shortcuts' help is open (from `?` or the personal menu). */
import { useSyncExternalStore } from 'react';

let open = false;
const listeners = new Set<() => void>();

export function setShortcutsHelp(next: boolean): void {
  open = next;
  for (const l of listeners) l();
}

export function useShortcutsHelp(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => open,
  );
}
