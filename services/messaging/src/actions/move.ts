/** Moving messages between topics and channels, with the access changes a move brings. */
import type { Message, Stream, Tx } from '@chat/db';
import { flagBit } from '@chat/contracts';
import { channelAccess } from '@chat/realm';
import type { LoadedActor } from '../lib/caller';
import { recordEvent } from '@chat/bus';
import { activeSubscriberIds } from './stream-dicts';
import { streamAccessOf } from './streams-access';
import type { PropagateMode } from './edit';

export const RESOLVED_PREFIX = '✔ ';

async function messagesToMove(tx: Tx, actor: LoadedActor, message: Message, mode: PropagateMode): Promise<number[]> {
  if (mode === 'change_one') return [message.id];
  const stream = await tx.stream.findUniqueOrThrow({ where: { id: message.streamId! } });
  const sub = await tx.subscription.findUnique({ where: { userId_streamId: { userId: actor.userId, streamId: stream.id } } });
  const wholeHistory = streamAccessOf(actor, stream, sub).canReadHistory;
  const rows = await tx.$queryRawUnsafe<Array<{ id: number }>>(
    `SELECT m.id FROM messages m
      WHERE m.stream_id = $1 AND lower(m.topic) = lower($2) AND ($3::boolean OR m.id >= $4)
        AND ($5::boolean OR EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id AND um.user_id = $6))
      ORDER BY m.id`,
    stream.id,
    message.topic,
    mode === 'change_all',
    message.id,
    wholeHistory,
    actor.userId,
  );
  return rows.map((r) => r.id);
}

export async function moveMessages(
  tx: Tx,
  actor: LoadedActor,
  message: Message,
  mode: PropagateMode,
  newTopic: string,
  target: Stream | null,
  now: Date,
  resolvingOnly: boolean,
): Promise<{ movedIds: number[]; losers: number[] }> {
  const ids = await messagesToMove(tx, actor, message, mode);
  const ts = Math.floor(now.getTime() / 1000);
  for (const id of ids) {
    if (id === message.id) continue; // the caller writes the edited message's own history entry
    const m = await tx.message.findUniqueOrThrow({ where: { id }, select: { topic: true, streamId: true, editHistory: true } });
    const entry: Record<string, unknown> = { user_id: actor.userId, timestamp: ts };
    if (newTopic !== m.topic) Object.assign(entry, { prev_topic: m.topic, topic: newTopic });
    if (target && target.id !== m.streamId) Object.assign(entry, { prev_stream: m.streamId, stream: target.id });
    const history = Array.isArray(m.editHistory) ? m.editHistory : [];
    await tx.message.update({ where: { id }, data: { editHistory: [entry, ...history] as never } });
  }
  await tx.message.updateMany({
    where: { id: { in: ids } },
    data: { topic: newTopic, ...(target ? { streamId: target.id } : {}), ...(resolvingOnly && !target ? {} : { lastMovedTime: now }) },
  });
  let losers: number[] = [];
  if (target) {
    losers = await dropCopiesOfUsersWithoutAccess(tx, actor, ids, target, message);
    if (!target.historyPublicToSubscribers) {
      // Protected history: only copies give access, so the channel's subscribers get copies.
      const subscribers = await activeSubscriberIds(tx, target.id);
      await tx.userMessage.createMany({
        data: ids.flatMap((messageId) => subscribers.map((userId) => ({ userId, messageId, flags: flagBit('read') }))),
        skipDuplicates: true,
      });
    }
    if (target.firstMessageId === null || target.firstMessageId > ids[0]) {
      await tx.stream.update({ where: { id: target.id }, data: { firstMessageId: ids[0] } });
    }
  }
  return { movedIds: ids, losers };
}

/** Users who had copies but may not read the target channel lose them, as if deleted. */
async function dropCopiesOfUsersWithoutAccess(tx: Tx, actor: LoadedActor, ids: number[], target: Stream, message: Message): Promise<number[]> {
  const holders = await tx.userMessage.findMany({ where: { messageId: { in: ids } }, select: { userId: true }, distinct: ['userId'] });
  const users = await tx.user.findMany({ where: { id: { in: holders.map((h) => h.userId) } } });
  const subs = new Set(await activeSubscriberIds(tx, target.id));
  const losers = users
    .filter((u) => !channelAccess(u, target, { active: subs.has(u.id) }).canReadContent)
    .map((u) => u.id);
  if (!losers.length) return [];
  await tx.userMessage.deleteMany({ where: { messageId: { in: ids }, userId: { in: losers } } });
  await recordEvent(tx, {
    realmId: actor.realmId,
    type: 'delete_message',
    users: losers,
    event: { type: 'delete_message', message_ids: ids, message_type: 'stream', stream_id: message.streamId!, topic: message.topic },
  });
  return losers;
}
