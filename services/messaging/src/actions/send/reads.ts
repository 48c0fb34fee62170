/**
 * What a send reads besides the content's references: the channel's subscribers, the sender's
 * topic facts, who muted the sender and the recipients' alert words. A channel send reads them in
 * one statement with the caller's row, the realm, its linkifiers and the channel itself (ADR
 * 0015), so the write follows with nothing more to read.
 */
import { rawQuery, rowFromJson, type Db, type Realm, type Stream, type Tx, type User } from '@chat/db';
import { groupPerPool, type GroupStats } from './statement-group';
import type { RenderContext } from '../../markdown';
import { TOPIC_FACTS_COLUMNS, topicFactsColumns, topicFactsOf, type TopicFactsRow, type TopicPolicyFacts } from '../user-topics';

export interface SendReadings {
  topicPolicy: TopicPolicyFacts | null;
  muters: Set<number>;
  alerted: Set<number>;
}

interface AlertWordRow {
  userId: number;
  word: string;
}

// Who muted the sender (muted_users, of the users service: looked up by sender, since a person
// has few muters while a channel may have thousands of recipients) and the alert words of `$6`.
const MUTERS_AND_WORDS = (others: string) => `
  ARRAY(SELECT user_id FROM muted_users WHERE muted_user_id = $1) AS muters,
  COALESCE((SELECT json_agg(json_build_object('userId', user_id, 'word', word)) FROM alert_words WHERE user_id IN (${others})), '[]'::json) AS words`;

// The sender's topic facts, muters and the recipients' alert words, for a known recipient list.
// For a direct message the topic columns are unused.
const READINGS_SQL = `SELECT ${TOPIC_FACTS_COLUMNS},${MUTERS_AND_WORDS('SELECT unnest($6::int[])')}`;

export async function sendReadings(db: Tx, senderId: number, others: number[], content: string, stream: { id: number; topic: string } | null): Promise<SendReadings> {
  const [row] = await db.$queryRawUnsafe<Array<TopicFactsRow & { muters: number[]; words: AlertWordRow[] }>>(
    READINGS_SQL, senderId, stream?.id ?? null, stream?.topic ?? null, stream?.topic.toLowerCase() ?? null, null, others,
  );
  return {
    topicPolicy: stream ? topicFactsOf(row) : null,
    muters: new Set(row?.muters ?? []),
    alerted: alertedAmong(row?.words ?? [], content),
  };
}

// Everything a channel send reads, in one statement: the caller's row (`$1`), their realm (`$2`)
// with its linkifiers, the channel (by id `$6` or by name key `$7`), its subscribers (the active
// subscriptions of active people, as the send's recipients have always been), the sender's facts
// about the topic (`$3`, `$4`), who muted the sender and the other subscribers' alert words.
const CHANNEL_SEND_SQL = `
WITH target AS (
  SELECT * FROM streams WHERE realm_id = $2 AND CASE WHEN $6::int IS NULL THEN name_key = $7 ELSE id = $6 END
), subscribers AS (
  SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
   WHERE s.stream_id = (SELECT id FROM target) AND s.active AND u.is_active
)
SELECT (SELECT to_jsonb(u) FROM users u WHERE u.id = $1) AS caller,
  (SELECT to_jsonb(r) FROM realms r WHERE r.id = $2) AS realm,
  (SELECT to_jsonb(t) FROM target t) AS stream,
  COALESCE((SELECT json_agg(json_build_object('id', l.id, 'pattern', l.pattern, 'urlTemplate', l.url_template) ORDER BY l."order", l.id)
              FROM linkifiers l WHERE l.realm_id = $2), '[]'::json) AS linkifiers,
  ARRAY(SELECT user_id FROM subscribers ORDER BY user_id) AS subscribers,
  ${topicFactsColumns('(SELECT id FROM target)')},${MUTERS_AND_WORDS('SELECT user_id FROM subscribers WHERE user_id <> $1')}`;

