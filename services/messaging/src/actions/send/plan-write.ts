/**
 * From a checked send to a write: everything that can be read before the message exists (alert
 * words, muters, the sender's topic policy, the message object clients get) is read first, on the
 * pool and in parallel; then each copy's flags and the write path are decided, with nothing read.
 */
import type { Message, Tx } from '@chat/db';
import { apiFlagNames, flagBit, linkedPathIds } from '@chat/contracts';
import { widgetContentOf } from '../../lib/widget';
import { avatarUrlOf, buildWireMessages, wireOfNewChannelMessage, wireOfNewDirectMessage } from '../../lib/wire';
import { mentionFlags } from '../mentions';
import { automaticTopicPolicy } from '../user-topics';
import { sendReadings } from './reads';
import type { SendFacts, SendPlan, TransactionReason, WireMessage, WritePath, WritePlan } from './plan';

/**
 * The plan of the write of `plan`. `key`: its idempotency key; `callerTransaction`: it is written
 * in a transaction its caller holds (`db` is then that transaction).
 */
export async function planWrite(db: Tx, plan: SendPlan, how: { key?: string; callerTransaction?: boolean }): Promise<WritePlan> {
  const facts = await loadSendFacts(db, plan);
  const recipientIds = recipientsOf(plan);
  const { flags, userFlags } = copiesOf(plan, facts, recipientIds);
  return { plan, facts, key: how.key, recipientIds, flags, userFlags, path: writePathOf(plan, facts, how) };
}

/**
 * The write path (see WritePath): the statement alone when the send writes nothing but the
 * message, its copies and its event (and a direct message's conversation), that is a message
 * with its object already built, linking no upload; for a channel, one that has had a message,
 * mentioning nobody, and leaving the sender's topic policy as it is.
 */
function writePathOf(plan: SendPlan, facts: SendFacts, how: { key?: string; callerTransaction?: boolean }): WritePath {
  const { actor, target, rendered } = plan;
  const transaction = (reason: TransactionReason): WritePath => ({ kind: 'transaction', reason });
  if (how.callerTransaction) return transaction('caller-transaction');
  if (how.key) return transaction('idempotency-key');
  if (facts.wire === null) return transaction('object-not-built');
  if (linkedPathIds(plan.content).length) return transaction('links-upload');
  if (target.kind === 'private') return { kind: 'alone' };
  if (target.stream.firstMessageId === null) return transaction('first-message');
  if (facts.topicPolicy === null || automaticTopicPolicy(actor.settings, facts.topicPolicy) !== null) return transaction('topic-policy');
  if (rendered.mentionedUserIds.size !== 0 || rendered.streamWildcard || rendered.topicWildcard) return transaction('mentions');
  return { kind: 'grouped' };
}

/** Everyone who gets a copy: the channel's subscribers or the conversation's members, and the sender. */
function recipientsOf(plan: SendPlan): number[] {
  const { actor, target: t } = plan;
  return t.kind === 'stream' ? [...new Set([...t.subscriberIds, actor.userId])] : [...new Set([actor.userId, ...t.recipients.map((r) => r.id)])];
}

/** Each recipient's flags, as stored (bits) and as the event tells them (names). */
function copiesOf(plan: SendPlan, facts: SendFacts, recipientIds: number[]) {
  const { actor, target, rendered, input } = plan;
  const readBySender = input.readBySender ?? (actor.isBot || defaultReadBySender(input.client));
  const userFlags: Record<string, string[]> = {};
  const flags = recipientIds.map((userId) => {
    let f = mentionFlags(userId, rendered, target.kind === 'stream', facts.topicParticipants);
    if (facts.alerted.has(userId)) f |= flagBit('has_alert_word');
    // Recipients who muted the sender get the message already read, as in the API family.
    if ((userId === actor.userId && readBySender) || plan.readFor?.has(userId) || facts.muters.has(userId)) f |= flagBit('read');
    if (target.kind === 'private') f |= flagBit('is_private');
    userFlags[userId] = apiFlagNames(f);
    return f;
  });
  return { flags, userFlags };
}

