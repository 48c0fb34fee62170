/**
 * The location hash, in the family's format, so links copied from the family's web app and
 * from mails open the same view here: `#narrow/channel/12-general/topic/lunch`,
 * `#narrow/dm/12,13-group`, `#narrow/search/words`, `#narrow/is/starred`, `#inbox`,
 * `#recent`, `#feed`, `#drafts`, `#scheduled`, `#settings/<section>`, `#organization/<section>`.
 */
import type { Narrow } from '@chat/client';

export interface NarrowTerm {
  operator: string;
  operand: string;
  negated?: boolean;
}

export type View =
  | { kind: 'inbox' }
  | { kind: 'recent' }
  | { kind: 'feed' }
  | { kind: 'drafts' }
  | { kind: 'scheduled' }
  | { kind: 'narrow'; terms: NarrowTerm[] }
  | { kind: 'settings'; section: string }
  | { kind: 'organization'; section: string };

const REPLACEMENTS: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };

/** The family's hash encoding: URI encoding with `.` in place of `%`. */
export function encodeHashComponent(text: string): string {
  return encodeURIComponent(text).replace(/[%().]/g, (c) => REPLACEMENTS[c]!);
}

export function decodeHashComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\./g, '%'));
  } catch {
    return text;
  }
}

/** Old operator names the family still accepts in links. */
const SYNONYMS: Record<string, string> = { stream: 'channel', subject: 'topic', 'pm-with': 'dm', pm: 'dm', 'group-pm-with': 'dm-including' };

export function parseHash(hash: string): View {
  const h = hash.replace(/^#/, '');
  if (h === '' || h === 'inbox') return { kind: 'inbox' };
  if (h === 'recent' || h === 'recent_topics') return { kind: 'recent' };
  if (h === 'feed' || h === 'all_messages') return { kind: 'feed' };
  if (h === 'drafts') return { kind: 'drafts' };
  if (h === 'scheduled') return { kind: 'scheduled' };
  if (h.startsWith('settings')) return { kind: 'settings', section: h.split('/')[1] || 'profile' };
  if (h.startsWith('organization')) return { kind: 'organization', section: h.split('/')[1] || 'profile' };
  if (!h.startsWith('narrow/')) return { kind: 'inbox' };
  const parts = h.slice('narrow/'.length).split('/');
  const terms: NarrowTerm[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    let operator = decodeHashComponent(parts[i]!);
    const negated = operator.startsWith('-');
    if (negated) operator = operator.slice(1);
    operator = SYNONYMS[operator] ?? operator;
    terms.push({ operator, operand: decodeHashComponent(parts[i + 1]!), ...(negated ? { negated } : {}) });
  }
  return terms.length ? { kind: 'narrow', terms } : { kind: 'feed' };
}

export function viewHash(view: View): string {
  switch (view.kind) {
    case 'narrow':
      return '#narrow/' + view.terms.map((t) => `${t.negated ? '-' : ''}${encodeHashComponent(t.operator)}/${operandInHash(t)}`).join('/');
    case 'settings':
    case 'organization':
      return `#${view.kind}/${view.section}`;
    default:
      return `#${view.kind}`;
  }
}

/** The family writes a dm operand's id list with bare commas (`#narrow/dm/5,7-group`). */
function operandInHash(t: NarrowTerm): string {
  const ids = t.operator === 'dm' || t.operator === 'dm-including' ? /^[\d,]+/.exec(t.operand)?.[0] : undefined;
  return ids ? ids + encodeHashComponent(t.operand.slice(ids.length)) : encodeHashComponent(t.operand);
}

/** `12-general`: the id, then the name for people reading the link. */
export function channelSlug(id: number, name: string): string {
  return `${id}-${name.replace(/[ ]/g, '-')}`;
}

export function channelHash(id: number, name: string, topic?: string): string {
  const terms: NarrowTerm[] = [{ operator: 'channel', operand: channelSlug(id, name) }];
  if (topic !== undefined) terms.push({ operator: 'topic', operand: topic });
  return viewHash({ kind: 'narrow', terms });
}

/** Direct messages with these people (the viewer left out), e.g. `#narrow/dm/12,13-group`. */
export function dmHash(userIds: number[], label: string): string {
  const ids = [...userIds].sort((a, b) => a - b).join(',');
  return viewHash({ kind: 'narrow', terms: [{ operator: 'dm', operand: `${ids}-${userIds.length > 1 ? 'group' : label}` }] });
}

/** The leading number of an operand such as `12-general`, or NaN. */
export function leadingId(operand: string): number {
  const m = /^(\d+)(?:-|$)/.exec(operand);
  return m ? Number(m[1]) : NaN;
}

export function leadingIds(operand: string): number[] {
  const m = /^([\d,]+)(?:-|$)/.exec(operand);
  return m ? m[1]!.split(',').filter(Boolean).map(Number) : [];
}

/**
 * The API's narrow for a view's terms: channel and dm operands become ids (a name is kept
 * where no id leads), as GET /messages takes them.
 */
export function apiNarrow(terms: NarrowTerm[]): Narrow {
  return terms.map((t) => {
    const base = { operator: t.operator, ...(t.negated ? { negated: true } : {}) };
    if (t.operator === 'channel') {
      const id = leadingId(t.operand);
      return { ...base, operand: Number.isNaN(id) ? t.operand : id };
    }
    if (t.operator === 'dm' || t.operator === 'dm-including') {
      const ids = leadingIds(t.operand);
      return { ...base, operand: t.operator === 'dm' ? ids : ids[0] ?? t.operand };
    }
    // The hash writes a sender as `<id>-<name>`; the server takes the id (or an email).
    if (t.operator === 'sender') {
      const id = leadingId(t.operand);
      return { ...base, operand: Number.isNaN(id) ? t.operand : id };
    }
    if (t.operator === 'near' || t.operator === 'id' || t.operator === 'with') return { ...base, operand: t.operand };
    return { ...base, operand: t.operand };
  });
}

/** The store's key for a narrow (the combined feed is the empty narrow). */
export function narrowKey(terms: NarrowTerm[]): string {
  return JSON.stringify(terms.filter((t) => t.operator !== 'near' && t.operator !== 'with').map((t) => [t.negated ? '-' + t.operator : t.operator, t.operator === 'channel' ? String(leadingId(t.operand)) : t.operator === 'dm' ? leadingIds(t.operand).join(',') : t.operand]));
}
