/**
 * Group commit of channel sends (ADR 0031). A usual channel message is one statement: the
 * message, its copies, its outbox row and NOTIFY. Sends that arrive while one is running go
 * together in the next statement and commit (statement-group.ts).
 */
import { OUTBOX_NOTIFY, outboxInsertSql } from '@chat/bus';
import { rawQuery, type Db } from '@chat/db';
import { EVENT_AND_NOTIFY, MESSAGE_COLUMNS, messageAndCopies, WITH_MESSAGE_ID } from './statements';
import { groupPerPool, type GroupStats } from './statement-group';

/** Sends in one statement at most (its arrays grow with each send's copies). */
const MAX_BATCH = 32;

/** One channel send's write: the parameters of the single statement, in its order. */
export interface ChannelWrite {
  realmId: number;
  senderId: number;
  streamId: number;
  topic: string;
  content: string;
  rendered: string;
  client: string;
  /** Timestamp without zone, as text (milliseconds). */
  dateSent: string;
  isMe: boolean;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  recipientIds: number[];
  /** Each recipient's flag bits, as decimal text (bigint). */
  flags: string[];
  /** The outbox payload (JSON text), its message id filled in by the statement. */
  payload: string;
}

// The message, every copy and the outbox row in one statement, as any message written alone.
const ONE_SQL = `WITH ${messageAndCopies()}${EVENT_AND_NOTIFY(WITH_MESSAGE_ID, 'm')}`;

// Several sends: each column an array, one element per send (`ord` its place), the copies three
// arrays tagged with their send's place. Exported for the bench, which runs this very statement
// under pgbench as one of its baselines. The ids are drawn in the sends' order first, so that
// messages and outbox rows (whose order the relay keeps) are in the same order. Data-modifying
// CTEs run to completion whether or not the final SELECT reads them.
export const MANY_SQL = `WITH input AS MATERIALIZED (
  SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamp[],
                       $9::bool[], $10::bool[], $11::bool[], $12::bool[], $13::jsonb[])
    WITH ORDINALITY AS i(realm_id, sender_id, stream_id, topic, content, rendered, client, date_sent,
                         is_me, has_link, has_image, has_attachment, payload, ord)
), ids AS MATERIALIZED (
  SELECT ord, nextval('messages_id_seq') AS id FROM (SELECT ord FROM input ORDER BY ord) o
), m AS (
  INSERT INTO messages (id, ${MESSAGE_COLUMNS})
  SELECT ids.id, i.realm_id, i.sender_id, 'stream', i.stream_id, NULL, i.topic, i.content, i.rendered, i.client, i.date_sent,
         i.is_me, i.has_link, i.has_image, i.has_attachment
    FROM input i JOIN ids USING (ord) ORDER BY ord
), copies AS (
  INSERT INTO user_messages (user_id, message_id, flags)
  SELECT c.user_id, ids.id, c.flags FROM unnest($14::int[], $15::int[], $16::bigint[]) AS c(ord, user_id, flags) JOIN ids USING (ord)
), event AS (
  ${outboxInsertSql(`SELECT i.realm_id, 'message', jsonb_set(i.payload, '{event,message,id}', to_jsonb(ids.id))
    FROM input i JOIN ids USING (ord) ORDER BY ord`)}
)
SELECT ord::int AS ord, id::int AS id, (SELECT ${OUTBOX_NOTIFY}) AS notified FROM ids`;

function oneParams(w: ChannelWrite): unknown[] {
  return [w.realmId, w.senderId, 'stream', w.streamId, null, w.topic, w.content, w.rendered, w.client, w.dateSent, w.isMe,
    w.hasLink, w.hasImage, w.hasAttachment, w.recipientIds, w.flags, w.payload];
}

function manyParams(ws: ChannelWrite[]): unknown[] {
  const col = <T>(f: (w: ChannelWrite) => T) => ws.map(f);
  const copyOrd: number[] = [];
  const copyUser: number[] = [];
  const copyFlags: string[] = [];
  ws.forEach((w, i) => {
    w.recipientIds.forEach((u, j) => {
      copyOrd.push(i + 1);
      copyUser.push(u);
      copyFlags.push(w.flags[j]!);
    });
  });
  return [col((w) => w.realmId), col((w) => w.senderId), col((w) => w.streamId), col((w) => w.topic), col((w) => w.content),
    col((w) => w.rendered), col((w) => w.client), col((w) => w.dateSent), col((w) => w.isMe), col((w) => w.hasLink),
    col((w) => w.hasImage), col((w) => w.hasAttachment), col((w) => w.payload), copyOrd, copyUser, copyFlags];
}

const writes = groupPerPool((db: Db) => ({
  maxBatch: MAX_BATCH,
  // A write's work is its rows. Groups of up to 2,000 copies; while those running hold 1,000 or
  // more each, another starts beside them (a channel of ten groups up to 32 sends, one at a time;
  // channels of hundreds write on more than one backend, as separate senders' writes did).
  weight: (w: ChannelWrite) => w.recipientIds.length,
  maxWeight: 2000,
  parallelWeight: 1000,
  alone: async (w: ChannelWrite) => (await rawQuery<{ id: number }>(db, ONE_SQL, oneParams(w), 'channel-send-write'))[0]!.id,
  together: async (ws: ChannelWrite[]) => {
    const rows = await rawQuery<{ ord: number; id: number }>(db, MANY_SQL, manyParams(ws), 'channel-send-write-many');
    const ids: number[] = [];
    for (const { ord, id } of rows) ids[ord - 1] = id;
    return ids;
  },
}));

/** Writes a usual channel message (with others waiting, if any); resolves to its id once committed. */
export function doWriteChannelSend(db: Db, write: ChannelWrite): Promise<number> {
  return writes(db).run(write);
}

/** What `db`'s channel writes did so far. */
export function channelWriteStats(db: Db): GroupStats {
  return { ...writes(db).stats };
}
