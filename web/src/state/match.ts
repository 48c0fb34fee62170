/**
 * Whether a message belongs to a narrow, decided locally for the operators a live view needs
 * (a new message joins an open view without a refetch). Operators that only the server can
 * judge (search) answer `undefined`: the view then refetches.
 */
import type { Message } from '@chat/client';
import { leadingId, leadingIds, type NarrowTerm } from '../narrow/hash';

export function dmPeople(message: Message): number[] {
  return Array.isArray(message.display_recipient) ? message.display_recipient.map((u) => u.id) : [];
}

export function matchesNarrow(message: Message, terms: NarrowTerm[], selfId: number): boolean | undefined {
  for (const t of terms) {
    const r = matchTerm(message, t, selfId);
    if (r === undefined) return undefined;
    if (r === !!t.negated) return false;
  }
  return true;
}

function matchTerm(m: Message, t: NarrowTerm, selfId: number): boolean | undefined {
  switch (t.operator) {
    case 'channel': {
      const id = leadingId(t.operand);
      return m.type === 'stream' && (Number.isNaN(id) ? m.display_recipient === t.operand : m.stream_id === id);
    }
    case 'topic':
      return m.type === 'stream' && m.subject.toLowerCase() === t.operand.toLowerCase();
    case 'dm': {
      if (m.type !== 'private') return false;
      const want = new Set(leadingIds(t.operand).filter((id) => id !== selfId));
      const have = new Set(dmPeople(m).filter((id) => id !== selfId));
      if (want.size === 0) return have.size === 0;
      return want.size === have.size && [...want].every((id) => have.has(id));
    }
    case 'dm-including':
      return m.type === 'private' && dmPeople(m).includes(leadingId(t.operand));
    case 'sender':
      return m.sender_id === leadingId(t.operand) || m.sender_email === t.operand;
    case 'is':
      if (t.operand === 'dm' || t.operand === 'private') return m.type === 'private';
      if (t.operand === 'starred') return m.flags.includes('starred');
      if (t.operand === 'mentioned') return m.flags.some((f) => f === 'mentioned' || f === 'wildcard_mentioned' || f === 'stream_wildcard_mentioned' || f === 'topic_wildcard_mentioned' || f === 'has_alert_word');
      if (t.operand === 'unread') return !m.flags.includes('read');
      if (t.operand === 'alerted') return m.flags.includes('has_alert_word');
      return undefined;
    case 'near':
    case 'with':
      return true;
    default:
      return undefined;
  }
}
