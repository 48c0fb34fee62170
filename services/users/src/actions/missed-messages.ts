import { flagBit } from '@chat/contracts';
import { directNarrowUrl, MENTION_TRIGGERS, topicNarrowUrl, type Trigger } from '@chat/notify';
import { createMissedMessageAddress, emailGatewayDomain } from '@chat/realm';
import type { Services } from '../context';
import { noreplyAddress } from '../lib/invitation-email';
import { missedMessageEmail, type MailedMessage, type MissedConversation } from '../lib/missed-message-email';
import { notificationEnvelope } from '../lib/notification-envelope';
import { batchingPeriod, type MissedBatches, type MissedBatchJob } from '../workers/missed/batch';

const READ = flagBit('read');
/** Context before a mention: earlier messages of the topic, as the family's mails include them. */
const CONTEXT_MESSAGES = 10;
const CONTEXT_WINDOW_MS = 15 * 60 * 1000;

interface MessageRow {
  id: number;
  sender_id: number;
  sender_name: string;
  stream_id: number | null;
  conversation_id: number | null;
  topic: string;
  content: string;
  rendered_content: string;
  date_sent: Date;
}

const MESSAGE_COLUMNS = `m.id, m.sender_id, s.full_name AS sender_name, m.stream_id, m.conversation_id, m.topic,
  m.content, m.rendered_content, m.date_sent`;

/**
 * Mails one person's batch of missed messages (the batch's delayed job, workers/missed): those
 * still unread now, one mail per conversation, least recently active conversation first. A
 * message read, or deleted, since it arrived is dropped; nothing left, no mail. Each mail is its
 * own send job, named after the batch and the conversation, so a retry of this job queues none twice.
 */
export async function doSendMissedMessages(services: Services, batches: MissedBatches, job: MissedBatchJob): Promise<void> {
  const { db } = services;
  const pending = await batches.pending(job.realmId, job.userId);
  const user = await db.user.findUnique({ where: { id: job.userId } });
  const period = batchingPeriod((user?.settings ?? {}) as Record<string, unknown>);
  if (!user || !user.isActive || user.isBot || !pending.size) return batches.finish(job, [...pending.keys()], period);

  const rows = await db.$queryRawUnsafe<MessageRow[]>(
    `SELECT ${MESSAGE_COLUMNS} FROM messages m
     JOIN user_messages um ON um.message_id = m.id AND um.user_id = $1
     JOIN users s ON s.id = m.sender_id
     WHERE m.id = ANY($2::int[]) AND m.realm_id = $3 AND um.flags & $4::bigint = 0
     ORDER BY m.id`,
    user.id,
    [...pending.keys()],
    job.realmId,
    READ.toString(),
  );
  if (rows.length) {
    const realm = await db.realm.findUniqueOrThrow({ where: { id: job.realmId } });
    const envelope = notificationEnvelope(services, realm, user, 'missed_messages');
    const realmUrl = envelope.realm.url;
    const groups = groupByConversation(rows);
    // Least recently active conversation first, as the family sends them.
    const ordered = [...groups.entries()].sort((a, b) => a[1][a[1].length - 1]!.id - b[1][b[1].length - 1]!.id);
    for (const [key, missed] of ordered) {
      const conversation = await describeConversation(services, user.id, realmUrl, missed, pending);
      const replyTo = await replyAddress(services, job, missed[0]!, realmUrl);
      const mail = missedMessageEmail(conversation, {
        ...envelope,
        replyTo,
        realmInSubject: await realmInSubject(services, user, (user.settings ?? {}) as Record<string, unknown>),
      });
      await services.mail.send(mail, { jobId: `${job.batchId}-${key}` });
    }
  }
  await batches.finish(job, [...pending.keys()], period);
}

