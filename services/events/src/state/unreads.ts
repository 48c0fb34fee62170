/**
 * Message flags in register: unread_msgs (fetched when both update_message_flags and message
 * are wanted, the events that keep it current) and starred_messages.
 *
 * unread_msgs runs at every client start, so the user's unread rows are read and grouped by
 * conversation in one query that walks the partial index on unread rows
 * (user_messages_unread_idx, newest first, at most MAX_UNREAD_MESSAGES). Muting is decided
 * here afterwards, from the user's subscriptions and topic visibility policies, which are few.
 */
import { EMPTY_TOPIC_DISPLAY_NAME, flagBit, TOPIC_VISIBILITY } from '@chat/contracts';
import { rawQuery, type Db } from '@chat/db';
import { registerRows } from './register-rows';
import type { StateOptions, Want } from '.';

/** The API family's cap: clients are told (old_unreads_missing) when older unreads are left out. */
export const MAX_UNREAD_MESSAGES = 50_000;

const READ = flagBit('read');
const MENTIONED = flagBit('mentioned');
const WILDCARD = flagBit('stream_wildcard_mentioned') | flagBit('topic_wildcard_mentioned');

/** Unread messages of one channel topic or one direct conversation, oldest first. */
interface UnreadGroup {
  stream_id: number | null;
  topic: string;
  member_ids: number[] | null;
  ids: number[];
  mentioned: number[] | null;
  wildcard: number[] | null;
}

/**
 * The user's unread messages ($1 user id, $2 limit), newest first up to the limit, grouped by
 * channel topic or direct conversation. Messages in channels the user has left are not unread
 * for them; channels they never joined keep theirs (such rows exist only where the user was
 * mentioned or starred something).
 *
 * The planner cannot know how many unread rows one user has (it estimates from the whole
 * table), and for a user with many it would rather scan all of messages than look each one up.
 * The OFFSET 0 keeps the lateral subquery from being merged into a join, so messages are read
 * one primary-key lookup per unread row: the cost follows the user's unreads, never the table.
 */
export const UNREAD_GROUPS_SQL = `
  WITH unread AS (
    SELECT um.message_id, um.flags, m.stream_id, m.topic, m.conversation_id
      FROM user_messages um
      CROSS JOIN LATERAL (
        SELECT stream_id, topic, conversation_id FROM messages WHERE id = um.message_id OFFSET 0
      ) m
     WHERE um.user_id = $1 AND (um.flags & ${READ}) = 0
       AND (m.stream_id IS NULL OR m.stream_id NOT IN (
             SELECT s.stream_id FROM subscriptions s WHERE s.user_id = $1 AND NOT s.active))
     ORDER BY um.message_id DESC
     LIMIT $2
  ), grouped AS (
    SELECT stream_id, topic, conversation_id,
           array_agg(message_id ORDER BY message_id) AS ids,
           array_agg(message_id) FILTER (WHERE (flags & ${MENTIONED}) <> 0) AS mentioned,
           array_agg(message_id) FILTER (WHERE (flags & ${MENTIONED}) = 0 AND (flags & ${WILDCARD}) <> 0) AS wildcard
      FROM unread
     GROUP BY stream_id, topic, conversation_id
  )
  SELECT g.stream_id, g.topic, c.member_ids, g.ids, g.mentioned, g.wildcard
    FROM grouped g
    LEFT JOIN direct_conversations c ON c.id = g.conversation_id`;

function unreadGroups(db: Db, userId: number, limit: number): Promise<UnreadGroup[]> {
  return rawQuery<UnreadGroup>(db, UNREAD_GROUPS_SQL, [userId, limit], 'unread_groups');
}

/** What decides muting: the user's subscriptions and topic visibility policies. */
export interface MuteRows {
  subscriptions: Array<{ streamId: number; active: boolean; isMuted: boolean }>;
  userTopics: Array<{ streamId: number; topicKey: string; visibilityPolicy: number }>;
}

async function readMuteRows(db: Db, userId: number): Promise<MuteRows> {
  const [subscriptions, userTopics] = await Promise.all([
    db.subscription.findMany({ where: { userId, active: true, isMuted: true }, select: { streamId: true, active: true, isMuted: true } }),
    db.userTopic.findMany({ where: { userId }, select: { streamId: true, topicKey: true, visibilityPolicy: true } }),
  ]);
  return { subscriptions, userTopics };
}

/** Whether a channel topic's messages are muted for the user: muted channel or topic, unless the topic is unmuted or followed. */
function mutedTopicCheck({ subscriptions, userTopics: policies }: MuteRows): (streamId: number, topic: string) => boolean {
  const mutedStreams = new Set(subscriptions.filter((s) => s.active && s.isMuted).map((s) => s.streamId));
  const policy = new Map(policies.map((p) => [`${p.streamId}\0${p.topicKey}`, p.visibilityPolicy]));
  return (streamId, topic) => {
    // Topics are identified case-insensitively, lower-cased as the messaging service stores them.
    const p = policy.get(`${streamId}\0${topic.toLowerCase()}`) ?? TOPIC_VISIBILITY.INHERIT;
    if (mutedStreams.has(streamId)) return p !== TOPIC_VISIBILITY.UNMUTED && p !== TOPIC_VISIBILITY.FOLLOWED;
    return p === TOPIC_VISIBILITY.MUTED;
  };
}

