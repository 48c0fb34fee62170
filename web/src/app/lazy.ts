/**
 * Screens loaded on demand. A tab opened before the app was rebuilt asks for chunks whose
 * names the new build no longer has: the import fails, and the page is loaded again (once a
 * minute at most, so a server that really lacks the file does not make the page loop).
 */
import { lazy, type ComponentType } from 'react';

const RELOADED_KEY = 'chat.reloaded-for-chunk';

export function reloadForNewVersion(): boolean {
  try {
    const last = Number(sessionStorage.getItem(RELOADED_KEY) ?? 0);
    if (Date.now() - last < 60_000) return false;
    sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
  } catch {
    return false;
  }
  location.reload();
  return true;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the props of whatever screen is loaded
export function lazyScreen<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return lazy(() =>
    load().catch((err: unknown) => {
      // While the page reloads, nothing is shown in place of the screen.
      if (reloadForNewVersion()) return new Promise<{ default: T }>(() => undefined);
      throw err;
    }),
  );
}
