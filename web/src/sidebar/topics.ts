/**
 * A channel's topics for the sidebar: the server's list (fetched once per channel when it is
 * first expanded; the store keeps it current from messages and moves), and what the sidebar
 * shows of it: the most recent few, plus those with unread messages and the one open.
 */
import { useEffect } from 'react';
import { api } from '../api';
import { store, useAppState, type ChannelTopics } from '../state/store';

export async function loadTopics(streamId: number): Promise<void> {
  const current = store.get().topics[streamId];
  if (current?.complete || current?.loading) return;
  const generation = store.get().generation;
  store.set((s) => ({ ...s, topics: { ...s.topics, [streamId]: { topics: s.topics[streamId]?.topics ?? [], complete: false, loading: true } } }));
  try {
    const r = await api.call<{ topics: Array<{ name: string; max_id: number }> }>('GET', `/users/me/${streamId}/topics`);
    if (store.get().generation !== generation) return;
    store.set((s) => {
      // Topics seen in messages while the list was on its way are kept (they are newer).
      const seen = s.topics[streamId]?.topics ?? [];
      const byName = new Map(r.topics.map((t) => [t.name.toLowerCase(), t]));
      for (const t of seen) {
        const known = byName.get(t.name.toLowerCase());
        if (!known || known.max_id < t.max_id) byName.set(t.name.toLowerCase(), t);
      }
      const topics = [...byName.values()].sort((a, b) => b.max_id - a.max_id);
      return { ...s, topics: { ...s.topics, [streamId]: { topics, complete: true } } };
    });
  } catch {
    store.set((s) => ({ ...s, topics: { ...s.topics, [streamId]: { topics: s.topics[streamId]?.topics ?? [], complete: false } } }));
  }
}

export function useChannelTopics(streamId: number | undefined): ChannelTopics | undefined {
  const entry = useAppState((s) => (streamId === undefined ? undefined : s.topics[streamId]));
  const generation = useAppState((s) => s.generation);
  useEffect(() => {
    if (streamId !== undefined) void loadTopics(streamId);
  }, [streamId, generation]);
  return entry;
}

export const TOPICS_SHOWN = 8;

/**
 * The topics listed under an open channel, newest first: the first few, then any further ones
 * with unread messages, and the open topic wherever it is (the family's rule), unless all are asked for.
 */
export function visibleTopics(all: string[], unread: ReadonlyMap<string, number>, current: string | undefined, showAll: boolean, limit = TOPICS_SHOWN): { shown: string[]; more: number } {
  if (showAll) return { shown: all, more: 0 };
  const shown = all.filter((name, i) => i < limit || (unread.get(name.toLowerCase()) ?? 0) > 0 || (current !== undefined && name.toLowerCase() === current.toLowerCase()));
  return { shown, more: all.length - shown.length };
}
