/**
 * Narrows (filters of GET /messages) turned into SQL over `messages m` joined to the viewer's
 * `user_messages um`. Both wire forms are read: {operator, operand, negated} objects and
 * [operator, operand] pairs.
 */
import { z } from 'zod';
import { EMPTY_TOPIC_DISPLAY_NAME, errors, flagBit } from '@chat/contracts';

export interface NarrowTerm {
  operator: string;
  operand: unknown;
  negated: boolean;
}

const termSchema = z.union([
  z.object({ operator: z.string(), operand: z.unknown(), negated: z.boolean().optional() }),
  z.tuple([z.string(), z.unknown()]),
]);
export const narrowSchema = z.array(termSchema);

export function normalizeNarrow(raw: z.infer<typeof narrowSchema>): NarrowTerm[] {
  const terms = raw.map((t) => {
    const term = Array.isArray(t) ? { operator: t[0], operand: t[1], negated: false } : { ...t, negated: t.negated ?? false };
    let operator = term.operator;
    let negated = term.negated;
    if (operator.startsWith('-')) {
      operator = operator.slice(1);
      negated = !negated;
    }
    return { operator: ALIASES[operator] ?? operator, operand: term.operand, negated };
  });
  checkChannelOrDm(terms);
  return terms;
}

const CHANNEL_OPERATORS = new Set(['channel', 'channels', 'topic']);
const isDmTerm = (t: NarrowTerm) => t.operator === 'dm' || (t.operator === 'is' && (t.operand === 'dm' || t.operand === 'private'));

/**
 * A narrow that asks for channel messages and direct messages at once matches nothing; the
 * family refuses it rather than answering an empty page. Negated terms do not count.
 */
function checkChannelOrDm(terms: NarrowTerm[]): void {
  const positive = terms.filter((t) => !t.negated);
  if (positive.some((t) => CHANNEL_OPERATORS.has(t.operator)) && positive.some(isDmTerm)) {
    throw badNarrow('No message can be both a channel message and direct message');
  }
}

const ALIASES: Record<string, string> = {
  stream: 'channel',
  streams: 'channels',
  subject: 'topic',
  'pm-with': 'dm',
  'group-pm-with': 'dm-including',
  'dm-with': 'dm-including',
};

export const badNarrow = (desc: string) => errors.badNarrowOperator(desc);

/** A SQL fragment builder with numbered parameters. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }

  /** A copy to add one query's own parameters to: Postgres refuses parameters a query never uses. */
  clone(): SqlParams {
    const c = new SqlParams();
    c.values.push(...this.values);
    return c;
  }
}

/** Facts about the narrow's targets, looked up by the caller before building SQL. */
export interface NarrowLookups {
  viewerId: number;
  realmId: number;
  /** channel operand -> channel id (null when no such channel). */
  streamIds: Map<string, number | null>;
  /** sender / dm operands -> user ids (emails and ids resolved; null entries unknown). */
  userIds: Map<string, number | null>;
  /** Ids of public channels (for channels:public). */
  publicStreamIds: number[];
  /** The viewer's flags: `um.flags`, or FLAGS_SQL where copies may be missing. */
  flagsSql: string;
}

/**
 * Flags of the viewer's copy; messages read through channel history have no row: read +
 * historical. Over the viewer's own rows plain `um.flags` is used instead, so that the partial
 * indexes on (flags & n) match.
 */
export const FLAGS_SQL = `COALESCE(um.flags, ${flagBit('read') | flagBit('historical')})`;

export const operandKey = (v: unknown) => (typeof v === 'number' ? `#${v}` : String(v).trim().toLowerCase());

export function operandList(operand: unknown): unknown[] {
  if (Array.isArray(operand)) return operand;
  if (typeof operand === 'number') return [operand];
  if (typeof operand === 'string') return operand.split(',').map((s) => s.trim()).filter(Boolean);
  throw badNarrow('invalid operand');
}

function flagCond(flags: string, flag: Parameters<typeof flagBit>[0], set: boolean): string {
  return `(${flags} & ${flagBit(flag)}) ${set ? '<>' : '='} 0`;
}

export const SEARCH_VECTOR_SQL = `to_tsvector('english', m.topic || ' ' || m.content)`;

/** One condition per term; the caller ANDs them. */
export function termToSql(term: NarrowTerm, look: NarrowLookups, sql: SqlParams): string {
  const cond = positiveSql(term, look, sql);
  return term.negated ? `NOT (${cond})` : cond;
}

