/** A refusal from the server after a sidebar action, shown in words until dismissed. */
import { useSyncExternalStore } from 'react';

let message: string | null = null;
const listeners = new Set<() => void>();

export function showSidebarError(text: string | null): void {
  message = text;
  for (const l of listeners) l();
}

export function useSidebarError(): string | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => message,
  );
}
