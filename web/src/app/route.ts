/**
 * The current view, from the location hash; navigating is setting the hash. An empty hash is
 * the person's home view (web_home_view: inbox, recent conversations or the combined feed).
 */
import { useMemo, useSyncExternalStore } from 'react';
import type { RegisterState } from '@chat/client';
import { parseHash, viewHash, type View } from '../narrow/hash';
import { store, useAppState } from '../state/store';
import { userSetting } from '../ui/settings';

function subscribe(cb: () => void): () => void {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
}

export function useHash(): string {
  return useSyncExternalStore(subscribe, () => location.hash);
}

function homeFromSetting(home: string): View {
  if (home === 'recent' || home === 'recent_topics') return { kind: 'recent' };
  if (home === 'all_messages' || home === 'feed') return { kind: 'feed' };
  return { kind: 'inbox' };
}

export function homeView(reg: RegisterState | null): View {
  return homeFromSetting(userSetting(reg, 'web_home_view', 'inbox'));
}

export function viewOf(hash: string, reg: RegisterState | null): View {
  return hash === '' || hash === '#' ? homeView(reg) : parseHash(hash);
}

/** The view, the same object while the hash and home setting stay the same. */
export function useView(): View {
  const hash = useHash();
  const home = useAppState((s) => userSetting(s.reg, 'web_home_view', 'inbox'));
  return useMemo(() => (hash === '' || hash === '#' ? homeFromSetting(home) : parseHash(hash)), [hash, home]);
}

/** The view on screen now (outside React). */
export function currentView(): View {
  return viewOf(location.hash, store.get().reg);
}

export function navigate(to: View | string): void {
  const hash = typeof to === 'string' ? to : viewHash(to);
  if (location.hash !== hash && !(hash === '#' && location.hash === '')) location.hash = hash;
}

/** To the home view (Escape out of a narrow): the empty hash, as the family does. */
export function goHome(): void {
  if (location.hash === '' || location.hash === '#') return;
  // Without a history entry left behind with an empty "#".
  history.pushState(null, '', location.pathname + location.search);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}
