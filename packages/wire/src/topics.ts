/** Topic visibility lists shared by the messaging service's events and register. */
import { TOPIC_VISIBILITY } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { unixSeconds } from './time';

type Reader = Db | Tx;

/**
 * The older clients' `muted_topics`: `[channel name, topic, muted at]` for each muted topic
 * outside archived channels, in the order they were first set.
 */
export async function mutedTopicsList(db: Reader, userId: number): Promise<Array<[string, string, number]>> {
  const rows = await db.userTopic.findMany({ where: { userId, visibilityPolicy: TOPIC_VISIBILITY.MUTED }, orderBy: { id: 'asc' } });
  if (!rows.length) return [];
  const streams = await db.stream.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.streamId))] }, isArchived: false },
    select: { id: true, name: true },
  });
  const names = new Map(streams.map((s) => [s.id, s.name]));
  return rows.filter((r) => names.has(r.streamId)).map((r) => [names.get(r.streamId)!, r.topicName, unixSeconds(r.lastUpdated)]);
}
