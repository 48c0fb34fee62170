/**
 * The messages recent conversations are built from: the newest few hundred of the combined
 * feed, fetched once per snapshot (and older ones on request), merged into the store's message
 * cache; new messages arrive by events like any others.
 */
import { api } from '../api';
import { store, useAppState } from '../state/store';
import { useEffect, useSyncExternalStore } from 'react';

const BATCH = 400;

interface RecentFetch {
  generation: number;
  loading: boolean;
  oldestId: number | null;
  foundOldest: boolean;
  error: string | null;
}

let state: RecentFetch = { generation: -1, loading: false, oldestId: null, foundOldest: false, error: null };
const listeners = new Set<() => void>();

function set(next: Partial<RecentFetch>): void {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

export async function fetchRecent(older = false): Promise<void> {
  const generation = store.get().generation;
  if (state.loading && state.generation === generation) return;
  if (!older && state.generation === generation) return;
  if (state.generation !== generation) state = { generation, loading: false, oldestId: null, foundOldest: false, error: null };
  set({ loading: true, error: null });
  try {
    const page = await api.getMessages({ anchor: older && state.oldestId !== null ? state.oldestId : 'newest', num_before: BATCH, num_after: 0, include_anchor: false, narrow: [], apply_markdown: true, client_gravatar: false });
    if (store.get().generation !== generation) return;
    store.set((s) => {
      const messages = new Map(s.messages);
      for (const m of page.messages) if (!messages.has(m.id)) messages.set(m.id, m);
      return { ...s, messages };
    });
    const oldest = page.messages.length ? Math.min(...page.messages.map((m) => m.id)) : state.oldestId;
    set({ loading: false, oldestId: oldest, foundOldest: page.found_oldest });
  } catch (err) {
    set({ loading: false, error: (err as Error).message });
  }
}

export function useRecentFetch(): RecentFetch {
  const generation = useAppState((s) => s.generation);
  useEffect(() => {
    void fetchRecent();
  }, [generation]);
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}
