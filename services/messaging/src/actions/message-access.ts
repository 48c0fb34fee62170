/** Who may read a message, and who hears about changes to it. */
import type { Db, Message, Tx, UserMessage } from '@chat/db';
import { apiFlagNames, errors } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import { streamAccessOf } from './streams-access';
import { activeSubscriberIds } from './stream-dicts';

export interface MessageAccess {
  message: Message;
  /** The viewer's own copy; null when they read it through channel history. */
  userMessage: UserMessage | null;
}

/**
 * A message the actor may read: one they received (a user_messages row), or one in a channel
 * whose history they may read. Anything else is "Invalid message(s)", whether it exists or not.
 */
export async function accessMessage(db: Db | Tx, actor: LoadedActor, messageId: number): Promise<MessageAccess> {
  const message = await db.message.findFirst({ where: { id: messageId, realmId: actor.realmId } });
  if (!message) throw errors.invalidMessage();
  const userMessage = await db.userMessage.findUnique({ where: { userId_messageId: { userId: actor.userId, messageId } } });
  if (userMessage) return { message, userMessage };
  if (message.streamId !== null) {
    const stream = await db.stream.findUniqueOrThrow({ where: { id: message.streamId } });
    const sub = await db.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId: stream.id } } });
    if (streamAccessOf(actor, stream, sub).canReadHistory) return { message, userMessage: null };
  }
  throw errors.invalidMessage();
}

/**
 * Users told about a change to messages: everyone with a copy, plus the subscribers of a
 * channel whose history is public to them (they can read the messages without a copy).
 */
export async function messageAudience(tx: Tx, messageIds: number[], streamIds: Array<number | null>): Promise<number[]> {
  const rows = await tx.userMessage.findMany({ where: { messageId: { in: messageIds } }, select: { userId: true }, distinct: ['userId'] });
  const ids = new Set(rows.map((r) => r.userId));
  for (const streamId of new Set(streamIds)) {
    if (streamId === null) continue;
    const stream = await tx.stream.findUniqueOrThrow({ where: { id: streamId } });
    if (stream.historyPublicToSubscribers) (await activeSubscriberIds(tx, streamId)).forEach((id) => ids.add(id));
  }
  const active = await tx.user.findMany({ where: { id: { in: [...ids] }, isActive: true }, select: { id: true } });
  return active.map((u) => u.id).sort((a, b) => a - b);
}

/**
 * Each recipient's flags for a message, for an update_message event (its `user_flags` routing):
 * the API's flag names of their copy, or ['read'] for those who read it through channel history.
 */
export async function recipientFlags(tx: Tx, messageId: number, users: number[]): Promise<Record<string, string[]>> {
  const copies = await tx.userMessage.findMany({ where: { messageId, userId: { in: users } }, select: { userId: true, flags: true } });
  const byUser = new Map(copies.map((c) => [c.userId, apiFlagNames(BigInt(c.flags))]));
  return Object.fromEntries(users.map((id) => [String(id), byUser.get(id) ?? ['read']]));
}
