/**
 * The reads behind GET /messages, straight on the pool under Prisma (@chat/db rawQuery): the
 * caller, the channels the narrow names, a page of up to a thousand messages with exactly the
 * fields message objects show (read as arrays, readPage), then one statement for everything the
 * objects need besides (realm, channels, conversations, reactions, submessages, linkifiers,
 * people). Prisma would convert every value of every row (about 30 ms for a thousand messages
 * on the development machine) and compile each model query (milliseconds for the caller's row).
 * Every column is of a type pg and Prisma's raw queries parse alike (int4, text, bool, float8,
 * json), so the rows are the same through either.
 */
import { apiFlagNames } from '@chat/contracts';
import { rawArrays, rawQuery, type Db, type Stream, type Subscription, type User } from '@chat/db';
import type { AuthedIdentity } from '@chat/kit';
import { compileLinkifier } from '../markdown/dialect';
import { callerOfRow, type LoadedActor } from '../lib/caller';
import { reactionsByMessageOf, wireBuilder, type WireFacts, type WireMessage, type WireOptions, type WireSource, type WireUser } from '../lib/wire';
import { submessageObject } from './submessages';

/** The columns of users actorOf reads, and whether the account may act. */
const CALLER_SQL = `SELECT id, realm_id AS "realmId", email, full_name AS "fullName", role, is_bot AS "isBot", bot_type AS "botType",
  settings, is_active AS "isActive" FROM users WHERE id = $1`;

/** The caller, read with fewer columns than loadActor and checked by the same callerOfRow. */
export async function loadReader(db: Db, identity: AuthedIdentity): Promise<LoadedActor> {
  const [user] = await rawQuery<Pick<User, 'id' | 'realmId' | 'email' | 'fullName' | 'role' | 'isBot' | 'botType' | 'settings' | 'isActive'>>(
    db, CALLER_SQL, [identity.userId], 'fetch_caller',
  );
  // callerOfRow reads only the columns above.
  return callerOfRow((user ?? null) as User | null, identity).actor;
}

/** A channel a narrow names, with what deciding access to its history reads (streamAccessOf). */
export interface NamedChannel {
  stream: Pick<Stream, 'id' | 'inviteOnly' | 'isWebPublic' | 'historyPublicToSubscribers'>;
  sub: Pick<Subscription, 'active'> | null;
}

const CHANNEL_SQL = (by: 'id' | 'name_key') => `SELECT s.id, s.invite_only AS "inviteOnly", s.is_web_public AS "isWebPublic",
  s.history_public_to_subscribers AS "historyPublicToSubscribers", sub.active
  FROM streams s LEFT JOIN subscriptions sub ON sub.stream_id = s.id AND sub.user_id = $3
  WHERE s.realm_id = $1 AND s.${by} = $2`;

/** The realm's channel by id or by name, and the viewer's subscription to it, in one statement. */
export async function readNamedChannel(db: Db, actor: LoadedActor, target: { id: number } | { nameKey: string }): Promise<NamedChannel | null> {
  const byId = 'id' in target;
  const [row] = await rawQuery<NamedChannel['stream'] & { active: boolean | null }>(
    db, CHANNEL_SQL(byId ? 'id' : 'name_key'), [actor.realmId, byId ? target.id : target.nameKey, actor.userId], byId ? 'fetch_channel_id' : 'fetch_channel_name',
  );
  if (!row) return null;
  const { active, ...stream } = row;
  return { stream, sub: active === null ? null : { active } };
}

/** A message of a page: what its object shows, and the viewer's flags as decimal text. */
export type PageRow = WireSource & { flags: string };

/**
 * The page's columns, in PageTuple's order. Times are whole seconds computed by Postgres
 * (timestamps without time zone are UTC, as Prisma reads them), so no Date is made.
 */
export function pageColumns(flagsSql: string, applyMarkdown: boolean): string {
  // date_part is float8 arithmetic, where extract's numeric cost Postgres about 0.3 ms more per
  // page; times are whole milliseconds (timestamp(3)), well within float8's precision.
  const secs = (col: string) => `floor(date_part('epoch', ${col}))`;
  return `m.id, m.realm_id, m.sender_id, m.stream_id, m.conversation_id, m.topic,
    ${applyMarkdown ? 'm.rendered_content' : 'm.content'} AS body, m.sending_client, m.is_me_message, m.edit_history,
    ${secs('m.date_sent')} AS date_sent, ${secs('m.last_edit_time')} AS last_edit_time,
    ${secs('m.last_moved_time')} AS last_moved_time, (${flagsSql})::text AS flags`;
}

type PageTuple = [number, number, number, number | null, number | null, string, string, string, boolean, unknown, number, number | null, number | null, string];

/**
 * Rows of a statement selecting pageColumns(), read as arrays (rawArrays, ADR 0023): rows stream
 * in and are parsed while Postgres still reads the page, and no object is made per row.
 */
export async function readPage(db: Db, sql: string, values: unknown[]): Promise<PageRow[]> {
  return (await rawArrays<PageTuple>(db, sql, values)).map(([id, realmId, senderId, streamId, conversationId, topic, body, sendingClient, isMeMessage, editHistory, timestamp, lastEditTimestamp, lastMovedTimestamp, flags]) => ({
    id, realmId, senderId, streamId, conversationId, topic, body, sendingClient, isMeMessage, editHistory, timestamp, lastEditTimestamp, lastMovedTimestamp, flags,
  }));
}

