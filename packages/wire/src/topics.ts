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
    select: { id: true, name: true, isArchived: true },
  });
  return mutedTopicsFrom(rows, streams);
}

/** mutedTopicsList from rows already read: the user's topic rows by id, and channels (any superset of theirs). */
export function mutedTopicsFrom(
  rows: Array<{ streamId: number; topicName: string; lastUpdated: Date; visibilityPolicy: number }>,
  streams: Array<{ id: number; name: string; isArchived: boolean }>,
): Array<[string, string, number]> {
  const names = new Map(streams.filter((s) => !s.isArchived).map((s) => [s.id, s.name]));
  return rows
    .filter((r) => r.visibilityPolicy === TOPIC_VISIBILITY.MUTED && names.has(r.streamId))
    .map((r) => [names.get(r.streamId)!, r.topicName, unixSeconds(r.lastUpdated)]);
}
