/**
 * What the views derive from the store, pure and in one place: unread counts (per channel,
 * topic, direct conversation, mentions, total; muted ones left out as the family's web app
 * does), a channel's topics, the direct conversations, muting and following, presence, who is
 * typing, one's settings over the realm's defaults, and the messages still being sent to a view.
 *
 * Exports: RESOLVED_PREFIX, isResolved, resolvedName, unresolvedName, channelUnreadCount,
 * topicUnreadCount, dmUnreadCount, dmKey, totalDmUnread, mentionCount, totalUnread,
 * unreadByChannel, topicsOf, TopicRow, dmConversations, DmConversation, presenceStatus,
 * typingUserIdsFor, typingKeyOf, setting, pendingFor, starredCount, userName, isConversationView,
 * shouldMarkReadOnScroll, MARK_READ_POLICY, homeView; and from muting.ts: isChannelMuted, isTopicMuted,
 * isTopicFollowed, isUserMuted, topicPolicy, TOPIC_POLICY.
 */
import type { Message, RegisterState } from '@chat/client';
import type { NarrowTerm, View } from '../narrow/hash';
import { leadingId, leadingIds } from '../narrow/hash';
import { matchesNarrow } from './match';
import { isTopicMuted } from './muting';
import type { AppState, OutboxItem } from './store';
import { sameTopic } from './topics';
import { dmTypingKey, streamTypingKey, typingUserIds } from './typing';

export { isChannelMuted, isTopicFollowed, isTopicMuted, isUserMuted, topicPolicy, TOPIC_POLICY } from './muting';

// --- Resolved topics --------------------------------------------------------------------------

/** The family marks a resolved topic by this prefix on its name. */
export const RESOLVED_PREFIX = '✔ ';
export const isResolved = (topic: string): boolean => topic.startsWith(RESOLVED_PREFIX);
export const resolvedName = (topic: string): string => (isResolved(topic) ? topic : RESOLVED_PREFIX + topic);
export const unresolvedName = (topic: string): string => (isResolved(topic) ? topic.slice(RESOLVED_PREFIX.length) : topic);

// --- Unread counts ----------------------------------------------------------------------------

/**
 * Selectors that build a list or map return the same object while their inputs are the same
 * objects, so `useAppState(s => topicsOf(s, id))` re-renders only on a real change.
 */
function memo<R>(cache: WeakMap<object, Map<string, { deps: unknown[]; value: R }>>, owner: object, key: string, deps: unknown[], make: () => R): R {
  let byKey = cache.get(owner);
  if (!byKey) cache.set(owner, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit && hit.deps.length === deps.length && hit.deps.every((d, i) => d === deps[i])) return hit.value;
  const value = make();
  byKey.set(key, { deps, value });
  return value;
}

const channelCounts = new WeakMap<object, Map<string, { deps: unknown[]; value: Map<number, number> }>>();

/** Unmuted unread messages per channel. */
export function unreadByChannel(reg: RegisterState): Map<number, number> {
  return memo(channelCounts, reg.unread_msgs, '', [reg.subscriptions, reg.user_topics], () => {
    const counts = new Map<number, number>();
    for (const e of reg.unread_msgs.streams) {
      if (isTopicMuted(reg, e.stream_id, e.topic)) continue;
      counts.set(e.stream_id, (counts.get(e.stream_id) ?? 0) + e.unread_message_ids.length);
    }
    return counts;
  });
}

/** A channel's unread count: its unmuted topics (in a muted channel, the unmuted and followed ones). */
export function channelUnreadCount(reg: RegisterState, streamId: number): number {
  return unreadByChannel(reg).get(streamId) ?? 0;
}

/** A topic's unread count, muted or not (the topic's own row shows it). */
export function topicUnreadCount(reg: RegisterState, streamId: number, topic: string): number {
  return reg.unread_msgs.streams.filter((e) => e.stream_id === streamId && sameTopic(e.topic, topic)).reduce((n, e) => n + e.unread_message_ids.length, 0);
}

/** The key of a direct conversation: the other people's ids, sorted, comma-joined ('' with oneself). */
export function dmKey(userIds: number[], selfId: number): string {
  return [...new Set(userIds)].filter((id) => id !== selfId).sort((a, b) => a - b).join(',');
}

export function dmUnreadCount(reg: RegisterState, userIds: number[]): number {
  const others = dmKey(userIds, reg.user_id);
  if (!others.includes(',')) {
    const other = others ? Number(others) : reg.user_id;
    return reg.unread_msgs.pms.find((e) => e.other_user_id === other)?.unread_message_ids.length ?? 0;
  }
  const all = dmKey([...userIds, reg.user_id], -1);
  return reg.unread_msgs.huddles.find((e) => e.user_ids_string === all)?.unread_message_ids.length ?? 0;
}

export function totalDmUnread(reg: RegisterState): number {
  let n = 0;
  for (const e of [...reg.unread_msgs.pms, ...reg.unread_msgs.huddles]) n += e.unread_message_ids.length;
  return n;
}

