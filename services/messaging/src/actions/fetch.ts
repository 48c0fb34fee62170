/**
 * GET /messages: a range of messages around an anchor, or an explicit list of ids, in the
 * viewer's narrow. Where the narrow names channels whose history the viewer may read, the
 * query runs over the channel's messages (copies the viewer lacks read as "historical");
 * otherwise it runs over the viewer's own user_messages rows, which is exactly their history.
 */
import { rawQuery, type Message, type Stream, type Subscription } from '@chat/db';
import { errors, LIMITS, isGuest } from '@chat/contracts';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { FLAGS_SQL, operandKey, operandList, SqlParams, termToSql, type NarrowLookups, type NarrowTerm } from '../lib/narrow';
import type { WireMessage } from '../lib/wire';
import { streamAccessOf } from './streams-access';
import { highlightSearch } from './search';
import { buildPageWire, pageColumns, readNamedChannel, readPage, type NamedChannel, type PageRow } from './fetch-wire';

const MAX_INT4 = 2147483647;

/** The anchor `newest` stands for: larger than any message id. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10000000000000000;

export type Anchor = { kind: 'id'; id: number } | { kind: 'newest' } | { kind: 'oldest' } | { kind: 'first_unread' } | { kind: 'date'; date: Date };

export interface FetchOptions {
  narrow: NarrowTerm[];
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
}

export interface RangeQuery extends FetchOptions {
  anchor: Anchor;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
}

interface Plan {
  flagsSql: string;
  from: string;
  where: string[];
  sql: SqlParams;
  orderColumn: string;
  /** Whether rows carry rendered_content rather than content. */
  applyMarkdown: boolean;
}

async function lookups(services: Services, actor: LoadedActor, narrow: NarrowTerm[], channels?: Map<string, NamedChannel>): Promise<NarrowLookups> {
  const { db } = services;
  const look: NarrowLookups = { viewerId: actor.userId, realmId: actor.realmId, streamIds: new Map(), userIds: new Map(), publicStreamIds: [], flagsSql: 'um.flags' };
  for (const t of narrow) {
    if (t.operator === 'channel') {
      const key = operandKey(t.operand);
      const numeric = typeof t.operand === 'number' || /^\d+$/.test(String(t.operand));
      // The channel and the viewer's subscription to it, which decides whether its history is read.
      // An id no int4 column holds names no channel.
      const named = numeric && !(Number(t.operand) <= MAX_INT4) ? null
        : await readNamedChannel(db, actor, numeric ? { id: Number(t.operand) } : { nameKey: String(t.operand).trim().toLowerCase() });
      look.streamIds.set(key, named?.stream.id ?? null);
      if (named) channels?.set(key, named);
    } else if (t.operator === 'channels' && !isGuest(actor)) {
      const rows = await db.stream.findMany({ where: { realmId: actor.realmId, inviteOnly: false }, select: { id: true } });
      look.publicStreamIds = rows.map((r) => r.id);
    } else if (['sender', 'dm', 'dm-including'].includes(t.operator)) {
      for (const o of t.operator === 'sender' ? [t.operand] : operandList(t.operand)) {
        if (o === 'me') continue;
        const numeric = typeof o === 'number' || /^\d+$/.test(String(o));
        const u = await db.user.findFirst({
          where: numeric ? { id: Number(o), realmId: actor.realmId } : { realmId: actor.realmId, email: { equals: String(o).trim(), mode: 'insensitive' } },
          select: { id: true },
        });
        look.userIds.set(operandKey(o), u?.id ?? null);
      }
    }
  }
  return look;
}

/** Chooses channel-history or own-history mode and turns the narrow into conditions. */
async function plan(services: Services, actor: LoadedActor, narrow: NarrowTerm[], applyMarkdown = true): Promise<Plan> {
  const channels = new Map<string, NamedChannel>();
  const look = await lookups(services, actor, narrow, channels);
  const sql = new SqlParams();
  const viewer = sql.add(actor.userId);
  const realm = sql.add(actor.realmId);
  const channelTerms = narrow.filter((t) => !t.negated && (t.operator === 'channel' || t.operator === 'channels'));
  let historyMode = false;
  if (channelTerms.length) {
    historyMode = true;
    for (const t of channelTerms) {
      if (t.operator === 'channels') {
        if (isGuest(actor)) historyMode = false;
        continue;
      }
      const named = channels.get(operandKey(t.operand));
      if (!named) continue; // termToSql reports it
      // streamAccessOf reads only the columns readNamedChannel reads.
      if (!streamAccessOf(actor, named.stream as Stream, named.sub as Subscription | null).canReadHistory) historyMode = false;
    }
  }
  look.flagsSql = historyMode ? FLAGS_SQL : 'um.flags';
  const where = narrow.map((t) => termToSql(t, look, sql));
  if (historyMode) {
    return {
      flagsSql: look.flagsSql,
      from: `messages m LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ${viewer}`,
      where: [`m.realm_id = ${realm}`, ...where],
      sql,
      orderColumn: 'm.id',
      applyMarkdown,
    };
  }
  return {
    flagsSql: look.flagsSql,
    from: `user_messages um JOIN messages m ON m.id = um.message_id`,
    where: [`um.user_id = ${viewer}`, `m.realm_id = ${realm}`, ...where],
    sql,
    orderColumn: 'um.message_id',
    applyMarkdown,
  };
}

