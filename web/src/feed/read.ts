/**
 * Reading in the feed, over the state engine's marking (state/reading.ts): what is seen on
 * screen is queued to be marked read, once per message until it is marked unread again; "mark
 * all as read" for the view; and "mark as unread from here", after which the view stops marking
 * what it shows until it is left (as the family's app does).
 */
import type { NarrowTerm } from '../narrow/hash';
import { markAllAsRead, markAsRead, markNarrowAsRead, markUnread } from '../state/reading';

const asked = new Set<number>();

/** Queues messages seen on screen to be marked read; the store changes with the flag events. */
export function markSeen(ids: Iterable<number>): void {
  const fresh = [...ids].filter((id) => !asked.has(id));
  if (!fresh.length) return;
  for (const id of fresh) asked.add(id);
  markAsRead(fresh);
}

/** Views where reading is paused, after "mark as unread from here". */
const paused = new Set<string>();

export function isReadingPaused(narrowKey: string): boolean {
  return paused.has(narrowKey);
}

export function resumeReading(narrowKey: string): void {
  paused.delete(narrowKey);
}

export async function markViewRead(terms: NarrowTerm[], narrowKey: string): Promise<void> {
  resumeReading(narrowKey);
  if (!terms.length) await markAllAsRead();
  else await markNarrowAsRead(terms);
}

export async function markUnreadFrom(terms: NarrowTerm[], narrowKey: string, messageId: number, loadedIds: readonly number[]): Promise<void> {
  paused.add(narrowKey);
  for (const id of loadedIds) if (id >= messageId) asked.delete(id);
  await markUnread(messageId, terms);
}
