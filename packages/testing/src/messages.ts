/**
 * Messages as the messaging service writes them, for the tests of services that only read them
 * (push, users' missed-message mail): the rows (the direct conversation, the message, each
 * recipient's flags) and, in the same transaction, the `message` domain event with its routing.
 * These services' tests write them directly rather than through another service.
 */
import { recordEvent } from '@chat/bus';
import { flagBit, type MessageFlag } from '@chat/contracts';
import type { Db } from '@chat/db';
import type { SeededUser } from './index';

export interface SentMessage {
  id: number;
}

/** Subscription columns a test may set per subscriber. */
export interface SubscriptionOverrides {
  emailNotifications?: boolean;
  pushNotifications?: boolean;
  isMuted?: boolean;
}

export async function createChannel(db: Db, realmId: number, name: string, subscribers: SeededUser[], overrides: Record<number, SubscriptionOverrides> = {}) {
  const stream = await db.stream.create({ data: { realmId, name, nameKey: name.toLowerCase() } });
  await db.subscription.createMany({ data: subscribers.map((u) => ({ userId: u.id, streamId: stream.id, ...overrides[u.id] })) });
  return stream;
}

const bits = (flags: string[]) => flags.reduce((acc, f) => acc | flagBit(f as MessageFlag), 0n);

/** The sender's Gravatar, as the message event names it. */
export const testAvatarUrl = (user: SeededUser) => `https://secure.gravatar.com/avatar/${user.id}?d=identicon`;

export async function sendMessage(
  db: Db,
  realmId: number,
  opts: {
    sender: SeededUser;
    recipients: SeededUser[];
    content: string;
    channel?: { id: number; name: string; topic: string };
    /** Each recipient's flags; the sender's copy is always read. */
    flags?: Record<number, string[]>;
  },
): Promise<SentMessage> {
  return db.$transaction(async (tx) => {
    const everyone = [opts.sender, ...opts.recipients.filter((r) => r.id !== opts.sender.id)];
    let conversationId: number | null = null;
    if (!opts.channel) {
      const memberIds = everyone.map((u) => u.id).sort((a, b) => a - b);
      const memberKey = memberIds.join(',');
      const found = await tx.directConversation.findFirst({ where: { realmId, memberKey } });
      conversationId = (found ?? (await tx.directConversation.create({ data: { realmId, memberKey, memberIds } }))).id;
    }
    const rendered = `<p>${opts.content.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`;
    const message = await tx.message.create({
      data: {
        realmId,
        senderId: opts.sender.id,
        recipientType: opts.channel ? 'stream' : 'private',
        streamId: opts.channel?.id ?? null,
        conversationId,
        topic: opts.channel?.topic ?? '',
        content: opts.content,
        renderedContent: rendered,
      },
    });
    const flagsOf = (u: SeededUser) => (u.id === opts.sender.id ? ['read'] : (opts.flags?.[u.id] ?? []));
    await tx.userMessage.createMany({ data: everyone.map((u) => ({ userId: u.id, messageId: message.id, flags: bits(flagsOf(u)) })) });
    await recordEvent(tx, {
      realmId,
      type: 'message',
      users: everyone.map((u) => u.id),
      event: {
        type: 'message',
        message: {
          id: message.id,
          sender_id: opts.sender.id,
          sender_full_name: opts.sender.fullName,
          sender_email: opts.sender.email,
          avatar_url: testAvatarUrl(opts.sender),
          type: opts.channel ? 'stream' : 'private',
          display_recipient: opts.channel
            ? opts.channel.name
            : everyone.map((u) => ({ id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false })),
          stream_id: opts.channel?.id,
          subject: opts.channel?.topic ?? '',
          timestamp: Math.floor(message.dateSent.getTime() / 1000),
          content: rendered,
          content_type: 'text/html',
          sender_realm_str: '',
          client: 'test',
          is_me_message: false,
          reactions: [],
          recipient_id: 0,
          topic_links: [],
          submessages: [],
        },
      },
      routing: {
        stream_id: opts.channel?.id ?? null,
        public_stream: !!opts.channel,
        sender_id: opts.sender.id,
        user_flags: Object.fromEntries(everyone.map((u) => [String(u.id), flagsOf(u)])),
        raw_content: opts.content,
        topic: opts.channel?.topic ?? '',
      },
    });
    return { id: message.id };
  });
}

/** Marks messages read for a user and announces it, as the messaging service does. */
export async function markRead(db: Db, realmId: number, user: SeededUser, messageIds: number[]): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(
      'UPDATE user_messages SET flags = flags | $3::bigint WHERE user_id = $1 AND message_id = ANY($2::int[])',
      user.id,
      messageIds,
      flagBit('read').toString(),
    );
    await recordEvent(tx, {
      realmId,
      type: 'update_message_flags',
      users: [user.id],
      event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: messageIds, all: false },
    });
  });
}

export async function userFlags(db: Db, user: SeededUser, messageId: number): Promise<bigint> {
  const row = await db.userMessage.findUnique({ where: { userId_messageId: { userId: user.id, messageId } } });
  return row?.flags ?? 0n;
}