type Bucket<K extends string, V> = Record<K, V> & { unread_message_ids: number[] };

/** Adds ids to the bucket under key, creating it with `fields` the first time. */
function addTo<T extends { unread_message_ids: number[] }>(buckets: Map<string, T>, key: string, fields: () => T, ids: number[]) {
  let bucket = buckets.get(key);
  if (!bucket) buckets.set(key, (bucket = fields()));
  bucket.unread_message_ids.push(...ids);
}

function sorted<T extends { unread_message_ids: number[] }>(buckets: Map<string, T>, order: (a: T, b: T) => number): T[] {
  const list = [...buckets.values()];
  for (const b of list) b.unread_message_ids.sort((x, y) => x - y);
  return list.sort(order);
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function emptyUnreadMsgs() {
  return { pms: [], streams: [], huddles: [], mentions: [], count: 0, old_unreads_missing: false };
}

/**
 * unread_msgs in the API family's shape. Channel topics are grouped case-insensitively under the
 * name of their oldest unread message; one-on-one conversations (and the one with oneself) are in
 * `pms` by the other participant, group conversations in `huddles` by their sorted member ids.
 * `count` leaves out muted channel messages, and wildcard mentions count only where not muted.
 */
export async function unreadMsgs(db: Db, userId: number, allowEmptyTopic: boolean, limit = MAX_UNREAD_MESSAGES, mutes?: Promise<MuteRows>) {
  const [groups, muteRows] = await Promise.all([unreadGroups(db, userId, limit), mutes ?? readMuteRows(db, userId)]);
  const isMuted = mutedTopicCheck(muteRows);
  const streams = new Map<string, Bucket<'stream_id', number> & { topic: string; first: number }>();
  const pms = new Map<string, Bucket<'other_user_id' | 'sender_id', number>>();
  const huddles = new Map<string, Bucket<'user_ids_string', string>>();
  const mentions: number[] = [];
  let count = 0;
  let total = 0;
  for (const g of groups) {
    total += g.ids.length;
    let muted = false;
    if (g.stream_id !== null) {
      muted = isMuted(g.stream_id, g.topic);
      const topic = g.topic === '' && !allowEmptyTopic ? EMPTY_TOPIC_DISPLAY_NAME : g.topic;
      const key = `${g.stream_id}\0${topic.toLowerCase()}`;
      addTo(streams, key, () => ({ stream_id: g.stream_id!, topic, first: g.ids[0], unread_message_ids: [] }), g.ids);
      const bucket = streams.get(key)!;
      if (g.ids[0] < bucket.first) Object.assign(bucket, { topic, first: g.ids[0] });
    } else {
      const members = g.member_ids ?? [];
      const others = members.filter((id) => id !== userId);
      if (others.length <= 1) {
        // `sender_id` is the older name of other_user_id that clients still read.
        const other = others[0] ?? userId;
        addTo(pms, String(other), () => ({ other_user_id: other, sender_id: other, unread_message_ids: [] }), g.ids);
      } else {
        const key = [...members].sort((a, b) => a - b).join(',');
        addTo(huddles, key, () => ({ user_ids_string: key, unread_message_ids: [] }), g.ids);
      }
    }
    if (!muted) count += g.ids.length;
    mentions.push(...(g.mentioned ?? []));
    if (!muted) mentions.push(...(g.wildcard ?? []));
  }
  return {
    pms: sorted(pms, (a, b) => a.other_user_id - b.other_user_id),
    streams: sorted(streams, (a, b) => a.stream_id - b.stream_id || byString(a.topic.toLowerCase(), b.topic.toLowerCase()))
      .map(({ first: _first, ...s }) => s),
    huddles: sorted(huddles, (a, b) => byString(a.user_ids_string, b.user_ids_string)),
    mentions: mentions.sort((a, b) => a - b),
    count,
    old_unreads_missing: total === limit,
  };
}

export async function flagSections(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const userId = opts.identity.userId;
  const out: Record<string, unknown> = {};
  const jobs: Array<Promise<void>> = [];
  if (want('update_message_flags') && want('message')) {
    const allowEmptyTopic = opts.clientCapabilities.empty_topic_name === true;
    jobs.push((async () => {
      out.unread_msgs = userId === undefined ? emptyUnreadMsgs() : await unreadMsgs(db, userId, allowEmptyTopic, MAX_UNREAD_MESSAGES, registerRows(db, opts));
    })());
  }
  if (want('starred_messages')) {
    jobs.push((async () => {
      out.starred_messages = (await registerRows(db, opts)).starred;
    })());
  }
  await Promise.all(jobs);
  return out;
}