function positiveSql(term: NarrowTerm, look: NarrowLookups, sql: SqlParams): string {
  const { operator, operand } = term;
  switch (operator) {
    case 'channel': {
      const id = look.streamIds.get(operandKey(operand));
      if (id === undefined || id === null) throw badNarrow(`unknown channel ${String(operand)}`);
      return `m.stream_id = ${sql.add(id)}`;
    }
    case 'channels':
      if (operand !== 'public' && operand !== 'web-public') throw badNarrow('invalid channels operand');
      return `m.stream_id = ANY(${sql.add(look.publicStreamIds)}::int[])`;
    case 'topic':
      if (typeof operand !== 'string') throw badNarrow('invalid topic operand');
      return `lower(m.topic) = lower(${sql.add(topicOperand(operand))}) AND m.stream_id IS NOT NULL`;
    case 'sender': {
      const id = operand === 'me' ? look.viewerId : look.userIds.get(operandKey(operand));
      if (id === undefined || id === null) throw badNarrow('unknown user');
      return `m.sender_id = ${sql.add(id)}`;
    }
    case 'dm': {
      const ids = operandList(operand).map((o) => look.userIds.get(operandKey(o)));
      if (ids.some((id) => id === undefined || id === null)) throw badNarrow('unknown user');
      const members = [...new Set([look.viewerId, ...(ids as number[])])].sort((a, b) => a - b);
      return `m.conversation_id IN (SELECT id FROM direct_conversations WHERE member_key = ${sql.add(members.join(','))} AND realm_id = m.realm_id)`;
    }
    case 'dm-including': {
      const id = look.userIds.get(operandKey(Array.isArray(operand) ? operand[0] : operand));
      if (id === undefined || id === null) throw badNarrow('unknown user');
      return `m.conversation_id IN (SELECT id FROM direct_conversations WHERE ${sql.add(id)} = ANY(member_ids) AND realm_id = m.realm_id)`;
    }
    case 'is':
      return isSql(String(operand), look.flagsSql);
    case 'has':
      return hasSql(String(operand));
    case 'id':
    case 'near': {
      const id = Number(operand);
      if (!Number.isSafeInteger(id)) throw badNarrow('invalid message ID');
      // near only moves the anchor; it never filters.
      return operator === 'near' ? 'TRUE' : `m.id = ${sql.add(id)}`;
    }
    case 'search':
      if (typeof operand !== 'string') throw badNarrow('invalid search operand');
      // Within one channel the channel's index narrows enough to test each row. Over a whole
      // history, the matches come from the GIN index first (OFFSET 0 keeps the planner from
      // folding the subquery in and evaluating to_tsvector row by row along the newest-first scan).
      if (look.flagsSql !== 'um.flags') return `${SEARCH_VECTOR_SQL} @@ websearch_to_tsquery('english', ${sql.add(operand)})`;
      return `m.id IN (SELECT s.id FROM messages s WHERE s.realm_id = ${sql.add(look.realmId)} AND ${SEARCH_VECTOR_SQL.replace(/m\./g, 's.')} @@ websearch_to_tsquery('english', ${sql.add(operand)}) OFFSET 0)`;
    default:
      throw badNarrow(`unknown operator ${operator}`);
  }
}

/** The empty topic is also asked for by its display name, as the family reads it. */
function topicOperand(operand: string): string {
  const topic = operand.trim();
  return topic === EMPTY_TOPIC_DISPLAY_NAME ? '' : topic;
}

function isSql(operand: string, flags: string): string {
  switch (operand) {
    case 'dm':
    case 'private':
      return 'm.conversation_id IS NOT NULL';
    case 'unread':
      return flagCond(flags, 'read', false);
    case 'starred':
      return flagCond(flags, 'starred', true);
    case 'mentioned':
      return `(${flags} & ${flagBit('mentioned') | flagBit('stream_wildcard_mentioned') | flagBit('topic_wildcard_mentioned')}) <> 0`;
    case 'alerted':
      return flagCond(flags, 'has_alert_word', true);
    case 'resolved':
      return `m.stream_id IS NOT NULL AND m.topic LIKE '✔ %'`;
    default:
      throw badNarrow(`unknown 'is' operand ${operand}`);
  }
}

function hasSql(operand: string): string {
  switch (operand) {
    case 'reaction':
      return 'EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id)';
    case 'link':
      return 'm.has_link';
    case 'attachment':
      return 'm.has_attachment';
    case 'image':
      return 'm.has_image';
    default:
      throw badNarrow(`unknown 'has' operand ${operand}`);
  }
}