/** Every column of messages under its Prisma field name, for matches_narrow. */
const MESSAGE_COLUMNS = `m.id, m.realm_id AS "realmId", m.sender_id AS "senderId", m.recipient_type AS "recipientType",
  m.stream_id AS "streamId", m.conversation_id AS "conversationId", m.topic, m.content,
  m.rendered_content AS "renderedContent", m.sending_client AS "sendingClient", m.date_sent AS "dateSent",
  m.last_edit_time AS "lastEditTime", m.last_moved_time AS "lastMovedTime", m.edit_history AS "editHistory",
  m.is_me_message AS "isMeMessage", m.has_attachment AS "hasAttachment", m.has_image AS "hasImage", m.has_link AS "hasLink"`;

type Row = Message & { flags: bigint };

function selectSql(p: Plan, columns: string, extra: string[], order: 'ASC' | 'DESC', limit: number | null): string {
  const where = [...p.where, ...extra].join(' AND ');
  const lim = limit === null ? '' : ` LIMIT ${Math.max(0, Math.floor(limit))}`;
  return `SELECT ${columns} FROM ${p.from} WHERE ${where} ORDER BY ${p.orderColumn} ${order}${lim}`;
}

async function select(services: Services, p: Plan, extra: string[], order: 'ASC' | 'DESC', limit: number | null): Promise<PageRow[]> {
  return readPage(services.db, selectSql(p, pageColumns(p.flagsSql, p.applyMarkdown), extra, order, limit), p.sql.values);
}

/** The first matching message's id, if any. */
async function firstId(services: Services, p: Plan, extra: string[]): Promise<number | null> {
  const [row] = await rawQuery<{ id: number }>(services.db, selectSql(p, 'm.id', extra, 'ASC', 1), p.sql.values);
  return row ? row.id : null;
}

async function resolveAnchor(services: Services, actor: LoadedActor, p: Plan, anchor: Anchor): Promise<number> {
  switch (anchor.kind) {
    case 'id':
      return anchor.id;
    case 'newest':
      return LARGER_THAN_MAX_MESSAGE_ID;
    case 'oldest':
      return 0;
    case 'first_unread':
      return (await firstId(services, p, [`(${p.flagsSql} & 1) = 0`])) ?? LARGER_THAN_MAX_MESSAGE_ID;
    case 'date': {
      const q = { ...p, sql: p.sql.clone() };
      return (await firstId(services, q, [`m.date_sent >= ${q.sql.add(anchor.date.toISOString().replace('Z', ''))}::timestamp`])) ?? LARGER_THAN_MAX_MESSAGE_ID;
    }
  }
}

async function toWire(services: Services, actor: LoadedActor, rows: PageRow[], opts: FetchOptions): Promise<WireMessage[]> {
  const wire = await buildPageWire(services.db, actor.realmId, rows, {
    applyMarkdown: opts.applyMarkdown,
    clientGravatar: opts.clientGravatar,
    allowEmptyTopicName: opts.allowEmptyTopicName,
    realmUrl: actor.realmUrl,
  });
  const search = opts.narrow.filter((t) => t.operator === 'search' && !t.negated).map((t) => String(t.operand));
  if (search.length) await highlightSearch(services, wire, rows, search.join(' '), opts);
  return wire;
}

