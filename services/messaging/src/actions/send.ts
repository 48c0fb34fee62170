/**
 * Sending a message: `checkSendMessage` resolves and authorises the recipients and renders the
 * content; `doSendMessage` writes the message, one user_messages row per recipient and the
 * outbox event in one transaction.
 */
import type { Stream, Tx, User } from '@chat/db';
import { recordEvent } from '../lib/outbox';
import { errors, flagBit, apiFlagNames } from '@chat/contracts';
import type { Actor, Deps } from '../lib/context';
import { messageKind, parseDirectTargets, parseStreamTarget } from '../lib/recipients';
import { normalizeContent, normalizeTopic } from '../lib/text';
import { avatarUrlOf, buildWireMessages } from '../lib/wire';
import { loadRenderContext, renderMarkdown, type RenderResult } from '../markdown';
import { checkStreamPostAllowed, effectiveTopicsPolicy, getStreamForSend } from './streams-access';
import { checkWildcardMentions, mentionFlags } from './mentions';
import { groupSettingMembers, hasRealmPermission } from '../lib/groups';
import { applyAutomaticTopicPolicy, followWhereMentioned } from './user-topics';
import { saveWidgetSubmessage } from './submessages';
import { claimOwnUploads, earlierSend, isSendKeyConflict, recordSendKey, sendKeyOf } from './send-guarantees';

export interface SendInput {
  type: string;
  to: unknown;
  content: string;
  topic?: string;
  queueId?: string;
  localId?: string;
  readBySender?: boolean;
  client: string;
  /** The client's `Idempotency-Key` header, if any (see send-guarantees.ts). */
  idempotencyKey?: string;
}

type Target =
  | { kind: 'stream'; stream: Stream; topic: string; subscriberIds: number[] }
  | { kind: 'private'; recipients: Pick<User, 'id' | 'email'>[] };

export interface SendPlan {
  target: Target;
  content: string;
  rendered: RenderResult;
  input: SendInput;
  /**
   * Copies that start read whatever the sender's settings (server-generated notices: the
   * user whose action caused them has seen it).
   */
  readFor?: Set<number>;
}

/** Clients whose sender is a person looking at the conversation: their own copy starts read. */
const INTERACTIVE_CLIENTS = new Set([
  'zulipandroid', 'zulipios', 'zulipdesktop', 'zulipmobile', 'zulipelectron', 'zulipterminal',
  'snipe', 'website', 'ios', 'android', 'zulipflutter',
]);

export function defaultReadBySender(client: string): boolean {
  const name = client.toLowerCase();
  return INTERACTIVE_CLIENTS.has(name) || name.includes('desktop app') || name.includes('test suite');
}

async function resolveDirectRecipients(tx: Tx, actor: Actor, to: unknown) {
  const parsed = parseDirectTargets(to);
  const select = { id: true, email: true, isActive: true, realmId: true } as const;
  let users: Array<{ id: number; email: string; isActive: boolean; realmId: number }>;
  if ('ids' in parsed) {
    users = await tx.user.findMany({ where: { id: { in: parsed.ids }, realmId: actor.realmId }, select });
    const found = new Set(users.map((u) => u.id));
    const missing = parsed.ids.find((id) => !found.has(id));
    if (missing !== undefined) throw errors.badRequest(`Invalid user ID ${missing}`);
  } else {
    users = await tx.user.findMany({
      where: { realmId: actor.realmId, email: { in: parsed.emails, mode: 'insensitive' } },
      select,
    });
    const found = new Set(users.map((u) => u.email.toLowerCase()));
    const missing = parsed.emails.find((e) => !found.has(e.toLowerCase()));
    if (missing !== undefined) throw errors.badRequest(`Invalid email '${missing}'`);
  }
  const inactive = users.find((u) => !u.isActive && u.id !== actor.userId);
  if (inactive) throw errors.badRequest(`'${inactive.email}' is no longer a member of this organization.`);
  // The sender may be listed; only a message to oneself keeps them as the sole recipient.
  const others = users.filter((u) => u.id !== actor.userId);
  return others.map((u) => ({ id: u.id, email: u.email }));
}

