/**
 * Marking messages read as they are seen, in batches (one POST for everything seen within a
 * short pause), and the view-wide "mark all as read" and "mark as unread from here". The
 * store changes only when the update_message_flags events arrive; ids already asked for are
 * remembered so a scroll does not ask twice.
 */
import { api } from '../api';
import { apiNarrow, type NarrowTerm } from '../narrow/hash';

const BATCH_MS = 250;
const queued = new Set<number>();
const asked = new Set<number>();
let timer: ReturnType<typeof setTimeout> | null = null;

async function flush(): Promise<void> {
  timer = null;
  const ids = [...queued].sort((a, b) => a - b);
  queued.clear();
  if (!ids.length) return;
  try {
    await api.updateFlags(ids, 'add', 'read');
  } catch {
    // Asked again the next time they are seen.
    for (const id of ids) asked.delete(id);
  }
}

/** Queues messages seen on screen to be marked read. */
export function markSeen(ids: Iterable<number>): void {
  let added = false;
  for (const id of ids) {
    if (asked.has(id)) continue;
    asked.add(id);
    queued.add(id);
    added = true;
  }
  if (added && !timer) timer = setTimeout(() => void flush(), BATCH_MS);
}

/** Forgets that messages were asked for, so marking them unread lets them be marked read again later. */
export function forgetSeen(ids: Iterable<number>): void {
  for (const id of ids) asked.delete(id);
}

/** Views where reading is paused, after "mark as unread from here" (until the view is left). */
const paused = new Set<string>();

export function isReadingPaused(narrowKey: string): boolean {
  return paused.has(narrowKey);
}

export function resumeReading(narrowKey: string): void {
  paused.delete(narrowKey);
}

const BATCH = 1000;

/**
 * Walks the narrow in batches from `anchor`, as the family does for large views, adding or
 * removing the read flag; stops when the newest message is reached.
 */
async function flagNarrow(terms: NarrowTerm[], anchor: number | 'oldest', op: 'add' | 'remove'): Promise<number> {
  let from: number | 'oldest' = anchor;
  let include = true;
  let updated = 0;
  for (let i = 0; i < 1000; i++) {
    const res = await api.updateFlagsForNarrow({ anchor: from, include_anchor: include, num_before: 0, num_after: BATCH, narrow: apiNarrow(terms), op, flag: 'read' });
    updated += res.updated_count;
    if (res.found_newest || res.last_processed_id === null) break;
    from = res.last_processed_id;
    include = false;
  }
  return updated;
}

export async function markViewRead(terms: NarrowTerm[], narrowKey: string): Promise<void> {
  resumeReading(narrowKey);
  if (!terms.length) {
    await api.markAllAsRead();
    return;
  }
  await flagNarrow(terms, 'oldest', 'add');
}

/** Marks the message and everything after it in the view unread, and stops reading here until the view is left. */
export async function markUnreadFrom(terms: NarrowTerm[], narrowKey: string, messageId: number, loadedIds: readonly number[]): Promise<void> {
  paused.add(narrowKey);
  forgetSeen(loadedIds.filter((id) => id >= messageId));
  await flagNarrow(terms, messageId, 'remove');
}
