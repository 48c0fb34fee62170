/**
 * A channel's topics for the topic input and the `#channel>` typeahead: the server's list
 * (GET /json/users/me/{stream_id}/topics), fetched once per channel and kept for the session,
 * with the topics of messages that arrived since (from the store) in front.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { api } from '../api';
import { store, useAppState } from '../state/store';

const fetched = new Map<number, string[]>();
const inflight = new Set<number>();
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version++;
  for (const l of listeners) l();
}

function fetchTopics(streamId: number): void {
  if (!streamId || fetched.has(streamId) || inflight.has(streamId)) return;
  inflight.add(streamId);
  api
    .call<{ topics: Array<{ name: string; max_id: number }> }>('GET', `/users/me/${streamId}/topics`)
    .then((r) => fetched.set(streamId, [...r.topics].sort((a, b) => b.max_id - a.max_id).map((t) => t.name)))
    .catch(() => fetched.set(streamId, []))
    .finally(() => {
      inflight.delete(streamId);
      changed();
    });
}

/** Topics newest first (case-insensitive duplicates dropped); asks the server the first time. */
export function topicsFor(streamId: number): string[] {
  fetchTopics(streamId);
  const recent: Array<{ name: string; id: number }> = [];
  for (const m of store.get().messages.values()) {
    if (m.type === 'stream' && m.stream_id === streamId) recent.push({ name: m.subject, id: m.id });
  }
  recent.sort((a, b) => b.id - a.id);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of [...recent.map((r) => r.name), ...(fetched.get(streamId) ?? [])]) {
    const k = name.toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(name);
  }
  return out;
}

/** Re-renders when a channel's list arrives or new messages come in. */
export function useTopics(streamId: number): string[] {
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => version,
  );
  const messages = useAppState((s) => s.messages);
  useEffect(() => fetchTopics(streamId), [streamId]);
  void messages;
  return topicsFor(streamId);
}
