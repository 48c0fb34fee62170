/**
 * What a narrow is, for its header, its empty state and whether viewing it marks messages as
 * read (a search does not: the family leaves search results unread).
 */
import { leadingId, leadingIds, type NarrowTerm } from '../narrow/hash';

export type NarrowKind = 'feed' | 'channel' | 'topic' | 'dm' | 'dm-all' | 'starred' | 'mentioned' | 'unread' | 'search' | 'sender' | 'other';

export interface NarrowInfo {
  kind: NarrowKind;
  streamId?: number;
  /** The channel operand when it is a name rather than an id. */
  streamName?: string;
  topic?: string;
  userIds?: number[];
  search?: string;
  senderId?: number;
  /** The `near`/`id` anchor, if any. */
  near?: number;
}

export function narrowInfo(terms: readonly NarrowTerm[]): NarrowInfo {
  const pos = terms.filter((t) => !t.negated);
  const find = (op: string) => pos.find((t) => t.operator === op);
  const nearTerm = find('near') ?? find('id') ?? find('with');
  const near = nearTerm && /^\d+$/.test(nearTerm.operand) ? Number(nearTerm.operand) : undefined;
  const base = near !== undefined ? { near } : {};
  const search = find('search');
  if (search) return { ...base, kind: 'search', search: search.operand };
  const channel = find('channel');
  if (channel) {
    const id = leadingId(channel.operand);
    const topic = find('topic');
    const where = Number.isNaN(id) ? { streamName: channel.operand } : { streamId: id };
    return topic ? { ...base, ...where, kind: 'topic', topic: topic.operand } : { ...base, ...where, kind: 'channel' };
  }
  const dm = find('dm');
  if (dm) return { ...base, kind: 'dm', userIds: leadingIds(dm.operand) };
  const is = pos.filter((t) => t.operator === 'is').map((t) => t.operand);
  if (is.includes('dm') || is.includes('private')) return { ...base, kind: 'dm-all' };
  if (is.includes('starred')) return { ...base, kind: 'starred' };
  if (is.includes('mentioned')) return { ...base, kind: 'mentioned' };
  if (is.includes('unread')) return { ...base, kind: 'unread' };
  const sender = find('sender');
  if (sender) return { ...base, kind: 'sender', senderId: leadingId(sender.operand) };
  const meaningful = terms.filter((t) => !['near', 'id', 'with'].includes(t.operator));
  return { ...base, kind: meaningful.length ? 'other' : 'feed' };
}

/** Whether reading this view marks what is read as read. */
export function canMarkRead(terms: readonly NarrowTerm[]): boolean {
  return !terms.some((t) => t.operator === 'search');
}
