/**
 * Whom the compose box writes to, and the conversation key drafts and typing notices are
 * filed under. Pure, so the drafts and typing logic can be tested without a browser.
 */

/** `streamId` 0 means no channel chosen yet (a "new topic" opened outside a channel). */
export type ComposeTarget = { type: 'stream'; streamId: number; topic: string } | { type: 'direct'; to: number[] };

/** One key per conversation: the family treats topics case-insensitively. */
export function conversationKey(target: ComposeTarget): string {
  if (target.type === 'stream') return `stream:${target.streamId}:${target.topic.toLowerCase()}`;
  return `dm:${[...new Set(target.to)].sort((a, b) => a - b).join(',')}`;
}

export function sameConversation(a: ComposeTarget | null, b: ComposeTarget | null): boolean {
  if (!a || !b) return a === b;
  return conversationKey(a) === conversationKey(b);
}

/** Whether a message could be sent to this target as it stands. */
export function isComplete(target: ComposeTarget | null): target is ComposeTarget {
  if (!target) return false;
  return target.type === 'stream' ? target.streamId > 0 : target.to.length > 0;
}
