/** The current view, from the location hash; navigating is setting the hash. */
import { useSyncExternalStore } from 'react';
import { parseHash, viewHash, type View } from '../narrow/hash';

function subscribe(cb: () => void): () => void {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
}

export function useHash(): string {
  return useSyncExternalStore(subscribe, () => location.hash);
}

export function useView(): View {
  const hash = useHash();
  return parseHash(hash);
}

export function navigate(to: View | string): void {
  const hash = typeof to === 'string' ? to : viewHash(to);
  if (location.hash !== hash) location.hash = hash;
}
