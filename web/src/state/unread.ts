/**
 * The unread counts, kept in the snapshot's own `unread_msgs` shape (so a fresh /register and
 * the events applied to an older one give the same thing): a new message adds to it, a `read`
 * flag removes from it, a move re-files it. Pure.
 *
 * Exports: addUnread, removeUnread, clearUnread, unreadIdSet, channelUnread, MENTION_FLAGS.
 */
import type { Message, UnreadMsgs } from '@chat/client';
import { dmPeople } from './match';

export const MENTION_FLAGS = ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

function withId(ids: number[], id: number): number[] {
  if (ids.includes(id)) return ids;
  return ids.length && ids[ids.length - 1]! > id ? [...ids, id].sort((a, b) => a - b) : [...ids, id];
}

export function addUnread(u: UnreadMsgs, m: Message, selfId: number): UnreadMsgs {
  if (m.flags.includes('read')) return u;
  const next: UnreadMsgs = { ...u };
  let added = false;
  if (m.type === 'stream') {
    const i = u.streams.findIndex((e) => e.stream_id === m.stream_id && e.topic.toLowerCase() === m.subject.toLowerCase());
    if (i < 0 || !u.streams[i]!.unread_message_ids.includes(m.id)) {
      added = true;
      next.streams = i < 0
        ? [...u.streams, { stream_id: m.stream_id!, topic: m.subject, unread_message_ids: [m.id] }]
        : u.streams.map((e, j) => (j === i ? { ...e, unread_message_ids: withId(e.unread_message_ids, m.id) } : e));
    }
  } else {
    const others = dmPeople(m).filter((id) => id !== selfId);
    if (others.length <= 1) {
      const other = others[0] ?? selfId;
      const i = u.pms.findIndex((e) => e.other_user_id === other);
      if (i < 0 || !u.pms[i]!.unread_message_ids.includes(m.id)) {
        added = true;
        next.pms = i < 0
          ? [...u.pms, { other_user_id: other, sender_id: other, unread_message_ids: [m.id] }]
          : u.pms.map((e, j) => (j === i ? { ...e, unread_message_ids: withId(e.unread_message_ids, m.id) } : e));
      }
    } else {
      const key = [...new Set([...dmPeople(m), selfId])].sort((a, b) => a - b).join(',');
      const i = u.huddles.findIndex((e) => e.user_ids_string === key);
      if (i < 0 || !u.huddles[i]!.unread_message_ids.includes(m.id)) {
        added = true;
        next.huddles = i < 0
          ? [...u.huddles, { user_ids_string: key, unread_message_ids: [m.id] }]
          : u.huddles.map((e, j) => (j === i ? { ...e, unread_message_ids: withId(e.unread_message_ids, m.id) } : e));
      }
    }
  }
  if (!added) return u;
  next.count = u.count + 1;
  if (m.flags.some((f) => MENTION_FLAGS.includes(f))) next.mentions = withId(u.mentions, m.id);
  return next;
}

export function removeUnread(u: UnreadMsgs, ids: Iterable<number>): UnreadMsgs {
  const gone = new Set(ids);
  if (!gone.size) return u;
  let removed = 0;
  const strip = <T extends { unread_message_ids: number[] }>(list: T[]): T[] =>
    list
      .map((e) => {
        const kept = e.unread_message_ids.filter((id) => !gone.has(id));
        removed += e.unread_message_ids.length - kept.length;
        return kept.length === e.unread_message_ids.length ? e : { ...e, unread_message_ids: kept };
      })
      .filter((e) => e.unread_message_ids.length > 0);
  const next = { ...u, streams: strip(u.streams), pms: strip(u.pms), huddles: strip(u.huddles), mentions: u.mentions.filter((id) => !gone.has(id)) };
  return removed === 0 && next.mentions.length === u.mentions.length ? u : { ...next, count: Math.max(0, u.count - removed) };
}

/** Everything read: the counts of mark-all-as-read. */
export function clearUnread(u: UnreadMsgs): UnreadMsgs {
  return { ...u, count: 0, streams: [], pms: [], huddles: [], mentions: [] };
}

export function unreadIdSet(u: UnreadMsgs): Set<number> {
  const ids = new Set<number>();
  for (const list of [u.streams, u.pms, u.huddles]) for (const e of list) for (const id of e.unread_message_ids) ids.add(id);
  return ids;
}

export function channelUnread(u: UnreadMsgs, streamId: number, topic?: string): number {
  let n = 0;
  for (const e of u.streams) if (e.stream_id === streamId && (topic === undefined || e.topic.toLowerCase() === topic.toLowerCase())) n += e.unread_message_ids.length;
  return n;
}
