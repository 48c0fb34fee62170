/**
 * A channel's topics for the topic field and the `#channel>` typeahead, newest first: the
 * store's list (GET /json/users/me/{stream_id}/topics, fetched once per channel by the state
 * engine and kept current by events, so nothing here refetches).
 */
import { useEffect, useMemo } from 'react';
import { loadTopics } from '../state/actions';
import { store, useAppState } from '../state/store';

/** For the typeahead, read at the keystroke; asks for the list the first time. */
export function topicsFor(streamId: number): string[] {
  if (!streamId) return [];
  const entry = store.get().topics[streamId];
  if (!entry) void loadTopics(streamId);
  return (entry?.topics ?? []).map((t) => t.name);
}

export function useTopics(streamId: number): string[] {
  const entry = useAppState((s) => (streamId ? s.topics[streamId] : undefined));
  useEffect(() => {
    if (streamId) void loadTopics(streamId);
  }, [streamId]);
  return useMemo(() => (entry?.topics ?? []).map((t) => t.name), [entry]);
}