// The same for several sends in one statement: each send's parameters an element of six arrays,
// the statement above run for each as a lateral subquery (in the sends' order, `ord`).
const CHANNEL_SEND_PARAMS: Record<string, string> = {
  $1: 'p.sender', $2: 'p.realm', $3: 'p.topic', $4: 'p.topic_key', $5: 'NULL', $6: 'p.stream_id', $7: 'p.name_key',
};
const CHANNEL_SENDS_SQL = `
SELECT p.ord::int AS ord, r.*
  FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::int[], $6::text[])
       WITH ORDINALITY AS p(sender, realm, topic, topic_key, stream_id, name_key, ord)
 CROSS JOIN LATERAL (${CHANNEL_SEND_SQL.replace(/\$\d+/g, (n) => CHANNEL_SEND_PARAMS[n]!)}) r
 ORDER BY p.ord`;

type Json = Record<string, unknown>;
type ChannelSendRow = TopicFactsRow & {
  caller: Json | null; realm: Json | null; stream: Json | null; linkifiers: ChannelSendReads['linkifiers'];
  subscribers: number[]; muters: number[]; words: AlertWordRow[];
};

/** One send's read: its parameters in CHANNEL_SEND_SQL's order ($1 to $7). */
type ReadParams = [sender: number, realm: number, topic: string | null, topicKey: string | null, before: null, streamId: number | null, nameKey: string | null];

const reads = groupPerPool((db: Db) => ({
  maxBatch: 32,
  alone: async (p: ReadParams) => (await rawQuery<ChannelSendRow>(db, CHANNEL_SEND_SQL, p, 'channel-send-read'))[0],
  together: async (ps: ReadParams[]) => {
    const column = (i: number) => ps.map((p) => p[i]);
    // One row per send, in the sends' order (ORDER BY p.ord).
    return rawQuery<ChannelSendRow>(db, CHANNEL_SENDS_SQL, [column(0), column(1), column(2), column(3), column(5), column(6)], 'channel-send-read-many');
  },
}));

export interface ChannelSendReads {
  /** The caller's row; null if it no longer exists. */
  caller: User | null;
  realm: Realm;
  /** Null when the realm has no such channel. */
  stream: Stream | null;
  linkifiers: RenderContext['linkifiers'];
  subscriberIds: number[];
  readings: SendReadings;
}

/** What `db`'s grouped channel-send reads did so far. */
export function channelReadStats(db: Db): GroupStats {
  return { ...reads(db).stats };
}

/**
 * What a message from `senderId` to the channel `to` and its topic `topic` needs read (topic null
 * when the send has none: it is refused later, and the topic's facts go unused).
 */
export async function readChannelSend(
  db: Db, realmId: number, senderId: number, to: { id: number } | { name: string }, topic: string | null, content: string,
): Promise<ChannelSendReads> {
  // Reads that arrive while one runs go together in the next statement (ADR 0031).
  const row = await reads(db).run([
    senderId, realmId, topic, topic?.toLowerCase() ?? null, null,
    'id' in to ? to.id : null, 'id' in to ? null : to.name.trim().toLowerCase(),
  ]);
  if (!row?.realm) throw new Error(`realm ${realmId} not found`);
  return {
    caller: row.caller ? rowFromJson(db, 'User', row.caller) : null,
    realm: rowFromJson(db, 'Realm', row.realm),
    stream: row.stream ? rowFromJson(db, 'Stream', row.stream) : null,
    linkifiers: row.linkifiers,
    subscriberIds: row.subscribers,
    readings: { topicPolicy: topicFactsOf(row), muters: new Set(row.muters), alerted: alertedAmong(row.words, content) },
  };
}

/** Recipients with an alert word that appears in the message as a whole word (any case). */
export async function usersAlertedBy(db: Tx, userIds: number[], content: string): Promise<Set<number>> {
  if (!userIds.length) return new Set();
  return alertedAmong(await db.alertWord.findMany({ where: { userId: { in: userIds } }, select: { userId: true, word: true } }), content);
}

function alertedAmong(words: AlertWordRow[], content: string): Set<number> {
  const text = content.toLowerCase();
  const hit = new Set<number>();
  for (const { userId, word } of words) {
    const escaped = word.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'u').test(text)) hit.add(userId);
  }
  return hit;
}
