/**
 * The message object clients receive, built for a batch of messages with a fixed number of
 * queries whatever the batch size (senders, channels, conversations, reactions, realm).
 */
import type { Message, Tx, User } from '@chat/db';
import { avatarUrlField, EMAIL_VISIBILITY, emailVisibilityOf } from '@chat/wire';
import { EMPTY_TOPIC_DISPLAY_NAME, type MessageObject, type MessageReaction } from '@chat/contracts';
import { compileLinkifier, expandTemplate } from '../markdown/dialect';
import { loadSubmessages } from '../actions/submessages';

export interface WireOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
  realmUrl: string;
  /** Whether the viewer may see edit history (realm setting). */
  allowEditHistory: boolean;
}

/** The message object, as its event carries it (@chat/contracts). */
export type WireMessage = MessageObject;

export type WireUser = Pick<User, 'id' | 'email' | 'deliveryEmail' | 'fullName' | 'avatarSource' | 'avatarVersion' | 'settings' | 'isBot'>;
const WIRE_USER_SELECT = { id: true, email: true, deliveryEmail: true, fullName: true, avatarSource: true, avatarVersion: true, settings: true, isBot: true } as const;

/**
 * recipient_id identifies the conversation: channels and direct conversations live in different
 * tables, so their ids are interleaved (even for channels, odd for direct conversations) to
 * stay unique and stable.
 */
export function recipientIdOf(m: Pick<Message, 'streamId' | 'conversationId'>): number {
  return m.streamId !== null ? m.streamId * 2 : (m.conversationId ?? 0) * 2 + 1;
}

/**
 * avatar_url of a message's sender: null when the client computes gravatars itself and anyone
 * may see the address it would hash, as in the sender's User object (@chat/wire).
 */
export function avatarUrlOf(u: WireUser, opts: { clientGravatar: boolean; realmUrl: string }): string | null {
  return avatarUrlField(u, { ...opts, emailPublic: emailVisibilityOf(u) === EMAIL_VISIBILITY.EVERYONE });
}

