import { flagBit, type MessageObject, type OutboxPayload } from '@chat/contracts';
import { pushTrigger, recipientFacts, type ActiveClients } from '@chat/notify';
import type { Services } from '../context';
import { enqueueNotification, enqueueRemoval, notifyJobId, type LegacyNoticeFields, type MessageNotice } from '../lib/jobs';
import { truncatedContent } from '../lib/content';

/** What a notification is made of: the message payload the messaging service writes (see docs/push.md). */
export type MessagePayload = Pick<OutboxPayload<'message'>, 'event' | 'users' | 'stream_id' | 'sender_id' | 'user_flags' | 'raw_content' | 'topic'>;

type WireMessage = MessageObject;

const ACTIVE_PUSH = flagBit('active_mobile_push_notification');

/**
 * `holders`: the users with a device or token (DeviceHolders); no one else can be notified, so
 * a message to none of them costs no query.
 */
export async function doNotifyNewMessage(services: Services, active: ActiveClients, realmId: number, payload: MessagePayload, holders: Set<number>) {
  const message = payload.event?.message;
  if (!message || payload.users === 'realm' || !Array.isArray(payload.users)) return;
  const senderId = payload.sender_id;
  const candidates = payload.users.filter((id) => id !== senderId && holders.has(id));
  if (!candidates.length) return;
  const streamId = message.type === 'private' ? null : payload.stream_id;
  const topic = payload.topic;

  const flagsOf = (id: number) => payload.user_flags?.[String(id)] ?? [];
  const recipients = await recipientFacts(services.db, realmId, { streamId, topic, flagsOf }, candidates);
  if (!recipients.length) return;
  const online = await active.activeUsers(realmId, recipients.map((r) => r.userId));

  const { notice, legacy } = buildNotice(message, payload, streamId, topic);
  for (const facts of recipients) {
    const trigger = pushTrigger(facts);
    if (!trigger) continue;
    const isOnline = online.has(facts.userId);
    // Someone at an active client sees the message there; push only if they asked for it.
    if (isOnline && facts.settings.enable_online_push_notifications === false) continue;
    const delay = isOnline ? services.config.PUSH_ACTIVE_USER_DELAY_MS : 0;
    await enqueueNotification(services, { realmId, userId: facts.userId, trigger, notice, legacy }, delay);
  }
}

function buildNotice(
  message: WireMessage,
  payload: MessagePayload,
  streamId: number | null,
  topic: string,
): { notice: MessageNotice; legacy: LegacyNoticeFields } {
  const { content, truncated } = truncatedContent(payload.raw_content ?? stripHtml(message.content ?? ''));
  const base = {
    message_id: message.id,
    sender_id: message.sender_id,
    sender_full_name: message.sender_full_name ?? '',
    sender_avatar_url: message.avatar_url ?? null,
    time: message.timestamp ?? Math.floor(Date.now() / 1000),
    content,
  };
  const legacy: LegacyNoticeFields = { sender_email: message.sender_email ?? '', content_truncated: truncated };
  if (streamId === null) {
    const participants = Array.isArray(message.display_recipient) ? message.display_recipient : null;
    const recipients = participants
      ? participants.map((r) => r.id)
      : [...(Array.isArray(payload.users) ? payload.users : []), message.sender_id];
    if (participants) legacy.recipient_full_names = participants.map((r) => r.full_name ?? '');
    return { notice: { ...base, recipient_type: 'direct', recipient_user_ids: [...new Set(recipients)].sort((a, b) => a - b) }, legacy };
  }
  const channelName = typeof message.display_recipient === 'string' ? message.display_recipient : '';
  return { notice: { ...base, recipient_type: 'channel', channel_id: streamId, channel_name: channelName, topic }, legacy };
}

function stripHtml(html: string): string {
  return html.replace(/<[^>]*>/g, ' ');
}

/** update_message_flags: a message read on any client withdraws its notification everywhere. */
export async function doRevokeReadNotifications(services: Services, realmId: number, payload: Pick<OutboxPayload<'update_message_flags'>, 'event' | 'users'>, holders: Set<number>) {
  const { event } = payload;
  if (event.flag !== 'read' || event.op !== 'add' || !Array.isArray(payload.users)) return;
  const messageIds = event.messages.filter(Number.isSafeInteger);
  for (const userId of payload.users) {
    if (holders.has(userId)) await withdraw(services, realmId, userId, messageIds);
  }
}

/** delete_message: deleted messages must not stay on lock screens. */
export async function doRevokeDeletedNotifications(services: Services, realmId: number, payload: Pick<OutboxPayload<'delete_message'>, 'event' | 'users'>, holders: Set<number>) {
  const messageIds = payload.event.message_ids.filter(Number.isSafeInteger);
  if (!Array.isArray(payload.users)) return;
  for (const userId of payload.users) if (holders.has(userId)) await withdraw(services, realmId, userId, messageIds);
}

/**
 * Cancels notifications still waiting (delayed for an active user, or retrying), and queues a
 * removal for those already shown (flagged active_mobile_push_notification when sent).
 */
async function withdraw(services: Services, realmId: number, userId: number, messageIds: number[]) {
  if (!messageIds.length) return;
  const sent = new Set<number>();
  for (const id of messageIds) {
    const job = await services.queue.getJob(notifyJobId(realmId, userId, id));
    const state = job ? await job.getState() : undefined;
    if (job && (state === 'delayed' || state === 'waiting' || state === 'prioritized')) {
      await job.remove().catch(() => undefined);
    } else if (state === 'active' || state === 'completed') {
      // Deleted messages have no user_messages row left to carry the flag.
      sent.add(id);
    }
  }
  const shown = await services.db.$queryRawUnsafe<Array<{ message_id: number }>>(
    `SELECT message_id FROM user_messages
     WHERE user_id = $1 AND message_id = ANY($2::int[]) AND flags & $3::bigint <> 0`,
    userId,
    messageIds,
    ACTIVE_PUSH.toString(),
  );
  for (const r of shown) sent.add(r.message_id);
  if (sent.size) await enqueueRemoval(services, { realmId, userId, messageIds: [...sent].sort((a, b) => a - b) });
}