export function mentionCount(reg: RegisterState): number {
  return reg.unread_msgs.mentions.length;
}

/** Everything unread that is not muted (the snapshot keeps it as `count`). */
export function totalUnread(reg: RegisterState): number {
  return reg.unread_msgs.count;
}

export function starredCount(reg: RegisterState): number {
  return (reg.starred_messages ?? []).length;
}

// --- Topics -----------------------------------------------------------------------------------

export interface TopicRow { name: string; maxId: number; unread: number; muted: boolean }

/**
 * A channel's topics, newest first: the fetched list (loadTopics) with the topics seen in
 * messages and unread counts since, so a topic shows at once even before the list arrives.
 */
const topicCache = new WeakMap<object, Map<string, { deps: unknown[]; value: TopicRow[] }>>();

export function topicsOf(s: AppState, streamId: number): TopicRow[] {
  const reg = s.reg;
  if (!reg) return [];
  return memo(topicCache, reg.unread_msgs, String(streamId), [s.topics[streamId], reg.user_topics, reg.subscriptions], () => buildTopics(s, streamId));
}

function buildTopics(s: AppState, streamId: number): TopicRow[] {
  const reg = s.reg;
  const rows = new Map<string, TopicRow>();
  const note = (name: string, maxId: number) => {
    const key = name.toLowerCase();
    const row = rows.get(key);
    if (!row) rows.set(key, { name, maxId, unread: 0, muted: reg ? isTopicMuted(reg, streamId, name) : false });
    else if (maxId > row.maxId) row.maxId = maxId;
  };
  for (const t of s.topics[streamId]?.topics ?? []) note(t.name, t.max_id);
  for (const e of reg?.unread_msgs.streams ?? []) {
    if (e.stream_id !== streamId) continue;
    note(e.topic, Math.max(...e.unread_message_ids));
    rows.get(e.topic.toLowerCase())!.unread += e.unread_message_ids.length;
  }
  return [...rows.values()].sort((a, b) => b.maxId - a.maxId);
}

// --- Direct conversations ---------------------------------------------------------------------

export interface DmConversation { key: string; userIds: number[]; maxId: number; unread: number }

/** Direct conversations, newest first, from recent_private_conversations and the unread ones. */
const dmCache = new WeakMap<object, Map<string, { deps: unknown[]; value: DmConversation[] }>>();

export function dmConversations(reg: RegisterState): DmConversation[] {
  return memo(dmCache, reg.unread_msgs, '', [reg.recent_private_conversations], () => buildDms(reg));
}

function buildDms(reg: RegisterState): DmConversation[] {
  const byKey = new Map<string, DmConversation>();
  const note = (userIds: number[], maxId: number) => {
    const key = dmKey(userIds, reg.user_id);
    const row = byKey.get(key);
    if (!row) byKey.set(key, { key, userIds: key ? key.split(',').map(Number) : [], maxId, unread: 0 });
    else row.maxId = Math.max(row.maxId, maxId);
  };
  for (const c of reg.recent_private_conversations ?? []) note(c.user_ids, c.max_message_id);
  for (const e of reg.unread_msgs.pms) note([e.other_user_id], Math.max(...e.unread_message_ids));
  for (const e of reg.unread_msgs.huddles) note(e.user_ids_string.split(',').map(Number), Math.max(...e.unread_message_ids));
  for (const row of byKey.values()) row.unread = dmUnreadCount(reg, row.userIds.length ? row.userIds : [reg.user_id]);
  return [...byKey.values()].sort((a, b) => b.maxId - a.maxId);
}

// --- Presence ---------------------------------------------------------------------------------

/**
 * active / idle / offline by the family's rules: active if a client was active within the
 * server's offline threshold (140 s unless the snapshot says otherwise), else idle if one was
 * idle within it; oneself shows by one's own presence_enabled setting.
 */
export function presenceStatus(reg: RegisterState, userId: number, now = Date.now() / 1000): 'active' | 'idle' | 'offline' {
  if (userId === reg.user_id) return setting(reg, 'presence_enabled') === false ? 'offline' : 'active';
  const p = (reg.presences ?? {})[String(userId)] as { active_timestamp?: number; idle_timestamp?: number } | undefined;
  if (!p) return 'offline';
  const threshold = Number(reg.server_presence_offline_threshold_seconds) || 140;
  if (now - (p.active_timestamp ?? 0) < threshold) return 'active';
  if (now - (p.idle_timestamp ?? 0) < threshold) return 'idle';
  return 'offline';
}

// --- Typing -----------------------------------------------------------------------------------

/** The typing key of a narrow: a channel topic or a direct conversation; null for other views. */
export function typingKeyOf(terms: NarrowTerm[], selfId: number): string | null {
  const channel = terms.find((t) => t.operator === 'channel' && !t.negated);
  const topic = terms.find((t) => t.operator === 'topic' && !t.negated);
  if (channel && topic) return streamTypingKey(leadingId(channel.operand), topic.operand);
  const dm = terms.find((t) => t.operator === 'dm' && !t.negated);
  if (dm) return dmTypingKey(leadingIds(dm.operand), selfId);
  return null;
}

