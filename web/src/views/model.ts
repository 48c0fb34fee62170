/**
 * The inbox and recent conversations, computed from the snapshot and the messages known: the
 * inbox is every conversation with unread messages (muted ones left out, as the family does),
 * grouped by channel with direct messages first; recent conversations are the latest
 * conversations with their participants, filtered as the person chooses. Pure.
 */
import type { Message, Subscription } from '@chat/client';
import { dmConversations, isConversationMuted, POLICY, topicPolicy, unreadByChannel } from '../sidebar/model';
import type { RegisterState } from '@chat/client';

type Reg = Pick<RegisterState, 'unread_msgs' | 'subscriptions' | 'user_topics' | 'recent_private_conversations' | 'user_id'> & Partial<RegisterState>;

export interface InboxTopic {
  topic: string;
  count: number;
  ids: number[];
  mentions: number;
  followed: boolean;
  latest: number;
}

export interface InboxChannel {
  sub: Subscription;
  count: number;
  mentions: number;
  topics: InboxTopic[];
}

export interface InboxDm {
  key: string;
  userIds: number[];
  count: number;
  ids: number[];
  latest: number;
  label: string;
}

export interface Inbox {
  dms: InboxDm[];
  channels: InboxChannel[];
}

const has = (text: string, q: string) => text.toLowerCase().includes(q);

export function buildInbox(reg: Reg, nameOf: (id: number) => string, channelOrder: number[], filter = '', mutedUsers: ReadonlySet<number> = new Set()): Inbox {
  const q = filter.trim().toLowerCase();
  const dms: InboxDm[] = dmConversations(reg, mutedUsers)
    .filter((c) => c.unread > 0)
    .map((c) => {
      const ids = c.userIds.length ? c.userIds : [reg.user_id];
      return { key: c.key, userIds: ids, count: c.unread, ids: c.unreadIds, latest: Math.max(...c.unreadIds), label: ids.map(nameOf).join(', ') };
    })
    .filter((d) => !q || has(d.label, q))
    .sort((a, b) => b.latest - a.latest);
  const unread = unreadByChannel(reg);
  const subs = new Map(reg.subscriptions.map((s) => [s.stream_id, s]));
  const channels: InboxChannel[] = [];
  for (const id of channelOrder) {
    const ch = unread.get(id);
    const sub = subs.get(id);
    if (!ch || !sub) continue;
    const channelMatches = !q || has(sub.name, q);
    const topics = ch.topics
      .filter((t) => !t.muted && (channelMatches || has(t.topic, q)))
      .map((t) => ({ topic: t.topic, count: t.count, ids: t.ids, mentions: t.mentions, followed: t.followed, latest: Math.max(...t.ids) }))
      .sort((a, b) => b.latest - a.latest);
    if (!topics.length) continue;
    channels.push({ sub, count: topics.reduce((n, t) => n + t.count, 0), mentions: topics.reduce((n, t) => n + t.mentions, 0), topics });
  }
  return { dms, channels };
}

export interface RecentConversation {
  key: string;
  type: 'stream' | 'private';
  streamId?: number;
  topic?: string;
  /** For DMs: the other people (empty: with yourself). */
  userIds?: number[];
  maxId: number;
  timestamp: number;
  /** Senders, most recent first. */
  participants: number[];
  unread: number;
  unreadIds: number[];
  muted: boolean;
  policy: number;
  participated: boolean;
}

export interface RecentFilters {
  unread: boolean;
  participated: boolean;
  includeMuted: boolean;
  /** 'all', 'channels' or 'dms'. */
  kind: 'all' | 'channels' | 'dms';
  text: string;
}

export const DEFAULT_FILTERS: RecentFilters = { unread: false, participated: false, includeMuted: false, kind: 'all', text: '' };

function dmOthers(m: Message, self: number): number[] {
  const ids = Array.isArray(m.display_recipient) ? m.display_recipient.map((u) => u.id) : [];
  return ids.filter((id) => id !== self).sort((a, b) => a - b);
}

/** Every conversation the known messages and unread counts show, newest first. */
export function buildRecent(reg: Reg, messages: Iterable<Message>, mutedUsers: ReadonlySet<number> = new Set()): RecentConversation[] {
  const self = reg.user_id;
  const byKey = new Map<string, RecentConversation & { senders: Map<number, number> }>();
  const channelMuted = new Map(reg.subscriptions.map((s) => [s.stream_id, s.is_muted]));
  const subscribed = new Set(reg.subscriptions.map((s) => s.stream_id));
  const entry = (key: string, init: () => Omit<RecentConversation, 'participants'>) => {
    let c = byKey.get(key);
    if (!c) byKey.set(key, (c = { ...init(), participants: [], senders: new Map() }));
    return c;
  };
  const streamEntry = (streamId: number, topic: string) => {
    const policy = topicPolicy(reg.user_topics, streamId, topic);
    return entry(`stream:${streamId}:${topic.toLowerCase()}`, () => ({ key: `stream:${streamId}:${topic.toLowerCase()}`, type: 'stream', streamId, topic, maxId: 0, timestamp: 0, unread: 0, unreadIds: [], policy, muted: isConversationMuted(channelMuted.get(streamId) ?? false, policy), participated: false }));
  };
  const dmEntry = (others: number[]) => entry(`dm:${others.join(',')}`, () => ({ key: `dm:${others.join(',')}`, type: 'private', userIds: others, maxId: 0, timestamp: 0, unread: 0, unreadIds: [], policy: POLICY.inherit, muted: others.length === 1 && mutedUsers.has(others[0]!), participated: false }));
  for (const m of messages) {
    if (m.type === 'stream' && (m.stream_id === undefined || !subscribed.has(m.stream_id))) continue;
    const c = m.type === 'stream' ? streamEntry(m.stream_id!, m.subject) : dmEntry(dmOthers(m, self));
    if (m.id > c.maxId) {
      c.maxId = m.id;
      c.timestamp = m.timestamp;
      // The latest spelling of the topic is the one shown.
      if (m.type === 'stream') c.topic = m.subject;
    }
    c.senders.set(m.sender_id, Math.max(c.senders.get(m.sender_id) ?? 0, m.id));
    if (m.sender_id === self) c.participated = true;
  }
  for (const e of reg.unread_msgs.streams) {
    if (!subscribed.has(e.stream_id)) continue;
    const c = streamEntry(e.stream_id, e.topic);
    c.unread += e.unread_message_ids.length;
    c.unreadIds.push(...e.unread_message_ids);
    c.maxId = Math.max(c.maxId, ...e.unread_message_ids);
  }
  for (const d of dmConversations(reg, mutedUsers)) {
    if (!d.unread) continue;
    const c = dmEntry(d.userIds);
    c.unread += d.unread;
    c.unreadIds.push(...d.unreadIds);
    c.maxId = Math.max(c.maxId, d.maxId);
  }
  return [...byKey.values()]
    .map(({ senders, ...c }) => ({ ...c, participants: [...senders.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id) }))
    .sort((a, b) => b.maxId - a.maxId);
}

export function filterRecent(list: RecentConversation[], f: RecentFilters, describe: (c: RecentConversation) => string): RecentConversation[] {
  const q = f.text.trim().toLowerCase();
  return list.filter((c) => {
    if (f.kind === 'channels' && c.type !== 'stream') return false;
    if (f.kind === 'dms' && c.type !== 'private') return false;
    if (f.unread && c.unread === 0) return false;
    if (f.participated && !c.participated) return false;
    if (!f.includeMuted && c.muted) return false;
    if (q && !describe(c).toLowerCase().includes(q)) return false;
    return true;
  });
}
