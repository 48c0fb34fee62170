import type { Stream, Tx } from '@chat/db';
import type { Actor } from '../lib/context';

/**
 * The sender's topic visibility policy after sending (automatically_follow_topics_policy and
 * friends). Returns the new policy when sending changed it, else null.
 */
export async function applyAutomaticTopicPolicy(
  _tx: Tx,
  _actor: Actor,
  _stream: Stream,
  _topic: string,
  _messageId: number,
): Promise<number | null> {
  return null;
}
