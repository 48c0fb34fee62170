/**
 * Topic visibility in register: user_topics (event type user_topic), and the older muted_topics
 * list, sent only to clients that do not ask for user_topic. The messaging service writes these
 * rows (user_topics, one per user, channel and lower-cased topic; no row means "inherit").
 */
import { EMPTY_TOPIC_DISPLAY_NAME } from '@chat/contracts';
import type { Db } from '@chat/db';
import { mutedTopicsFrom, unixSeconds } from '@chat/wire';
import { registerRows } from './register-rows';
import type { StateOptions, Want } from '.';

export async function topicSections(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const wantUserTopics = want('user_topic');
  // A client that asked for both gets muted_topics only where user_topic is unknown (older servers).
  const wantMutedTopics = want('muted_topics') && (opts.fetchEventTypes === null || !wantUserTopics);
  if (!wantUserTopics && !wantMutedTopics) return {};
  const { userTopics, streams } = await registerRows(db, opts);
  const out: Record<string, unknown> = {};
  if (wantUserTopics) {
    // The user's topic policies, leaving out those in archived channels, in the order they were first set.
    const live = new Set(streams.filter((s) => !s.isArchived).map((s) => s.id));
    // Clients that have not declared empty_topic_name see the empty topic under its display name.
    const topicName = (t: string) => (t === '' && opts.clientCapabilities.empty_topic_name !== true ? EMPTY_TOPIC_DISPLAY_NAME : t);
    out.user_topics = userTopics.filter((r) => live.has(r.streamId)).map((r) => ({
      stream_id: r.streamId,
      topic_name: topicName(r.topicName),
      visibility_policy: r.visibilityPolicy,
      last_updated: unixSeconds(r.lastUpdated),
    }));
  }
  if (wantMutedTopics) out.muted_topics = mutedTopicsFrom(userTopics, streams);
  return out;
}
