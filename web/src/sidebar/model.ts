/**
 * What the sidebars, the inbox and the shortcuts compute from the snapshot: unread counts that
 * leave muted conversations out (as the family counts them), channel sections (pinned, folders,
 * the rest; muted ones last), direct-message conversations, and the next unread conversation
 * for `n` and `p`. Pure, over the snapshot's own shapes.
 */
import type { RegisterState, Subscription, UserTopic } from '@chat/client';

export const POLICY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

type Reg = Pick<RegisterState, 'unread_msgs' | 'subscriptions' | 'user_topics' | 'recent_private_conversations' | 'user_id'> & Partial<RegisterState>;

export function topicPolicy(userTopics: UserTopic[] | undefined, streamId: number, topic: string): number {
  const lower = topic.toLowerCase();
  return userTopics?.find((t) => t.stream_id === streamId && t.topic_name.toLowerCase() === lower)?.visibility_policy ?? POLICY.inherit;
}

/** Whether a topic's messages are hidden from counts: a muted topic, or any topic of a muted channel not unmuted or followed. */
export function isConversationMuted(channelMuted: boolean, policy: number): boolean {
  if (policy === POLICY.muted) return true;
  return channelMuted && policy !== POLICY.unmuted && policy !== POLICY.followed;
}

export interface TopicUnread {
  topic: string;
  count: number;
  ids: number[];
  muted: boolean;
  followed: boolean;
  mentions: number;
}

export interface ChannelUnread {
  /** Unread outside muted topics (what the sidebar shows). */
  count: number;
  /** Unread in muted topics (or a muted channel), shown dimmed only where nothing else is. */
  mutedCount: number;
  mentions: number;
  topics: TopicUnread[];
}

export function unreadByChannel(reg: Reg): Map<number, ChannelUnread> {
  const mentions = new Set(reg.unread_msgs.mentions);
  const muted = new Map(reg.subscriptions.map((s) => [s.stream_id, s.is_muted]));
  const out = new Map<number, ChannelUnread>();
  for (const e of reg.unread_msgs.streams) {
    let ch = out.get(e.stream_id);
    if (!ch) out.set(e.stream_id, (ch = { count: 0, mutedCount: 0, mentions: 0, topics: [] }));
    const policy = topicPolicy(reg.user_topics, e.stream_id, e.topic);
    const isMuted = isConversationMuted(muted.get(e.stream_id) ?? false, policy);
    const m = e.unread_message_ids.filter((id) => mentions.has(id)).length;
    // The snapshot may list one topic twice in different cases; they are one topic.
    const existing = ch.topics.find((t) => t.topic.toLowerCase() === e.topic.toLowerCase());
    if (existing) {
      existing.count += e.unread_message_ids.length;
      existing.ids = [...existing.ids, ...e.unread_message_ids];
      existing.mentions += m;
    } else ch.topics.push({ topic: e.topic, count: e.unread_message_ids.length, ids: [...e.unread_message_ids], muted: isMuted, followed: policy === POLICY.followed, mentions: m });
    if (isMuted) ch.mutedCount += e.unread_message_ids.length;
    else ch.count += e.unread_message_ids.length;
    ch.mentions += m;
  }
  return out;
}

export interface DmConversation {
  /** The other people (empty: with yourself). */
  userIds: number[];
  key: string;
  maxId: number;
  unread: number;
  unreadIds: number[];
}

/** Direct-message conversations, newest first: the recent ones, and any with unread messages. */
export function dmConversations(reg: Reg, mutedUsers: ReadonlySet<number> = new Set()): DmConversation[] {
  const self = reg.user_id;
  const byKey = new Map<string, DmConversation>();
  const keyOf = (others: number[]) => [...others].sort((a, b) => a - b).join(',');
  const get = (others: number[]) => {
    const key = keyOf(others);
    let c = byKey.get(key);
    if (!c) byKey.set(key, (c = { userIds: [...others].sort((a, b) => a - b), key, maxId: 0, unread: 0, unreadIds: [] }));
    return c;
  };
  for (const r of reg.recent_private_conversations ?? []) get(r.user_ids.filter((id) => id !== self)).maxId = r.max_message_id;
  for (const e of reg.unread_msgs.pms) {
    const other = e.other_user_id ?? e.sender_id;
    const c = get(other === undefined || other === self ? [] : [other]);
    c.unread += e.unread_message_ids.length;
    c.unreadIds.push(...e.unread_message_ids);
    c.maxId = Math.max(c.maxId, ...e.unread_message_ids);
  }
  for (const e of reg.unread_msgs.huddles) {
    const c = get(e.user_ids_string.split(',').map(Number).filter((id) => id !== self));
    c.unread += e.unread_message_ids.length;
    c.unreadIds.push(...e.unread_message_ids);
    c.maxId = Math.max(c.maxId, ...e.unread_message_ids);
  }
  return [...byKey.values()].filter((c) => !(c.userIds.length === 1 && mutedUsers.has(c.userIds[0]!))).sort((a, b) => b.maxId - a.maxId);
}