/** Channel messages by channel and topic (any case), direct messages by conversation. */
function groupByConversation(rows: MessageRow[]): Map<string, MessageRow[]> {
  const groups = new Map<string, MessageRow[]>();
  for (const row of rows) {
    const key = row.stream_id !== null ? `c${row.stream_id}-${Buffer.from(row.topic.toLowerCase()).toString('hex').slice(0, 64)}` : `d${row.conversation_id}`;
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

async function describeConversation(
  services: Services,
  userId: number,
  realmUrl: string,
  missed: MessageRow[],
  triggers: Map<number, Trigger>,
): Promise<MissedConversation> {
  const first = missed[0]!;
  const own = new Set(missed.map((m) => m.id));
  const conversationTriggers = new Set(missed.map((m) => triggers.get(m.id)).filter((t): t is Trigger => t !== undefined));
  const mentionedBy = missed.filter((m) => MENTION_TRIGGERS.has(triggers.get(m.id)!)).map((m) => m.sender_name);
  const senders = [...new Set(mentionedBy.length ? mentionedBy : missed.map((m) => m.sender_name))];
  const mentioned = [...conversationTriggers].some((t) => MENTION_TRIGGERS.has(t));
  const context = first.stream_id !== null && mentioned ? await contextBefore(services, userId, first) : [];
  const messages: MailedMessage[] = [...context.filter((m) => !own.has(m.id)), ...missed].map((m) => ({
    id: m.id,
    senderName: m.sender_name,
    content: m.content,
    html: m.rendered_content,
  }));
  const base = { messages, missedCount: missed.length, triggers: conversationTriggers, senders };
  if (first.stream_id !== null) {
    const channel = await services.db.stream.findUniqueOrThrow({ where: { id: first.stream_id }, select: { id: true, name: true } });
    return { ...base, where: { kind: 'channel', channel, topic: first.topic }, narrowUrl: topicNarrowUrl(realmUrl, channel, first.topic) };
  }
  const conversation = await services.db.directConversation.findUniqueOrThrow({ where: { id: first.conversation_id! } });
  const othersIds = conversation.memberIds.filter((id) => id !== userId);
  const others = await services.db.user.findMany({ where: { id: { in: othersIds } }, select: { id: true, fullName: true }, orderBy: { id: 'asc' } });
  return { ...base, where: { kind: 'direct', others }, narrowUrl: directNarrowUrl(realmUrl, others) };
}

/**
 * The messages of the topic just before a mention, within a quarter of an hour of it, that
 * the person received: what the mention answers.
 */
async function contextBefore(services: Services, userId: number, first: MessageRow): Promise<MessageRow[]> {
  const rows = await services.db.$queryRawUnsafe<MessageRow[]>(
    `SELECT ${MESSAGE_COLUMNS} FROM messages m
     JOIN user_messages um ON um.message_id = m.id AND um.user_id = $1
     JOIN users s ON s.id = m.sender_id
     WHERE m.stream_id = $2 AND lower(m.topic) = lower($3) AND m.id < $4 AND m.date_sent > $5
     ORDER BY m.id DESC LIMIT ${CONTEXT_MESSAGES}`,
    userId,
    first.stream_id,
    first.topic,
    first.id,
    new Date(first.date_sent.getTime() - CONTEXT_WINDOW_MS),
  );
  return rows.reverse();
}

/**
 * Where an answer to the mail goes: a single-use reply address that posts it in the
 * conversation as this person (packages/realm email-gateway), or the no-reply address when
 * replies are turned off.
 */
async function replyAddress(services: Services, job: MissedBatchJob, first: MessageRow, realmUrl: string): Promise<string> {
  if (!services.config.MISSED_MESSAGE_REPLIES) return noreplyAddress(services.config, realmUrl);
  const conversation =
    first.stream_id !== null
      ? { type: 'channel' as const, channelId: first.stream_id, topic: first.topic }
      : {
          type: 'direct' as const,
          userIds: (await services.db.directConversation.findUniqueOrThrow({ where: { id: first.conversation_id! } })).memberIds,
        };
  return createMissedMessageAddress(services.db, { realmId: job.realmId, userId: job.userId, conversation, messageId: first.id }, emailGatewayDomain(services.config));
}

/**
 * realm_name_in_email_notifications_policy: 1 automatic (when the address has accounts in
 * several organizations here), 2 always, 3 never.
 */
async function realmInSubject(services: Services, user: { deliveryEmail: string }, settings: Record<string, unknown>): Promise<boolean> {
  const policy = settings.realm_name_in_email_notifications_policy;
  if (policy === 2) return true;
  if (policy === 3) return false;
  const accounts = await services.db.user.count({ where: { deliveryEmail: { equals: user.deliveryEmail, mode: 'insensitive' }, isActive: true, isBot: false } });
  return accounts > 1;
}