export async function checkSendMessage(deps: Deps, actor: Actor, input: SendInput): Promise<SendPlan> {
  const kind = messageKind(input.type);
  if ((input.queueId === undefined) !== (input.localId === undefined)) {
    throw errors.badRequest('Missing local_id or queue_id: both or neither must be given');
  }
  const content = normalizeContent(input.content);
  const { db } = deps;
  let target: Target;
  if (kind === 'stream') {
    const stream = await getStreamForSend(db, actor, parseStreamTarget(input.to));
    if (input.topic === undefined) throw errors.badRequest('Missing topic');
    const topic = normalizeTopic(input.topic);
    const realm = await db.realm.findUniqueOrThrow({ where: { id: actor.realmId } });
    const policy = effectiveTopicsPolicy(stream, realm);
    if (topic === '' && policy === 'disable_empty_topic') {
      throw errors.badRequest('Sending messages to the general chat is not allowed in this channel.');
    }
    if (topic !== '' && policy === 'empty_topic_only') {
      throw errors.badRequest('Only the general chat topic is allowed in this channel.');
    }
    const subs = await db.subscription.findMany({
      where: { streamId: stream.id, active: true, user: { isActive: true } },
      select: { userId: true },
    });
    const subscriberIds = subs.map((s) => s.userId);
    await checkStreamPostAllowed(db, actor, stream, subscriberIds.includes(actor.userId));
    target = { kind: 'stream', stream, topic, subscriberIds };
  } else {
    const recipients = await resolveDirectRecipients(db, actor, input.to);
    await checkDirectMessageAllowed(db, actor, recipients.map((r) => r.id));
    target = { kind: 'private', recipients };
  }
  const ctx = await loadRenderContext(db, actor.realmId, actor.realmUrl, content, actor.userId);
  const rendered = renderMarkdown(content, ctx);
  if (rendered.mentionedGroupIds.size) {
    const members = await groupSettingMembers(db, { direct_members: [], direct_subgroups: [...rendered.mentionedGroupIds] });
    members.forEach((id) => rendered.mentionedUserIds.add(id));
  }
  if (target.kind === 'stream') {
    await checkWildcardMentions(deps, actor, target.stream, target.topic, target.subscriberIds.length, rendered);
  }
  return { target, content, rendered, input };
}

/**
 * Realm direct-message policies: starting a conversation needs direct_message_initiator_group;
 * any conversation needs a participant in direct_message_permission_group. Conversations with
 * oneself or with a bot are always allowed.
 */
async function checkDirectMessageAllowed(db: Deps['db'], actor: Actor, recipientIds: number[]): Promise<void> {
  if (!recipientIds.length || actor.isBot) return;
  if ((await db.user.count({ where: { id: { in: recipientIds }, isBot: true } })) > 0) return;
  const members = [actor.userId, ...recipientIds];
  const authorizers = await Promise.all(members.map((id) => hasRealmPermission(db, actor.realmId, id, 'direct_message_permission_group')));
  if (!authorizers.some(Boolean)) throw errors.badRequest('This conversation does not include any users who can authorize it.');
  const memberKey = [...new Set(members)].sort((a, b) => a - b).join(',');
  const exists = await db.directConversation.findUnique({ where: { realmId_memberKey: { realmId: actor.realmId, memberKey } } });
  if (!exists && !(await hasRealmPermission(db, actor.realmId, actor.userId, 'direct_message_initiator_group'))) {
    throw errors.badRequest('You do not have permission to initiate direct message conversations.');
  }
}

async function conversationFor(tx: Tx, realmId: number, memberIds: number[]): Promise<{ id: number }> {
  const sorted = [...new Set(memberIds)].sort((a, b) => a - b);
  // One statement, so two first messages to the same people at once find one conversation.
  const [row] = await tx.$queryRawUnsafe<Array<{ id: number }>>(
    `INSERT INTO direct_conversations (realm_id, member_key, member_ids) VALUES ($1, $2, $3::int[])
     ON CONFLICT (realm_id, member_key) DO UPDATE SET member_key = EXCLUDED.member_key RETURNING id`,
    realmId,
    sorted.join(','),
    sorted,
  );
  return row;
}

/**
 * Who muted `senderId` (the muted_users table of the users service). Looked up by sender alone:
 * a person has few muters, while a channel may have many thousands of recipients.
 */
async function usersWhoMuted(tx: Tx, senderId: number): Promise<Set<number>> {
  const rows = await tx.mutedUser.findMany({ where: { mutedUserId: senderId }, select: { userId: true } });
  return new Set(rows.map((r) => r.userId));
}

export interface SendResult {
  id: number;
  automatic_new_visibility_policy?: number;
}

export async function doSendMessage(deps: Deps, actor: Actor, plan: SendPlan): Promise<SendResult> {
  const key = sendKeyOf(plan.input.idempotencyKey, plan.input.queueId, plan.input.localId);
  if (!key) return deps.db.$transaction((tx) => sendMessageInTx(tx, actor, plan));
  const earlier = await earlierSend<SendResult>(deps.db, actor.userId, key);
  if (earlier) return earlier;
  try {
    return await deps.db.$transaction(async (tx) => {
      const result = await sendMessageInTx(tx, actor, plan);
      await recordSendKey(tx, actor.userId, key, result.id, result);
      return result;
    });
  } catch (err) {
    // The same send, retried while the first was still in flight, committed first.
    const first = isSendKeyConflict(err) ? await earlierSend<SendResult>(deps.db, actor.userId, key) : null;
    if (first) return first;
    throw err;
  }
}

