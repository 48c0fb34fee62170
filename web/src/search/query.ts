/**
 * The search box's language, the family's: `channel:general topic:lunch -is:starred words`.
 * `parseQuery` reads what was typed into terms (words that are no operator gather into one
 * `search` term, placed first as the family does); `unparseQuery` writes terms back so the box
 * shows the current narrow. Operands in the box are what people read (channel names, emails);
 * `toNarrowTerms` / `fromNarrowTerms` convert to and from the hash's ids (`12-general`, `5,7-group`).
 */
import { channelSlug, leadingId, leadingIds, type NarrowTerm } from '../narrow/hash';

export interface SearchTerm {
  operator: string;
  operand: string;
  negated?: boolean;
}

/** Older names the family still reads in the box. */
const SYNONYMS: Record<string, string> = { stream: 'channel', streams: 'channels', subject: 'topic', 'pm-with': 'dm', from: 'sender', 'group-pm-with': 'dm-including' };

export const OPERATORS = ['channel', 'channels', 'topic', 'dm', 'dm-including', 'sender', 'has', 'is', 'in', 'near', 'id', 'with', 'search'] as const;

/** Operators whose operands are people (no `+` for spaces: emails may hold a `+`). */
const USER_OPERATORS = new Set(['dm', 'dm-including', 'sender']);

export function canonicalOperator(op: string): string {
  const lower = op.toLowerCase();
  return SYNONYMS[lower] ?? lower;
}

export function isKnownOperator(op: string): boolean {
  return (OPERATORS as readonly string[]).includes(canonicalOperator(op));
}

function decodeOperand(encoded: string, operator: string): string {
  let text = encoded.trim().replace(/"/g, '');
  if (!USER_OPERATORS.has(operator)) text = text.replace(/\+/g, ' ');
  try {
    text = decodeURIComponent(text);
  } catch {
    // A lone % is taken literally.
  }
  return text.trim();
}

export function encodeOperand(operand: string, operator: string): string {
  if (USER_OPERATORS.has(operator)) return operand.replace(/[\s"%]/g, (c) => encodeURIComponent(c));
  return operand.replace(/[\s"%+]/g, (c) => (c === ' ' ? '+' : encodeURIComponent(c)));
}

export function parseQuery(text: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const words: string[] = [];
  // Where the words go: before the first operator that followed some (the family puts search
  // words first); the server takes one search term, so all words join into it.
  let wordsAt = -1;
  // Operands either have no spaces or are quoted.
  const tokens = text.match(/([^\s:]+:)?("[^"]+"?|\S+)/g) ?? [];
  for (const token of tokens) {
    const parts = token.split(':');
    let operator = parts.shift()!;
    const negated = operator.startsWith('-');
    if (negated) operator = operator.slice(1);
    if (token.startsWith('"') || !parts.length || !isKnownOperator(operator) || canonicalOperator(operator) === 'search') {
      if (wordsAt < 0) wordsAt = terms.length;
      words.push(token);
      continue;
    }
    operator = canonicalOperator(operator);
    const operand = decodeOperand(parts.join(':'), operator);
    terms.push({ operator, operand: operator === 'is' && operand === 'private' ? 'dm' : operand, ...(negated ? { negated: true } : {}) });
  }
  if (words.length) terms.splice(wordsAt, 0, { operator: 'search', operand: words.join(' ') });
  return terms;
}

export function unparseQuery(terms: SearchTerm[]): string {
  return terms
    .map((t) => {
      if (t.operator === 'search' || t.operator === '') return t.operand;
      return `${t.negated ? '-' : ''}${t.operator}:${encodeOperand(t.operand, t.operator)}`;
    })
    .join(' ');
}

/** What the conversion needs to know of channels and people. */
export interface Directory {
  channelByName(name: string): { id: number; name: string } | undefined;
  channelById(id: number): { id: number; name: string } | undefined;
  userByEmail(email: string): { id: number; email: string; name: string } | undefined;
  userById(id: number): { id: number; email: string; name: string } | undefined;
  /** A person typed by name rather than email (`sender:iago`), when only one fits. */
  userByName?(name: string): { id: number; email: string; name: string } | undefined;
  selfId: number;
}

function person(dir: Directory, typed: string) {
  return typed === 'me' ? dir.userById(dir.selfId) : dir.userByEmail(typed) ?? dir.userByName?.(typed);
}

function nameSlug(name: string): string {
  return name.replace(/[ ]/g, '-');
}

/** Terms typed in the box as the hash's terms (unknown names and emails are kept as typed). */
export function toNarrowTerms(terms: SearchTerm[], dir: Directory): NarrowTerm[] {
  return terms.map((t) => {
    const base = t.negated ? { negated: true } : {};
    switch (t.operator) {
      case 'channel': {
        const c = dir.channelByName(t.operand) ?? (/^\d+$/.test(t.operand) ? dir.channelById(Number(t.operand)) : undefined);
        return { operator: 'channel', operand: c ? channelSlug(c.id, c.name) : t.operand, ...base };
      }
      case 'sender':
      case 'dm-including': {
        const u = person(dir, t.operand);
        return { operator: t.operator, operand: u ? `${u.id}-${nameSlug(u.name)}` : t.operand, ...base };
      }
      case 'dm': {
        const emails = t.operand.split(',').map((e) => e.trim()).filter(Boolean);
        const users = emails.map((e) => person(dir, e));
        if (!users.length || users.some((u) => !u)) return { operator: 'dm', operand: t.operand, ...base };
        const ids = [...new Set(users.map((u) => u!.id))].sort((a, b) => a - b);
        const others = ids.filter((id) => id !== dir.selfId);
        const label = others.length > 1 ? 'group' : nameSlug((others.length ? users.find((u) => u!.id === others[0]) : users[0])!.name);
        return { operator: 'dm', operand: `${ids.join(',')}-${label}`, ...base };
      }
      default:
        return { operator: t.operator, operand: t.operand, ...base };
    }
  });
}

/** The hash's terms as the box shows them (names and emails in place of ids). */
export function fromNarrowTerms(terms: NarrowTerm[], dir: Directory): SearchTerm[] {
  return terms.map((t) => {
    const base = t.negated ? { negated: true } : {};
    switch (t.operator) {
      case 'channel': {
        const id = leadingId(t.operand);
        const c = Number.isNaN(id) ? undefined : dir.channelById(id);
        return { operator: 'channel', operand: c ? c.name : t.operand, ...base };
      }
      case 'sender':
      case 'dm-including': {
        const id = leadingId(t.operand);
        const u = Number.isNaN(id) ? undefined : dir.userById(id);
        return { operator: t.operator, operand: u ? u.email : t.operand, ...base };
      }
      case 'dm': {
        const ids = leadingIds(t.operand);
        const users = ids.map((id) => dir.userById(id));
        if (!ids.length || users.some((u) => !u)) return { operator: 'dm', operand: t.operand, ...base };
        return { operator: 'dm', operand: users.map((u) => u!.email).join(','), ...base };
      }
      default:
        return { operator: t.operator, operand: t.operand, ...base };
    }
  });
}

/** The search words of a narrow, for highlighting and for the results' heading. */
export function searchWords(terms: Array<{ operator: string; operand: string; negated?: boolean }>): string {
  return terms.filter((t) => t.operator === 'search' && !t.negated).map((t) => t.operand).join(' ');
}