/** The people a batch names: its senders, its reactions' people, its conversations' members. */
const FACTS_SQL = `
WITH r AS MATERIALIZED (
  SELECT id, message_id, emoji_name, emoji_code, reaction_type, user_id FROM reactions WHERE message_id = ANY($1::int[])
), c AS MATERIALIZED (
  SELECT id, member_ids FROM direct_conversations WHERE id = ANY($3::int[])
)
SELECT
  (SELECT json_build_array(string_id, allow_edit_history) FROM realms WHERE id = $2) AS realm,
  (SELECT json_agg(json_build_array(id, name)) FROM streams WHERE id = ANY($4::int[])) AS streams,
  (SELECT json_agg(json_build_array(id, member_ids)) FROM c) AS convs,
  (SELECT json_agg(json_build_array(message_id, emoji_name, emoji_code, reaction_type, user_id) ORDER BY id) FROM r) AS reactions,
  (SELECT json_agg(json_build_array(message_id, msg_type, content, sender_id, id) ORDER BY id) FROM submessages WHERE message_id = ANY($1::int[])) AS submessages,
  (SELECT json_agg(json_build_array(pattern, url_template) ORDER BY "order", id) FROM linkifiers WHERE realm_id = $2) AS linkifiers,
  (SELECT json_agg(json_build_array(id, email, delivery_email, full_name, avatar_source, avatar_version, settings->'email_address_visibility', is_bot))
     FROM users WHERE id IN (SELECT unnest($5::int[]) UNION SELECT user_id FROM r UNION SELECT unnest(member_ids) FROM c)) AS users`;

interface FactsRow {
  realm: [stringId: string, allowEditHistory: boolean] | null;
  streams: Array<[number, string]> | null;
  convs: Array<[number, number[]]> | null;
  reactions: Array<[number, string, string, string, number]> | null;
  submessages: Array<[number, string, string, number, number]> | null;
  linkifiers: Array<[string, string]> | null;
  users: Array<[number, string, string, string, string, number, unknown, boolean]> | null;
}

const distinct = (values: Array<number | null>): number[] => [...new Set(values.filter((v): v is number => v !== null))];

/**
 * An int[] parameter as Postgres's array text: node-postgres would escape and quote each
 * element of a thousand ids one by one.
 */
const intArray = (values: number[]) => `{${values.join(',')}}`;

/** What the objects of a page need besides its rows, read in one statement. */
async function readPageFacts(db: Db, realmId: number, rows: PageRow[]): Promise<{ facts: WireFacts; allowEditHistory: boolean }> {
  const [{ realm, streams, convs, reactions, submessages, linkifiers, users }] = await rawQuery<FactsRow>(db, FACTS_SQL, [
    intArray(rows.map((r) => r.id)), realmId, intArray(distinct(rows.map((r) => r.conversationId))),
    intArray(distinct(rows.map((r) => r.streamId))), intArray(distinct(rows.map((r) => r.senderId))),
  ], 'fetch_facts') as [FactsRow];
  const userById = new Map<number, WireUser>();
  for (const [id, email, deliveryEmail, fullName, avatarSource, avatarVersion, visibility, isBot] of users ?? []) {
    userById.set(id, { id, email, deliveryEmail, fullName, avatarSource, avatarVersion, settings: { email_address_visibility: visibility ?? null }, isBot } as WireUser);
  }
  const submessagesByMessage = new Map<number, unknown[]>();
  for (const [messageId, msgType, content, senderId, id] of submessages ?? []) {
    const list = submessagesByMessage.get(messageId) ?? [];
    list.push(submessageObject({ msgType, content, messageId, senderId, id }));
    submessagesByMessage.set(messageId, list);
  }
  const facts: WireFacts = {
    userById,
    realmStr: new Map(realm ? [[realmId, realm[0]]] : []),
    streamName: new Map(streams ?? []),
    convMembers: new Map(convs ?? []),
    reactionsByMessage: reactionsByMessageOf((reactions ?? []).map(([messageId, emojiName, emojiCode, reactionType, userId]) => ({ messageId, emojiName, emojiCode, reactionType, userId })), userById),
    submessagesByMessage,
    topicLinkers: (linkifiers ?? []).map(([pattern, urlTemplate]) => ({ re: compileLinkifier(pattern), urlTemplate })),
  };
  return { facts, allowEditHistory: realm?.[1] ?? true };
}

/**
 * Message objects of a page of one realm's messages, with the viewer's flags, in the rows'
 * order: the same objects lib/wire.ts's buildWireMessages makes (test/fetch-wire.test.ts).
 */
export async function buildPageWire(db: Db, realmId: number, rows: PageRow[], opts: Omit<WireOptions, 'allowEditHistory'>): Promise<WireMessage[]> {
  if (!rows.length) return [];
  const { facts, allowEditHistory } = await readPageFacts(db, realmId, rows);
  const build = wireBuilder(facts, { ...opts, allowEditHistory });
  // Flags repeat (most messages are just read): each distinct value is named once.
  const flagNames = new Map<string, string[]>();
  return rows.map((r) => {
    const w = build(r);
    let names = flagNames.get(r.flags);
    if (!names) flagNames.set(r.flags, (names = apiFlagNames(BigInt(r.flags))));
    w.flags = [...names];
    return w;
  });
}