/** The send path, in the caller's transaction (also used for server-generated notices). */
export async function sendMessageInTx(tx: Tx, actor: Actor, plan: SendPlan): Promise<SendResult> {
  const { target, rendered, input } = plan;
  const readBySender = input.readBySender ?? (actor.isBot || defaultReadBySender(input.client));
  let recipientIds: number[];
  let conversationId: number | null = null;
  if (target.kind === 'stream') {
    recipientIds = [...new Set([...target.subscriberIds, actor.userId])];
  } else {
    const members = [actor.userId, ...target.recipients.map((r) => r.id)];
    conversationId = (await conversationFor(tx, actor.realmId, members)).id;
    recipientIds = [...new Set(members)];
  }
  const message = await tx.message.create({
    data: {
      realmId: actor.realmId,
      senderId: actor.userId,
      recipientType: target.kind,
      streamId: target.kind === 'stream' ? target.stream.id : null,
      conversationId,
      topic: target.kind === 'stream' ? target.topic : '',
      content: plan.content,
      renderedContent: rendered.html,
      sendingClient: input.client,
      isMeMessage: rendered.isMeMessage,
      hasLink: rendered.hasLink,
      hasImage: rendered.hasImage,
      hasAttachment: rendered.hasAttachment,
    },
  });
  await claimOwnUploads(tx, actor.realmId, actor.userId, message.id, plan.content);
  const topicParticipants =
    target.kind === 'stream' && rendered.topicWildcard ? await topicParticipantIds(tx, target.stream.id, target.topic) : new Set<number>();
  const alerted = await usersAlertedBy(tx, recipientIds.filter((id) => id !== actor.userId), plan.content);
  // Recipients who muted the sender get the message already read, as in the API family.
  const muters = await usersWhoMuted(tx, actor.userId);
  const userFlags: Record<string, string[]> = {};
  const rows = recipientIds.map((userId) => {
    let flags = mentionFlags(userId, rendered, target.kind === 'stream', topicParticipants);
    if (alerted.has(userId)) flags |= flagBit('has_alert_word');
    if ((userId === actor.userId && readBySender) || plan.readFor?.has(userId) || muters.has(userId)) flags |= flagBit('read');
    if (target.kind === 'private') flags |= flagBit('is_private');
    userFlags[userId] = apiFlagNames(flags);
    return { userId, messageId: message.id, flags };
  });
  await tx.userMessage.createMany({ data: rows });
  if (target.kind === 'stream' && target.stream.firstMessageId === null) {
    await tx.stream.updateMany({ where: { id: target.stream.id, firstMessageId: null }, data: { firstMessageId: message.id } });
  }
  await saveWidgetSubmessage(tx, message);
  const [wire] = await buildWireMessages(tx, [message], {
    applyMarkdown: true,
    clientGravatar: false,
    allowEmptyTopicName: true,
    realmUrl: actor.realmUrl,
    allowEditHistory: true,
  });
  await recordEvent(tx, {
    realmId: actor.realmId,
    type: 'message',
    users: recipientIds,
    event: { type: 'message', message: wire },
    routing: {
      stream_id: target.kind === 'stream' ? target.stream.id : null,
      public_stream: target.kind === 'stream' && !target.stream.inviteOnly,
      sender_id: actor.userId,
      sender_gravatar: wire.avatar_url !== null && (await senderAvatarIsPublicGravatar(tx, actor.userId)),
      ...(input.queueId !== undefined ? { sender_queue_id: input.queueId, local_id: input.localId } : {}),
      user_flags: userFlags,
      raw_content: plan.content,
      topic: target.kind === 'stream' ? target.topic : '',
    },
  });
  const result: SendResult = { id: message.id };
  if (target.kind === 'stream') {
    const policy = await applyAutomaticTopicPolicy(tx, actor, target.stream, target.topic, message.id);
    if (policy !== null) result.automatic_new_visibility_policy = policy;
    const mentioned = rows.filter((r) => r.userId !== actor.userId && (r.flags & flagBit('mentioned')) !== 0n).map((r) => r.userId);
    await followWhereMentioned(tx, actor.realmId, target.stream.id, target.topic, mentioned);
  }
  return result;
}

async function topicParticipantIds(tx: Tx, streamId: number, topic: string): Promise<Set<number>> {
  const rows = await tx.message.findMany({
    where: { streamId, topic: { equals: topic, mode: 'insensitive' } },
    select: { senderId: true },
    distinct: ['senderId'],
  });
  return new Set(rows.map((r) => r.senderId));
}

/** Whether client_gravatar queues may get avatar_url null for this sender (they compute it). */
async function senderAvatarIsPublicGravatar(tx: Tx, userId: number): Promise<boolean> {
  const u = await tx.user.findUniqueOrThrow({ where: { id: userId } });
  return avatarUrlOf(u, { clientGravatar: true, realmUrl: '' }) === null;
}

/** Recipients with an alert word that appears in the message as a whole word (any case). */
export async function usersAlertedBy(tx: Tx, userIds: number[], content: string): Promise<Set<number>> {
  if (!userIds.length) return new Set();
  const words = await tx.alertWord.findMany({ where: { userId: { in: userIds } }, select: { userId: true, word: true } });
  const text = content.toLowerCase();
  const hit = new Set<number>();
  for (const { userId, word } of words) {
    const escaped = word.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'u').test(text)) hit.add(userId);
  }
  return hit;
}