/** The row as Prisma would return it, before it is inserted (id 0). */
export function draftMessage(plan: SendPlan, conversationId: number | null, dateSent: Date, id = 0): Message {
  const { actor, target, rendered } = plan;
  return {
    id,
    realmId: actor.realmId,
    senderId: actor.userId,
    recipientType: target.kind,
    streamId: target.kind === 'stream' ? target.stream.id : null,
    conversationId,
    topic: target.kind === 'stream' ? target.topic : '',
    content: plan.content,
    renderedContent: rendered.html,
    sendingClient: plan.input.client,
    dateSent,
    lastEditTime: null,
    lastMovedTime: null,
    editHistory: null,
    isMeMessage: rendered.isMeMessage,
    hasAttachment: rendered.hasAttachment,
    hasImage: rendered.hasImage,
    hasLink: rendered.hasLink,
  } as Message;
}

export const WIRE_OPTIONS = (realmUrl: string) => ({ applyMarkdown: true, clientGravatar: false, allowEmptyTopicName: true, realmUrl, allowEditHistory: true });

async function loadSendFacts(db: Tx, plan: SendPlan): Promise<SendFacts> {
  const { actor, target, rendered } = plan;
  // Whole milliseconds: the column keeps milliseconds, and the event must say what the row says.
  const dateSent = new Date(Math.floor(Date.now()));
  const others = recipientsOf(plan).filter((id) => id !== actor.userId);
  const stream = target.kind === 'stream' ? target : null;
  // A channel message's object is complete before the row exists; a widget's needs its
  // submessage, written in the transaction. A direct message's is too, but for its
  // conversation's id (recipient_id), which the write fills in.
  const widget = widgetContentOf(plan.content);
  const prebuild = stream !== null && !widget;
  const { held } = plan;
  // With the sender's row and the realm in hand, the object needs nothing read.
  const wireNow = prebuild && held?.sender && held.realm
    ? wireOfNewChannelMessage(draftMessage(plan, null, dateSent), {
        realmStringId: held.realm.stringId, streamName: stream.stream.name, sender: held.sender, linkifiers: held.linkifiers,
      }, WIRE_OPTIONS(actor.realmUrl))
    : target.kind === 'private' && !widget ? directWire(plan, dateSent) : null;
  const [topicParticipants, readings, senderGravatar, wire] = await Promise.all([
    stream && rendered.topicWildcard ? topicParticipantIds(db, stream.stream.id, stream.topic) : new Set<number>(),
    // A channel send through the API read these beside the channel (reads.ts).
    held?.readings ?? sendReadings(db, actor.userId, others, plan.content, stream ? { id: stream.stream.id, topic: stream.topic } : null),
    held?.sender ? avatarIsPublicGravatar(held.sender) : senderAvatarIsPublicGravatar(db, actor.userId),
    wireNow ?? (prebuild ? buildWireMessages(db, [draftMessage(plan, null, dateSent)], WIRE_OPTIONS(actor.realmUrl)).then((w) => w[0]!) : null),
  ]);
  return { dateSent, topicParticipants, ...readings, senderGravatar, wire };
}

/**
 * A direct message's object before the write, when the send read everything it shows: the
 * sender's row, the realm's string id and every recipient's name. Its conversation is not known
 * yet (0 here); the write sets recipient_id.
 */
function directWire(plan: SendPlan, dateSent: Date): WireMessage | null {
  const { actor, target, held } = plan;
  if (target.kind !== 'private' || !held?.sender || held.realmStringId === undefined) return null;
  const members: Array<{ id: number; email: string; fullName: string }> = [];
  for (const r of target.recipients) {
    if (r.fullName === undefined) return null;
    members.push({ id: r.id, email: r.email, fullName: r.fullName });
  }
  return wireOfNewDirectMessage(draftMessage(plan, 0, dateSent), { realmStringId: held.realmStringId, sender: held.sender, members }, WIRE_OPTIONS(actor.realmUrl));
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

async function topicParticipantIds(db: Tx, streamId: number, topic: string): Promise<Set<number>> {
  const rows = await db.$queryRawUnsafe<Array<{ sender_id: number }>>(
    `SELECT DISTINCT sender_id FROM messages WHERE stream_id = $1 AND lower(topic) = lower($2)`,
    streamId,
    topic,
  );
  return new Set(rows.map((r) => r.sender_id));
}

/** Whether client_gravatar queues may get avatar_url null for this sender (they compute it). */
async function senderAvatarIsPublicGravatar(db: Tx, userId: number): Promise<boolean> {
  return avatarIsPublicGravatar(await db.user.findUniqueOrThrow({ where: { id: userId } }));
}

function avatarIsPublicGravatar(u: Parameters<typeof avatarUrlOf>[0]): boolean {
  return avatarUrlOf(u, { clientGravatar: true, realmUrl: '' }) === null;
}