const typingCache = new WeakMap<object, Map<string, { deps: unknown[]; value: number[] }>>();
const NOBODY: number[] = [];

/**
 * Who is typing in this view's conversation, oldest first. The same array while the store's
 * typing list is the same (the event loop prunes expired entries every second).
 */
export function typingUserIdsFor(s: AppState, terms: NarrowTerm[]): number[] {
  const key = s.reg && typingKeyOf(terms, s.reg.user_id);
  if (!key) return NOBODY;
  return memo(typingCache, s.typing, key, [], () => typingUserIds(s.typing, key, Date.now()));
}

// --- Settings ---------------------------------------------------------------------------------

/** One of the person's settings, or the realm's default for it where the snapshot has none. */
export function setting<T = unknown>(reg: RegisterState, name: string): T | undefined {
  const own = (reg.user_settings ?? {})[name];
  if (own !== undefined) return own as T;
  const legacy = reg[name];
  if (legacy !== undefined) return legacy as T;
  return ((reg.realm_user_settings_defaults ?? {}) as Record<string, unknown>)[name] as T | undefined;
}

/** web_mark_read_on_scroll_policy: 1 always, 2 only in conversation views, 3 never. */
export const MARK_READ_POLICY = { ALWAYS: 1, CONVERSATIONS: 2, NEVER: 3 } as const;

/** A view of one conversation: a channel's topic, or a direct conversation. */
export function isConversationView(terms: NarrowTerm[]): boolean {
  const ops = terms.filter((t) => !t.negated && t.operator !== 'near' && t.operator !== 'with').map((t) => t.operator);
  return (ops.length === 2 && ops.includes('channel') && ops.includes('topic')) || (ops.length === 1 && ops[0] === 'dm');
}

/** Whether messages seen on screen in this view should be marked as read, by the person's setting. */
export function shouldMarkReadOnScroll(reg: RegisterState, view: View | NarrowTerm[]): boolean {
  const terms = Array.isArray(view) ? view : view.kind === 'narrow' ? view.terms : [];
  const policy = Number(setting(reg, 'web_mark_read_on_scroll_policy') ?? MARK_READ_POLICY.ALWAYS);
  if (policy === MARK_READ_POLICY.NEVER) return false;
  if (policy === MARK_READ_POLICY.CONVERSATIONS) return isConversationView(terms);
  return true;
}

/** The view `#` leads to, by the person's web_home_view setting (inbox, recent_topics, all_messages). */
export function homeView(reg: RegisterState): View {
  const home = setting<string>(reg, 'web_home_view');
  if (home === 'recent_topics') return { kind: 'recent' };
  if (home === 'all_messages') return { kind: 'feed' };
  return { kind: 'inbox' };
}

// --- The outbox -------------------------------------------------------------------------------

/** The message an outbox item will become, for matching it against a view's terms. */
function pendingMessage(o: OutboxItem, selfId: number): Message {
  const p = o.params;
  const people = p.type === 'direct' ? [...new Set([...p.to, selfId])].map((id) => ({ id, email: '', full_name: '', is_mirror_dummy: false })) : [];
  return {
    id: Number.MAX_SAFE_INTEGER, type: p.type === 'stream' ? 'stream' : 'private', stream_id: p.type === 'stream' ? p.to : undefined, subject: p.type === 'stream' ? p.topic : '',
    display_recipient: p.type === 'stream' ? '' : people, flags: ['read'], sender_id: selfId, sender_full_name: '', sender_email: '', sender_realm_str: '', avatar_url: null,
    client: '', content: '', content_type: 'text/html', is_me_message: false, reactions: [], recipient_id: 0, topic_links: [], submessages: [], timestamp: o.timestamp,
  };
}

/** The messages being sent that belong in this view (a view that cannot tell shows none). */
const pendingCache = new WeakMap<object, Map<string, { deps: unknown[]; value: OutboxItem[] }>>();

export function pendingFor(s: AppState, terms: NarrowTerm[]): OutboxItem[] {
  return memo(pendingCache, s.outbox, JSON.stringify(terms), [s.messages, s.reg?.user_id], () => buildPending(s, terms));
}

const NOTHING_PENDING: OutboxItem[] = [];

function buildPending(s: AppState, terms: NarrowTerm[]): OutboxItem[] {
  if (!s.outbox.length) return NOTHING_PENDING;
  const selfId = s.reg?.user_id ?? 0;
  const relevant = terms.filter((t) => t.operator !== 'near' && t.operator !== 'with');
  const found = s.outbox.filter((o) => o.messageId === undefined || !s.messages.has(o.messageId)).filter((o) => matchesNarrow(pendingMessage(o, selfId), relevant, selfId) === true);
  // Nothing pending stays the same empty list, so the view does not rebuild its rows for it.
  return found.length ? found : NOTHING_PENDING;
}

// --- People -----------------------------------------------------------------------------------

export function userName(s: AppState, userId: number): string {
  return s.users.get(userId)?.full_name ?? '';
}