export function displayTopic(topic: string, allowEmpty: boolean): string {
  return topic === '' && !allowEmpty ? EMPTY_TOPIC_DISPLAY_NAME : topic;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/**
 * What a message object is made of besides the facts shared by a batch: the row's columns that
 * appear in it, its content already chosen (source or HTML) and its times in seconds. A fetch
 * reads exactly these columns (actions/fetch-page.ts); other callers convert a Message row.
 */
export interface WireSource {
  id: number;
  realmId: number;
  senderId: number;
  streamId: number | null;
  conversationId: number | null;
  topic: string;
  /** content or rendered_content, as WireOptions.applyMarkdown asks. */
  body: string;
  sendingClient: string;
  isMeMessage: boolean;
  editHistory: unknown;
  /** Seconds since the epoch, rounded down. */
  timestamp: number;
  lastEditTimestamp: number | null;
  lastMovedTimestamp: number | null;
}

export function wireSourceOf(m: Message, applyMarkdown: boolean): WireSource {
  return {
    id: m.id,
    realmId: m.realmId,
    senderId: m.senderId,
    streamId: m.streamId,
    conversationId: m.conversationId,
    topic: m.topic,
    body: applyMarkdown ? m.renderedContent : m.content,
    sendingClient: m.sendingClient,
    isMeMessage: m.isMeMessage,
    editHistory: m.editHistory,
    timestamp: seconds(m.dateSent),
    lastEditTimestamp: m.lastEditTime ? seconds(m.lastEditTime) : null,
    lastMovedTimestamp: m.lastMovedTime ? seconds(m.lastMovedTime) : null,
  };
}

/** A reaction as read, before it is joined with its user. */
export interface ReactionRow {
  messageId: number;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
  userId: number;
}

/** Reactions by message, in the order given (the reactions' id order), each with its user. */
export function reactionsByMessageOf(reactions: ReactionRow[], userById: Map<number, WireUser>): Map<number, MessageReaction[]> {
  const out = new Map<number, MessageReaction[]>();
  for (const r of reactions) {
    const u = userById.get(r.userId);
    const list = out.get(r.messageId) ?? [];
    list.push({
      emoji_name: r.emojiName,
      emoji_code: r.emojiCode,
      reaction_type: r.reactionType,
      user_id: r.userId,
      user: { id: r.userId, email: u?.email ?? '', full_name: u?.fullName ?? '', is_mirror_dummy: false },
    });
    out.set(r.messageId, list);
  }
  return out;
}

export async function buildWireMessages(db: Tx, messages: Message[], opts: WireOptions): Promise<WireMessage[]> {
  if (!messages.length) return [];
  const realmIds = [...new Set(messages.map((m) => m.realmId))];
  const streamIds = [...new Set(messages.map((m) => m.streamId).filter((x): x is number => x !== null))];
  const convIds = [...new Set(messages.map((m) => m.conversationId).filter((x): x is number => x !== null))];
  const messageIds = messages.map((m) => m.id);
  const senderIds = [...new Set(messages.map((m) => m.senderId))];
  // Everything but the people the conversations and reactions name is read in one round trip of
  // parallel queries; those people, when any are not senders, in a second.
  const [realms, streams, convs, reactions, linkifiers, submessagesByMessage, senders] = await Promise.all([
    db.realm.findMany({ where: { id: { in: realmIds } }, select: { id: true, stringId: true } }),
    db.stream.findMany({ where: { id: { in: streamIds } }, select: { id: true, name: true } }),
    db.directConversation.findMany({ where: { id: { in: convIds } }, select: { id: true, memberIds: true } }),
    db.reaction.findMany({ where: { messageId: { in: messageIds } }, orderBy: { id: 'asc' } }),
    db.linkifier.findMany({ where: { realmId: { in: realmIds } }, orderBy: [{ order: 'asc' }, { id: 'asc' }] }),
    loadSubmessages(db, messageIds),
    db.user.findMany({ where: { id: { in: senderIds } }, select: WIRE_USER_SELECT }),
  ]);
  const read = new Set(senderIds);
  const others = new Set<number>();
  for (const c of convs) c.memberIds.forEach((id) => read.has(id) || others.add(id));
  for (const r of reactions) if (!read.has(r.userId)) others.add(r.userId);
  const users = others.size ? [...senders, ...(await db.user.findMany({ where: { id: { in: [...others] } }, select: WIRE_USER_SELECT }))] : senders;
  const userById = new Map<number, WireUser>(users.map((u) => [u.id, u]));
  const facts: WireFacts = {
    userById,
    realmStr: new Map(realms.map((r) => [r.id, r.stringId])),
    streamName: new Map(streams.map((s) => [s.id, s.name])),
    convMembers: new Map(convs.map((c) => [c.id, c.memberIds])),
    reactionsByMessage: reactionsByMessageOf(reactions, userById),
    submessagesByMessage,
    topicLinkers: linkifiers.map((l) => ({ re: compileLinkifier(l.pattern), urlTemplate: l.urlTemplate })),
  };
  const build = wireBuilder(facts, opts);
  return messages.map((m) => build(wireSourceOf(m, opts.applyMarkdown)));
}

/** What building a batch's message objects needs besides the messages' own columns. */
export interface WireFacts {
  userById: Map<number, WireUser>;
  realmStr: Map<number, string>;
  streamName: Map<number, string>;
  convMembers: Map<number, number[]>;
  reactionsByMessage: Map<number, MessageReaction[]>;
  submessagesByMessage: Map<number, unknown[]>;
  topicLinkers: Array<{ re: RegExp | null; urlTemplate: string }>;
}

/**
 * The object of a channel message being sent, from what the send already holds: a new message
 * has no reactions or submessages yet, so nothing needs to be read.
 */
export function wireOfNewChannelMessage(
  m: Message,
  held: { realmStringId: string; streamName: string; sender: WireUser; linkifiers: Array<{ pattern: string; urlTemplate: string }> },
  opts: WireOptions,
): WireMessage {
  return wireBuilder({
    userById: new Map([[held.sender.id, held.sender]]),
    realmStr: new Map([[m.realmId, held.realmStringId]]),
    streamName: new Map([[m.streamId!, held.streamName]]),
    convMembers: new Map(),
    reactionsByMessage: new Map(),
    submessagesByMessage: new Map(),
    topicLinkers: held.linkifiers.map((l) => ({ re: compileLinkifier(l.pattern), urlTemplate: l.urlTemplate })),
  }, opts)(wireSourceOf(m, opts.applyMarkdown));
}

/**
 * A new direct message's object from what the send read: the sender's row, and each other
 * member's address and name (display_recipient shows only those). `m.conversationId` is a
 * placeholder until the write; recipient_id, which follows from it, is set there.
 */
export function wireOfNewDirectMessage(
  m: Message,
  held: { realmStringId: string; sender: WireUser; members: Array<{ id: number; email: string; fullName: string }> },
  opts: WireOptions,
): WireMessage {
  const userById = new Map<number, WireUser>(held.members.map((u) => [u.id, u as WireUser]));
  userById.set(held.sender.id, held.sender);
  return wireBuilder({
    userById,
    realmStr: new Map([[m.realmId, held.realmStringId]]),
    streamName: new Map(),
    convMembers: new Map([[m.conversationId!, [...userById.keys()]]]),
    reactionsByMessage: new Map(),
    submessagesByMessage: new Map(),
    topicLinkers: [],
  }, opts)(wireSourceOf(m, opts.applyMarkdown));
}

/**
 * Builds message objects from one batch's facts. What is the same for many messages of a batch
 * (a sender's name, address and avatar URL, a topic's links) is worked out once per batch.
 */
export function wireBuilder(k: WireFacts, opts: WireOptions): (m: WireSource) => WireMessage {
  const senders = new Map<number, { fullName: string; email: string; avatarUrl: string | null }>();
  const linksOfTopic = new Map<string, Array<{ text: string; url: string }>>();
  const miniUser = (id: number) => {
    const u = k.userById.get(id);
    return { id, email: u?.email ?? '', full_name: u?.fullName ?? '', is_mirror_dummy: false };
  };
  return (m) => {
    let sender = senders.get(m.senderId);
    if (!sender) {
      const u = k.userById.get(m.senderId)!;
      sender = { fullName: u.fullName, email: u.email, avatarUrl: avatarUrlOf(u, opts) };
      senders.set(m.senderId, sender);
    }
    const isStream = m.streamId !== null;
    let links: Array<{ text: string; url: string }> = [];
    if (isStream) {
      let found = linksOfTopic.get(m.topic);
      if (!found) linksOfTopic.set(m.topic, (found = topicLinks(m.topic, k.topicLinkers)));
      // Each object gets its own list, as if built alone.
      if (found.length) links = found.map((l) => ({ ...l }));
    }
    const wire: WireMessage = {
      id: m.id,
      sender_id: m.senderId,
      sender_full_name: sender.fullName,
      sender_email: sender.email,
      sender_realm_str: k.realmStr.get(m.realmId) ?? '',
      avatar_url: sender.avatarUrl,
      client: m.sendingClient,
      content: m.body,
      content_type: opts.applyMarkdown ? 'text/html' : 'text/x-markdown',
      display_recipient: isStream
        ? (k.streamName.get(m.streamId!) ?? '')
        : [...(k.convMembers.get(m.conversationId!) ?? [])].sort((a, b) => a - b).map(miniUser),
      is_me_message: m.isMeMessage,
      reactions: k.reactionsByMessage.get(m.id) ?? [],
      recipient_id: recipientIdOf(m),
      subject: isStream ? displayTopic(m.topic, opts.allowEmptyTopicName) : '',
      topic_links: links,
      submessages: k.submessagesByMessage.get(m.id) ?? [],
      timestamp: m.timestamp,
      type: isStream ? 'stream' : 'private',
    };
    if (m.streamId !== null) wire.stream_id = m.streamId;
    if (m.lastEditTimestamp !== null) wire.last_edit_timestamp = m.lastEditTimestamp;
    if (m.lastMovedTimestamp !== null) wire.last_moved_timestamp = m.lastMovedTimestamp;
    if (opts.allowEditHistory && Array.isArray(m.editHistory) && m.editHistory.length) {
      wire.edit_history = (m.editHistory as Record<string, unknown>[]).map((entry) => {
        const e = { ...entry };
        if (typeof e.prev_topic === 'string') e.prev_topic = displayTopic(e.prev_topic, opts.allowEmptyTopicName);
        if (typeof e.topic === 'string') e.topic = displayTopic(e.topic, opts.allowEmptyTopicName);
        return e;
      });
    }
    return wire;
  };
}

/** Links the realm's linkifiers find in a topic, in the order they appear. */
export function topicLinks(topic: string, linkers: Array<{ re: RegExp | null; urlTemplate: string }>): Array<{ text: string; url: string }> {
  const found: Array<{ at: number; text: string; url: string }> = [];
  for (const { re, urlTemplate } of linkers) {
    if (!re) continue;
    for (const m of topic.matchAll(re)) found.push({ at: m.index!, text: m[0], url: expandTemplate(urlTemplate, { ...(m.groups ?? {}) }) });
  }
  // Bare URLs in topics are links too.
  for (const m of topic.matchAll(/https?:\/\/[^\s<>"]+/g)) found.push({ at: m.index!, text: m[0], url: m[0] });
  return found.sort((a, b) => a.at - b.at).map(({ text, url }) => ({ text, url }));
}
