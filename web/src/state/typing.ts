/**
 * Who is typing where: the store keeps one entry per typist and conversation (AppState.typing),
 * each expiring after the family's 15 s unless renewed by another `start`. Pure.
 *
 * Exports: TYPING_EXPIRY_MS, streamTypingKey, dmTypingKey, startTyping, stopTyping, pruneTyping,
 * typingUserIds.
 */
import type { TypingEntry } from './store';

export const TYPING_EXPIRY_MS = 15_000;

export function streamTypingKey(streamId: number, topic: string): string {
  return `stream:${streamId}:${topic.toLowerCase()}`;
}

/** A direct conversation by everyone in it, oneself included. */
export function dmTypingKey(userIds: number[], selfId: number): string {
  return `dm:${[...new Set([...userIds, selfId])].sort((a, b) => a - b).join(',')}`;
}

export function startTyping(list: TypingEntry[], key: string, userId: number, now: number, expiryMs = TYPING_EXPIRY_MS): TypingEntry[] {
  return [...list.filter((t) => !(t.key === key && t.userId === userId) && t.expires > now), { key, userId, expires: now + expiryMs }];
}

export function stopTyping(list: TypingEntry[], key: string, userId: number): TypingEntry[] {
  const next = list.filter((t) => !(t.key === key && t.userId === userId));
  return next.length === list.length ? list : next;
}

/** The list without expired entries (the same list when none expired). */
export function pruneTyping(list: TypingEntry[], now: number): TypingEntry[] {
  const next = list.filter((t) => t.expires > now);
  return next.length === list.length ? list : next;
}

/** Who is typing in the conversation `key`, in the order they started. */
export function typingUserIds(list: TypingEntry[], key: string, now: number): number[] {
  return list.filter((t) => t.key === key && t.expires > now).map((t) => t.userId);
}
