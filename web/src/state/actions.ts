/**
 * What the views ask of the server: message pages for a narrow, a channel's topics, and sending
 * with local echo. Results reach the store; the rest of the state changes only through events.
 *
 * Exports: loadNarrow, loadTopics, sendMessage, retrySend, discardSend (reading and marking in
 * reading.ts).
 */
import { ApiError } from '@chat/client';
import { api } from '../api';
import { currentQueueId } from '../events/loop';
import { apiNarrow, narrowKey, type NarrowTerm } from '../narrow/hash';
import { store, type ChannelTopics, type OutboxItem } from './store';
import { noteTopic } from './topics';

const PAGE = 100;

/** Fetches the newest page of a narrow (or `anchor` onwards) into the store. */
export async function loadNarrow(terms: NarrowTerm[], direction: 'initial' | 'older' | 'newer' = 'initial', anchorId?: number | 'first_unread'): Promise<void> {
  const key = narrowKey(terms);
  const current = store.get().narrows[key];
  if (current?.loading) return;
  const generation = store.get().generation;
  store.set((s) => ({ ...s, narrows: { ...s.narrows, [key]: { ids: current?.ids ?? [], foundOldest: current?.foundOldest ?? false, foundNewest: current?.foundNewest ?? false, loading: true } } }));
  const anchor = direction === 'older' ? current?.ids[0] ?? 'newest' : direction === 'newer' ? current?.ids[current.ids.length - 1] ?? 'newest' : anchorId ?? 'newest';
  try {
    const page = await api.getMessages({
      anchor,
      num_before: direction === 'newer' ? 0 : PAGE,
      num_after: direction === 'older' ? 0 : direction === 'newer' ? PAGE : anchor === 'newest' ? 0 : PAGE,
      narrow: apiNarrow(terms),
      include_anchor: direction === 'initial',
      apply_markdown: true,
      client_gravatar: false,
    });
    if (store.get().generation !== generation) return;
    store.set((s) => {
      const messages = new Map(s.messages);
      for (const m of page.messages) messages.set(m.id, m);
      const prev = s.narrows[key];
      const base = direction === 'initial' ? [] : prev?.ids ?? [];
      const ids = [...new Set([...base, ...page.messages.map((m) => m.id)])].sort((a, b) => a - b);
      // A message sent from here that the page shows is no longer pending.
      const fetched = new Set(page.messages.map((m) => m.id));
      const outbox = s.outbox.some((o) => o.messageId !== undefined && fetched.has(o.messageId)) ? s.outbox.filter((o) => o.messageId === undefined || !fetched.has(o.messageId)) : s.outbox;
      return {
        ...s,
        messages,
        outbox,
        narrows: {
          ...s.narrows,
          [key]: {
            ids,
            foundOldest: direction === 'newer' ? prev?.foundOldest ?? false : page.found_oldest,
            foundNewest: direction === 'older' ? prev?.foundNewest ?? false : page.found_newest || anchor === 'newest',
            loading: false,
            // A fresh first page replaces a list the events had made stale.
            ...(direction !== 'initial' && prev?.stale ? { stale: true } : {}),
          },
        },
      };
    });
  } catch (err) {
    store.set((s) => ({ ...s, narrows: { ...s.narrows, [key]: { ...(s.narrows[key] ?? { ids: [], foundOldest: false, foundNewest: false }), loading: false, error: (err as Error).message } } }));
  }
}

/**
 * Fetches a channel's topics (GET /users/me/<id>/topics) into the store; the events keep the
 * list current afterwards (new messages, moves, deletions). Fetched once per channel and
 * register, unless `force`.
 */
export async function loadTopics(streamId: number, force = false): Promise<void> {
  const current = store.get().topics[streamId];
  if (current?.loading || (current?.complete && !force)) return;
  const generation = store.get().generation;
  store.set((s) => ({ ...s, topics: { ...s.topics, [streamId]: { topics: s.topics[streamId]?.topics ?? [], complete: false, loading: true } } }));
  try {
    const res = await api.call<{ topics: Array<{ name: string; max_id: number }> }>('GET', `/users/me/${streamId}/topics`);
    if (store.get().generation !== generation) return;
    store.set((s) => {
      // Topics seen in events while the request was out are kept.
      let entry: ChannelTopics = { topics: res.topics, complete: true };
      for (const t of s.topics[streamId]?.topics ?? []) entry = noteTopic(entry, t.name, t.max_id);
      return { ...s, topics: { ...s.topics, [streamId]: { ...entry, complete: true, loading: false } } };
    });
  } catch {
    store.set((s) => ({ ...s, topics: { ...s.topics, [streamId]: { topics: s.topics[streamId]?.topics ?? [], complete: false, loading: false } } }));
  }
}

let localCounter = 0;

/**
 * Sends with local echo: the message shows at once as pending; the POST carries the queue's
 * id and a local id, so a retry after a lost answer is recognised by the server and never
 * sent twice; the pending copy goes when the message's own event arrives.
 */
export function sendMessage(params: OutboxItem['params']): string {
  const localId = `${Date.now()}.${++localCounter}`;
  const item: OutboxItem = { localId, queueId: currentQueueId(), params, timestamp: Math.floor(Date.now() / 1000) };
  store.set((s) => ({ ...s, outbox: [...s.outbox, item] }));
  void deliver(item);
  return localId;
}

async function deliver(item: OutboxItem): Promise<void> {
  let delay = 500;
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await api.sendMessage({ ...item.params, ...(item.queueId ? { queue_id: item.queueId, local_id: item.localId } : {}), read_by_sender: true } as Parameters<typeof api.sendMessage>[0]);
      store.set((s) => ({ ...s, outbox: s.outbox.map((o) => (o.localId === item.localId ? { ...o, messageId: res.id } : o)) }));
      return;
    } catch (err) {
      const retry = err instanceof ApiError && err.retryable && attempt < 30;
      if (!retry) {
        store.set((s) => ({ ...s, outbox: s.outbox.map((o) => (o.localId === item.localId ? { ...o, failed: (err as Error).message } : o)) }));
        return;
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 8000);
    }
  }
}

/** Tries a failed message again, with the same local id. */
export function retrySend(localId: string): void {
  const item = store.get().outbox.find((o) => o.localId === localId);
  if (!item) return;
  store.set((s) => ({ ...s, outbox: s.outbox.map((o) => (o.localId === localId ? { ...o, failed: undefined } : o)) }));
  void deliver({ ...item, failed: undefined });
}

export function discardSend(localId: string): void {
  store.set((s) => ({ ...s, outbox: s.outbox.filter((o) => o.localId !== localId) }));
}
