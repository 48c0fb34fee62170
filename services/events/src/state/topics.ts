/**
 * Topic visibility in register: user_topics (event type user_topic), and the older muted_topics
 * list, sent only to clients that do not ask for user_topic. The messaging service writes these
 * rows (user_topics, one per user, channel and lower-cased topic; no row means "inherit").
 */
import { EMPTY_TOPIC_DISPLAY_NAME } from '@chat/contracts';
import type { Db } from '@chat/db';
import { mutedTopicsList, unixSeconds } from '@chat/wire';
import type { StateOptions, Want } from '.';

/** The user's topic policies, leaving out those in archived channels, in the order they were first set. */
async function userTopicRows(db: Db, userId: number) {
  const rows = await db.userTopic.findMany({ where: { userId }, orderBy: { id: 'asc' } });
  if (!rows.length) return { rows, names: new Map<number, string>() };
  const streams = await db.stream.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.streamId))] }, isArchived: false },
    select: { id: true, name: true },
  });
  const names = new Map(streams.map((s) => [s.id, s.name]));
  return { rows: rows.filter((r) => names.has(r.streamId)), names };
}

export async function topicSections(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const userId = opts.identity.userId;
  const wantUserTopics = want('user_topic');
  // A client that asked for both gets muted_topics only where user_topic is unknown (older servers).
  const wantMutedTopics = want('muted_topics') && (opts.fetchEventTypes === null || !wantUserTopics);
  if (!wantUserTopics && !wantMutedTopics) return {};
  const { rows } = userId === undefined || !wantUserTopics ? { rows: [] } : await userTopicRows(db, userId);
  // Clients that have not declared empty_topic_name see the empty topic under its display name.
  const topicName = (t: string) => (t === '' && opts.clientCapabilities.empty_topic_name !== true ? EMPTY_TOPIC_DISPLAY_NAME : t);
  const out: Record<string, unknown> = {};
  if (wantUserTopics) {
    out.user_topics = rows.map((r) => ({
      stream_id: r.streamId,
      topic_name: topicName(r.topicName),
      visibility_policy: r.visibilityPolicy,
      last_updated: unixSeconds(r.lastUpdated),
    }));
  }
  if (wantMutedTopics) out.muted_topics = userId === undefined ? [] : await mutedTopicsList(db, userId);
  return out;
}
