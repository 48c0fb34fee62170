/**
 * POST /streams/{stream_id}/delete_topic: deletes the topic's messages the administrator can
 * reach, newest first, in batches that each commit on their own, so a huge topic makes
 * progress even when the request runs out of time (the client repeats it on `complete: false`).
 */
import { errors, isAdmin, TOPIC_VISIBILITY } from '@chat/contracts';
import type { Tx } from '@chat/db';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';
import { normalizeTopic } from '../lib/text';
import { messageAudience } from './message-access';
import { accessStream } from './streams-access';
import { doSetUserTopic } from './user-topics';

/** As the family's server: batches of its retention size, and stop starting new ones after 50 s. */
export const DELETE_TOPIC_BATCH_SIZE = 100;
export const DELETE_TOPIC_TIME_BUDGET_MS = 50_000;

export async function doDeleteTopic(services: Services, actor: LoadedActor, streamId: number, rawTopic: string, budgetMs = DELETE_TOPIC_TIME_BUDGET_MS): Promise<{ complete: boolean }> {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
  const access = await accessStream(services.db, actor, streamId);
  // Content access, not only metadata: an administrator outside a private channel cannot.
  if (!access.canReadContent) throw errors.invalidStreamId();
  const topic = normalizeTopic(rawTopic);
  const started = Date.now();
  for (;;) {
    if (Date.now() - started >= budgetMs) return { complete: false };
    const deleted = await services.db.$transaction((tx) => deleteBatch(tx, actor, streamId, topic, access.canReadHistory));
    if (!deleted) break;
  }
  await services.db.$transaction((tx) => resetTopicVisibility(tx, actor.realmId, streamId, topic, access.stream.historyPublicToSubscribers));
  return { complete: true };
}

/** One batch: the newest accessible messages of the topic, locked, deleted, announced together. */
async function deleteBatch(tx: Tx, actor: LoadedActor, streamId: number, topic: string, wholeHistory: boolean): Promise<number> {
  // Without access to the whole history, only messages the administrator has a copy of.
  const rows = await tx.$queryRawUnsafe<Array<{ id: number; topic: string }>>(
    `SELECT m.id, m.topic FROM messages m
      WHERE m.stream_id = $1 AND lower(m.topic) = lower($2)
        ${wholeHistory ? '' : 'AND EXISTS (SELECT 1 FROM user_messages um WHERE um.message_id = m.id AND um.user_id = $4)'}
      ORDER BY m.id DESC LIMIT $3 FOR UPDATE OF m`,
    streamId,
    topic,
    DELETE_TOPIC_BATCH_SIZE,
    ...(wholeHistory ? [] : [actor.userId]),
  );
  if (!rows.length) return 0;
  const ids = rows.map((r) => r.id);
  const audience = await messageAudience(tx, ids, [streamId]);
  await tx.message.deleteMany({ where: { id: { in: ids } } });
  await recordEvent(tx, {
    realmId: actor.realmId,
    type: 'delete_message',
    users: audience,
    event: { type: 'delete_message', message_ids: [...ids].sort((a, b) => a - b), message_type: 'stream', stream_id: streamId, topic: rows[0]!.topic },
  });
  return ids.length;
}

/**
 * The topic is gone, so per-user visibility settings for it are reset; in a channel with
 * protected history only for users who can no longer read any message of it.
 */
async function resetTopicVisibility(tx: Tx, realmId: number, streamId: number, topic: string, historyPublic: boolean): Promise<void> {
  const rows = await tx.userTopic.findMany({ where: { streamId, topicKey: topic.toLowerCase() }, select: { userId: true, topicName: true } });
  for (const row of rows) {
    if (!historyPublic) {
      const left = await tx.$queryRawUnsafe<unknown[]>(
        `SELECT 1 FROM user_messages um JOIN messages m ON m.id = um.message_id
          WHERE um.user_id = $1 AND m.stream_id = $2 AND lower(m.topic) = lower($3) LIMIT 1`,
        row.userId,
        streamId,
        topic,
      );
      if (left.length) continue;
    }
    await doSetUserTopic(tx, realmId, row.userId, streamId, row.topicName, TOPIC_VISIBILITY.INHERIT);
  }
}