export interface ViewCounts {
  /** Unread outside muted conversations (the inbox and combined feed). */
  unread: number;
  mentions: number;
  starred: number;
  drafts: number;
  scheduled: number;
  dms: number;
}

export function viewCounts(reg: Reg): ViewCounts {
  let unread = 0;
  for (const ch of unreadByChannel(reg).values()) unread += ch.count;
  let dms = 0;
  for (const e of [...reg.unread_msgs.pms, ...reg.unread_msgs.huddles]) dms += e.unread_message_ids.length;
  return {
    unread: unread + dms,
    mentions: reg.unread_msgs.mentions.length,
    starred: reg.starred_messages?.length ?? 0,
    drafts: reg.drafts?.length ?? 0,
    scheduled: (reg.scheduled_messages ?? []).filter((m) => !m.failed).length,
    dms,
  };
}

export interface ChannelFolder {
  id: number;
  name: string;
  order?: number;
  is_archived?: boolean;
}

export interface ChannelSection {
  key: string;
  /** Absent for the one section when there are no pinned channels and no folders. */
  title: 'pinned' | 'folder' | 'channels' | 'other';
  folderName?: string;
  channels: Subscription[];
}

const byName = (a: Subscription, b: Subscription) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
/** Unmuted channels first, each group by name. */
const mutedLast = (a: Subscription, b: Subscription) => Number(a.is_muted) - Number(b.is_muted) || byName(a, b);

export function channelSections(subs: Subscription[], folders: ChannelFolder[] | undefined, filter = ''): ChannelSection[] {
  const q = filter.trim().toLowerCase();
  const shown = subs.filter((s) => !s.is_archived && (!q || s.name.toLowerCase().includes(q)));
  const pinned = shown.filter((s) => s.pin_to_top).sort(mutedLast);
  const rest = shown.filter((s) => !s.pin_to_top);
  const sections: ChannelSection[] = [];
  if (pinned.length) sections.push({ key: 'pinned', title: 'pinned', channels: pinned });
  const liveFolders = (folders ?? []).filter((f) => !f.is_archived).sort((a, b) => (a.order ?? a.id) - (b.order ?? b.id));
  const inFolder = new Set<number>();
  for (const f of liveFolders) {
    const channels = rest.filter((s) => s.folder_id === f.id).sort(mutedLast);
    channels.forEach((s) => inFolder.add(s.stream_id));
    if (channels.length) sections.push({ key: `folder-${f.id}`, title: 'folder', folderName: f.name, channels });
  }
  const others = rest.filter((s) => !inFolder.has(s.stream_id)).sort(mutedLast);
  if (others.length) sections.push({ key: 'channels', title: inFolder.size ? 'other' : 'channels', channels: others });
  return sections;
}

export interface UnreadTarget {
  streamId: number;
  topic: string;
}

/**
 * The next unread topic after the current one (`n`), in sidebar order: the rest of the current
 * channel's topics, then the following channels, wrapping round; muted conversations skipped.
 */
export function nextUnreadTopic(reg: Reg, channelOrder: number[], current?: { streamId?: number; topic?: string }): UnreadTarget | undefined {
  const unread = unreadByChannel(reg);
  const candidates: UnreadTarget[] = [];
  for (const id of channelOrder) for (const t of (unread.get(id)?.topics ?? []).filter((t) => !t.muted).sort((a, b) => Math.min(...a.ids) - Math.min(...b.ids))) candidates.push({ streamId: id, topic: t.topic });
  if (!candidates.length) return undefined;
  if (current?.streamId === undefined) return candidates[0];
  const same = (c: UnreadTarget) => c.streamId === current.streamId && current.topic !== undefined && c.topic.toLowerCase() === current.topic.toLowerCase();
  const at = candidates.findIndex(same);
  if (at >= 0) return candidates.length > 1 ? candidates[(at + 1) % candidates.length] : undefined;
  const channelAt = channelOrder.indexOf(current.streamId);
  if (current.topic === undefined) {
    const inChannel = candidates.find((c) => c.streamId === current.streamId);
    if (inChannel) return inChannel;
  }
  return candidates.find((c) => channelOrder.indexOf(c.streamId) > channelAt) ?? candidates[0];
}

/** The next direct-message conversation with unread messages (`p`), oldest unread first. */
export function nextUnreadDm(reg: Reg, currentKey?: string): DmConversation | undefined {
  const withUnread = dmConversations(reg).filter((c) => c.unread > 0).sort((a, b) => Math.min(...a.unreadIds) - Math.min(...b.unreadIds));
  if (!withUnread.length) return undefined;
  const at = withUnread.findIndex((c) => c.key === currentKey);
  if (at < 0) return withUnread[0];
  return withUnread.length > 1 ? withUnread[(at + 1) % withUnread.length] : undefined;
}

