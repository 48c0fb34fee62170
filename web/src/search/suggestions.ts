/**
 * Suggestions while a search is typed, as the family offers them: operators and their values,
 * channels, people and topics completing the token being typed, and the words themselves as a
 * search. Each suggestion is the whole query it would leave in the box; the box describes it.
 */
import { encodeOperand, parseQuery, type Directory, type SearchTerm } from './query';

export interface SuggestContext extends Directory {
  channels: Array<{ id: number; name: string }>;
  users: Array<{ id: number; name: string; email: string; isBot?: boolean }>;
  /** Known topics of a channel (or of all channels), most recent first. */
  topics(channelId: number | undefined): string[];
}

export interface Suggestion {
  /** The full query the suggestion leaves in the box. */
  query: string;
  /** The term it adds or completes, for the description. */
  term: SearchTerm;
}

export const IS_VALUES = ['dm', 'starred', 'mentioned', 'unread', 'resolved', 'followed', 'alerted', 'muted'] as const;
export const HAS_VALUES = ['link', 'image', 'attachment', 'reaction'] as const;
/** Offered for an empty box (or after a space), in the family's order. */
const EMPTY_BOX: SearchTerm[] = [
  { operator: 'is', operand: 'dm' },
  { operator: 'is', operand: 'starred' },
  { operator: 'is', operand: 'mentioned' },
  { operator: 'is', operand: 'unread' },
  { operator: 'is', operand: 'followed' },
  { operator: 'is', operand: 'resolved' },
  { operator: 'has', operand: 'link' },
  { operator: 'has', operand: 'image' },
  { operator: 'has', operand: 'attachment' },
  { operator: 'has', operand: 'reaction' },
];
const OPERATOR_STUBS = ['channel', 'topic', 'sender', 'dm', 'dm-including', 'is', 'has', 'near', 'id'];

const norm = (s: string) => s.toLowerCase();
function matches(candidate: string, typed: string): boolean {
  const c = norm(candidate);
  const q = norm(typed);
  return c.startsWith(q) || c.split(/[\s\-_.@]+/).some((w) => w.startsWith(q));
}

function termText(t: SearchTerm): string {
  return t.operator === 'search' ? t.operand : `${t.negated ? '-' : ''}${t.operator}:${encodeOperand(t.operand, t.operator)}`;
}

function people(ctx: SuggestContext, typed: string, limit: number) {
  return ctx.users.filter((u) => matches(u.name, typed) || norm(u.email).startsWith(norm(typed))).sort((a, b) => Number(!!a.isBot) - Number(!!b.isBot) || a.name.localeCompare(b.name)).slice(0, limit);
}

export function suggest(text: string, ctx: SuggestContext, limit = 10): Suggestion[] {
  const endsWithSpace = text === '' || /\s$/.test(text);
  const tokens = text.match(/([^\s:]+:)?("[^"]+"?|\S+)/g) ?? [];
  const last = endsWithSpace ? '' : tokens[tokens.length - 1] ?? '';
  const before = last ? text.slice(0, text.length - last.length) : text.replace(/\s*$/, text ? ' ' : '');
  const earlier = parseQuery(before);
  const used = new Set(earlier.map(termText));
  const out: Suggestion[] = [];
  const add = (term: SearchTerm, raw?: string) => {
    const piece = raw ?? termText(term);
    if (used.has(piece) || out.some((s) => s.query === before + piece)) return;
    out.push({ query: before + piece, term });
  };

  if (!last) {
    for (const t of EMPTY_BOX) add(t);
    return out.slice(0, limit);
  }

  const negated = last.startsWith('-');
  const body = negated ? last.slice(1) : last;
  const colon = body.indexOf(':');
  const neg = negated ? { negated: true } : {};
  const channelInQuery = earlier.find((t) => t.operator === 'channel' && !t.negated);
  const channelId = channelInQuery ? ctx.channelByName(channelInQuery.operand)?.id : undefined;

  if (colon > 0 && !body.startsWith('"')) {
    const op = parseQuery(`${body.slice(0, colon)}:x`)[0]?.operator ?? body.slice(0, colon).toLowerCase();
    const typed = body.slice(colon + 1).replace(/\+/g, ' ').replace(/"/g, '');
    switch (op) {
      case 'channel':
        for (const c of ctx.channels.filter((c) => !typed || matches(c.name, typed)).sort((a, b) => a.name.localeCompare(b.name))) add({ operator: 'channel', operand: c.name, ...neg });
        break;
      case 'topic':
        for (const topic of ctx.topics(channelId).filter((x) => !typed || matches(x, typed))) add({ operator: 'topic', operand: topic, ...neg });
        break;
      case 'sender':
      case 'dm-including':
        if (op === 'sender' && 'me'.startsWith(norm(typed))) add({ operator: 'sender', operand: 'me', ...neg });
        for (const u of people(ctx, typed, limit)) add({ operator: op, operand: u.email, ...neg });
        break;
      case 'dm': {
        // A group: complete the last of the comma-separated people.
        const parts = typed.split(',');
        const partial = parts.pop()!.trim();
        const chosen = parts.map((p) => p.trim()).filter(Boolean);
        for (const u of people(ctx, partial, limit)) if (!chosen.includes(u.email)) add({ operator: 'dm', operand: [...chosen, u.email].join(','), ...neg });
        break;
      }
      case 'is':
        for (const v of IS_VALUES) if (v.startsWith(norm(typed))) add({ operator: 'is', operand: v, ...neg });
        break;
      case 'has':
        for (const v of HAS_VALUES) if (v.startsWith(norm(typed))) add({ operator: 'has', operand: v, ...neg });
        break;
      default:
        if (typed) add({ operator: op, operand: typed, ...neg });
    }
    return out.slice(0, limit);
  }

  // A plain word: search for it, or turn it into an operator, a channel or a person.
  const word = body.replace(/"/g, '');
  add({ operator: 'search', operand: [...earlier.filter((t) => t.operator === 'search').map((t) => t.operand), last].join(' ') }, last);
  for (const op of OPERATOR_STUBS) if (op.startsWith(norm(word)) && op !== norm(word)) out.push({ query: `${before}${negated ? '-' : ''}${op}:`, term: { operator: op, operand: '', ...neg } });
  for (const v of IS_VALUES) if (v.startsWith(norm(word))) add({ operator: 'is', operand: v, ...neg });
  for (const v of HAS_VALUES) if (v.startsWith(norm(word))) add({ operator: 'has', operand: v, ...neg });
  for (const c of ctx.channels.filter((c) => matches(c.name, word)).slice(0, 4)) add({ operator: 'channel', operand: c.name, ...neg });
  if (channelId !== undefined) for (const topic of ctx.topics(channelId).filter((x) => matches(x, word)).slice(0, 4)) add({ operator: 'topic', operand: topic, ...neg });
  for (const u of people(ctx, word, 3)) {
    add({ operator: 'sender', operand: u.email, ...neg });
    add({ operator: 'dm', operand: u.email, ...neg });
  }
  return out.slice(0, limit);
}
