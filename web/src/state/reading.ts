/**
 * Marking messages read and unread. Messages seen on screen are batched into one request every
 * ~500 ms; whole views, topics, channels and everything go through the server's narrow-based
 * calls, repeated until the server says it is done. The store changes only when the server's
 * update_message_flags events arrive.
 *
 * Exports: markAsRead, flushRead, markNarrowAsRead, markTopicAsRead, markChannelAsRead,
 * markDmAsRead, markAllAsRead, markUnread, READ_BATCH_MS.
 */
import { ApiError } from '@chat/client';
import { api } from '../api';
import { apiNarrow, type NarrowTerm } from '../narrow/hash';
import { store } from './store';
import { unreadIdSet } from './unread';

export const READ_BATCH_MS = 500;
const BATCH = 5000;

const waiting = new Set<number>();
let timer: ReturnType<typeof setTimeout> | null = null;

/** Queues messages seen on screen to be marked read (only those still unread are sent). */
export function markAsRead(ids: Iterable<number>): void {
  const reg = store.get().reg;
  if (!reg) return;
  const unread = unreadIdSet(reg.unread_msgs);
  for (const id of ids) if (unread.has(id)) waiting.add(id);
  if (waiting.size && !timer) timer = setTimeout(() => void flushRead(), READ_BATCH_MS);
}

/** Sends what markAsRead queued now; a request that failed for a passing reason is tried again later. */
export async function flushRead(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = null;
  if (!waiting.size) return;
  const ids = [...waiting].sort((a, b) => a - b);
  waiting.clear();
  try {
    await api.updateFlags(ids, 'add', 'read');
  } catch (err) {
    if (err instanceof ApiError && err.retryable) markAsRead(ids);
  }
}

type Anchor = number | 'oldest' | 'newest' | 'first_unread';

/** Applies op/flag to the whole of a narrow from `anchor` onwards, page after page. */
async function flagNarrow(terms: NarrowTerm[], op: 'add' | 'remove', anchor: Anchor): Promise<number> {
  let next: Anchor = anchor;
  let includeAnchor = true;
  let updated = 0;
  for (;;) {
    const res = await api.updateFlagsForNarrow({ anchor: next, include_anchor: includeAnchor, num_before: 0, num_after: BATCH, narrow: apiNarrow(terms), op, flag: 'read' });
    updated += res.updated_count;
    if (res.found_newest || res.last_processed_id === null) return updated;
    next = res.last_processed_id;
    includeAnchor = false;
  }
}

/** Every message of a view marked read. */
export function markNarrowAsRead(terms: NarrowTerm[]): Promise<number> {
  return flagNarrow(terms, 'add', 'oldest');
}

export function markTopicAsRead(streamId: number, topic: string): Promise<number> {
  return markNarrowAsRead([{ operator: 'channel', operand: String(streamId) }, { operator: 'topic', operand: topic }]);
}

export function markChannelAsRead(streamId: number): Promise<number> {
  return markNarrowAsRead([{ operator: 'channel', operand: String(streamId) }]);
}

/** A direct conversation, by the other people's ids. */
export function markDmAsRead(userIds: number[]): Promise<number> {
  return markNarrowAsRead([{ operator: 'dm', operand: userIds.join(',') }]);
}

/** Everything read; the server works in pieces and says when it is complete. */
export async function markAllAsRead(): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const res = await api.markAllAsRead();
    if (res.complete !== false) return;
  }
}

/** The family's "mark as unread from here": this message and every later one of the view. */
export function markUnread(fromId: number, terms: NarrowTerm[]): Promise<number> {
  return flagNarrow(terms, 'remove', fromId);
}