/** The window of messages around the anchor, without building message objects. */
export async function selectMessageRange(
  services: Services,
  actor: LoadedActor,
  q: Omit<RangeQuery, keyof FetchOptions> & { narrow: NarrowTerm[]; applyMarkdown?: boolean },
) {
  if (q.numBefore < 0 || q.numAfter < 0) throw errors.badRequest('Invalid num_before or num_after');
  if (q.numBefore + q.numAfter > LIMITS.maxMessagesPerFetch) throw errors.tooManyMessagesRequested(LIMITS.maxMessagesPerFetch);
  const p = await plan(services, actor, q.narrow, q.applyMarkdown ?? true);
  const anchor = await resolveAnchor(services, actor, p, q.anchor);
  const anchorParam = p.sql.add(anchor);
  // Ids are positive and below LARGER_THAN_MAX_MESSAGE_ID: at either end (newest, oldest) one
  // side and the anchor itself cannot match, and are not asked for.
  const none = Promise.resolve([]);
  const [before, at, after] = await Promise.all([
    anchor > 0 ? select(services, p, [`m.id < ${anchorParam}::bigint`], 'DESC', q.numBefore + 1) : none,
    q.includeAnchor && anchor > 0 && anchor < LARGER_THAN_MAX_MESSAGE_ID ? select(services, p, [`m.id = ${anchorParam}::bigint`], 'ASC', 1) : none,
    anchor < LARGER_THAN_MAX_MESSAGE_ID ? select(services, p, [`m.id > ${anchorParam}::bigint`], 'ASC', q.numAfter + 1) : none,
  ]);
  return {
    anchor,
    foundAnchor: at.length === 1,
    foundOldest: before.length <= q.numBefore,
    foundNewest: after.length <= q.numAfter,
    rows: [...before.slice(0, q.numBefore).reverse(), ...at, ...after.slice(0, q.numAfter)],
  };
}

export async function fetchMessageRange(services: Services, actor: LoadedActor, q: RangeQuery) {
  const r = await selectMessageRange(services, actor, q);
  return {
    anchor: r.anchor,
    found_anchor: r.foundAnchor,
    found_oldest: r.foundOldest,
    found_newest: r.foundNewest,
    history_limited: false,
    messages: await toWire(services, actor, r.rows, q),
  };
}

/**
 * GET /messages/matches_narrow: which of the ids (among messages the user received) match the
 * narrow, with search highlighting.
 */
export async function matchesNarrow(services: Services, actor: LoadedActor, ids: number[], narrow: NarrowTerm[]) {
  const look = await lookups(services, actor, narrow);
  const sql = new SqlParams();
  const where = [`um.user_id = ${sql.add(actor.userId)}`, `m.id = ANY(${sql.add(ids)}::int[])`, ...narrow.map((t) => termToSql(t, look, sql))];
  const rows = await services.db.$queryRawUnsafe<Row[]>(
    `SELECT ${MESSAGE_COLUMNS}, um.flags FROM user_messages um JOIN messages m ON m.id = um.message_id WHERE ${where.join(' AND ')}`,
    ...sql.values,
  );
  const wire = rows.map((r) => ({ id: r.id, match_content: r.renderedContent, match_subject: escapeHtml(r.topic) }));
  const search = narrow.filter((t) => t.operator === 'search' && !t.negated).map((t) => String(t.operand));
  if (search.length) await highlightSearch(services, wire, rows, search.join(' '), { applyMarkdown: true });
  return Object.fromEntries(wire.map((w) => [String(w.id), { match_content: w.match_content, match_subject: w.match_subject }]));
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export async function fetchMessagesById(services: Services, actor: LoadedActor, ids: number[], opts: FetchOptions) {
  if (ids.length > LIMITS.maxMessagesPerFetch) throw errors.tooManyMessagesRequested(LIMITS.maxMessagesPerFetch);
  const p = await plan(services, actor, opts.narrow, opts.applyMarkdown);
  let rows = await select(services, p, [`m.id = ANY(${p.sql.add(ids)}::int[])`], 'ASC', null);
  // Outside channel-history mode, messages of channels whose history the viewer may read are
  // accessible too even without a row of their own.
  const missing = ids.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length && !p.from.startsWith('messages')) {
    rows = [...rows, ...(await readableHistoryRows(services, actor, missing, opts.narrow, opts.applyMarkdown))].sort((a, b) => a.id - b.id);
  }
  return { found_anchor: false, found_oldest: false, found_newest: false, history_limited: false, messages: await toWire(services, actor, rows, opts) };
}

async function readableHistoryRows(services: Services, actor: LoadedActor, ids: number[], narrow: NarrowTerm[], applyMarkdown: boolean): Promise<PageRow[]> {
  const candidates = await services.db.message.findMany({ where: { id: { in: ids }, realmId: actor.realmId, streamId: { not: null } }, select: { id: true, streamId: true } });
  const out: PageRow[] = [];
  for (const streamId of new Set(candidates.map((c) => c.streamId!))) {
    const p = await plan(services, actor, [{ operator: 'channel', operand: streamId, negated: false }, ...narrow], applyMarkdown);
    if (!p.from.startsWith('messages')) continue;
    const mine = candidates.filter((c) => c.streamId === streamId).map((c) => c.id);
    out.push(...(await select(services, p, [`m.id = ANY(${p.sql.add(mine)}::int[])`], 'ASC', null)));
  }
  return out;
}
