/**
 * The write of a send. Everything that can be read before the message exists (alert words,
 * muters, the sender's topic policy, the message object clients get) is read first, on the
 * pool and in parallel; the transaction then runs a fixed number of statements whatever the
 * number of recipients: the message and all its user_messages rows in one statement (unnest),
 * and the outbox row.
 */
import { rawQuery, type Db, type Message, type Tx } from '@chat/db';
import { apiFlagNames, flagBit, linkedPathIds } from '@chat/contracts';
import { type DomainEvent, outboxPayload, recordEvent } from '@chat/bus';
import type { LoadedActor } from '../../lib/context';
import { widgetContentOf } from '../../lib/widget';
import { avatarUrlOf, buildWireMessages, recipientIdOf, wireOfNewChannelMessage, wireOfNewDirectMessage } from '../../lib/wire';
import { mentionFlags } from '../mentions';
import type { SendPlan } from './check';
import { saveWidgetSubmessage } from '../submessages';
import { applyAutomaticTopicPolicy, automaticTopicPolicy, followWhereMentioned, type TopicPolicyFacts } from '../user-topics';
import { sendReadings } from './reads';
import { claimOwnUploads } from './guarantees';
import { doWriteChannelSend } from './grouped-write';
import { EVENT_AND_NOTIFY, messageAndCopies, WITH_MESSAGE_ID } from './statements';

export interface SendResult {
  id: number;
  automatic_new_visibility_policy?: number;
}

type WireMessage = Awaited<ReturnType<typeof buildWireMessages>>[number];

/** What the write needs that does not depend on the message row. */
export interface SendFacts {
  dateSent: Date;
  topicParticipants: Set<number>;
  alerted: Set<number>;
  muters: Set<number>;
  senderGravatar: boolean;
  topicPolicy: TopicPolicyFacts | null;
  /** The message as clients get it, built before the row exists (id filled in after insert). */
  wire: WireMessage | null;
}

function recipientsOf(actor: LoadedActor, plan: SendPlan): number[] {
  const t = plan.target;
  return t.kind === 'stream' ? [...new Set([...t.subscriberIds, actor.userId])] : [...new Set([actor.userId, ...t.recipients.map((r) => r.id)])];
}

/** The row as Prisma would return it, before it is inserted (id 0). */
function draftMessage(actor: LoadedActor, plan: SendPlan, conversationId: number | null, dateSent: Date, id = 0): Message {
  const { target, rendered } = plan;
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

const WIRE_OPTIONS = (realmUrl: string) => ({ applyMarkdown: true, clientGravatar: false, allowEmptyTopicName: true, realmUrl, allowEditHistory: true });

export async function loadSendFacts(db: Tx, actor: LoadedActor, plan: SendPlan): Promise<SendFacts> {
  const { target, rendered } = plan;
  // Whole milliseconds: the column keeps milliseconds, and the event must say what the row says.
  const dateSent = new Date(Math.floor(Date.now()));
  const others = recipientsOf(actor, plan).filter((id) => id !== actor.userId);
  const stream = target.kind === 'stream' ? target : null;
  // A channel message's object is complete before the row exists; a widget's needs its
  // submessage, written in the transaction. A direct message's is too, but for its
  // conversation's id (recipient_id), which the write fills in.
  const widget = widgetContentOf(plan.content);
  const prebuild = stream !== null && !widget;
  const { held } = plan;
  // With the sender's row and the realm in hand, the object needs nothing read.
  const wireNow = prebuild && held?.sender && held.realm
    ? wireOfNewChannelMessage(draftMessage(actor, plan, null, dateSent), {
        realmStringId: held.realm.stringId, streamName: stream.stream.name, sender: held.sender, linkifiers: held.linkifiers,
      }, WIRE_OPTIONS(actor.realmUrl))
    : target.kind === 'private' && !widget ? directWire(actor, plan, dateSent) : null;
  const [topicParticipants, readings, senderGravatar, wire] = await Promise.all([
    stream && rendered.topicWildcard ? topicParticipantIds(db, stream.stream.id, stream.topic) : new Set<number>(),
    // A channel send through the API read these beside the channel (reads.ts).
    held?.readings ?? sendReadings(db, actor.userId, others, plan.content, stream ? { id: stream.stream.id, topic: stream.topic } : null),
    held?.sender ? avatarIsPublicGravatar(held.sender) : senderAvatarIsPublicGravatar(db, actor.userId),
    wireNow ?? (prebuild ? buildWireMessages(db, [draftMessage(actor, plan, null, dateSent)], WIRE_OPTIONS(actor.realmUrl)).then((w) => w[0]!) : null),
  ]);
  return { dateSent, topicParticipants, ...readings, senderGravatar, wire };
}

/**
 * A direct message's object before the write, when the send read everything it shows: the
 * sender's row, the realm's string id and every recipient's name. Its conversation is not known
 * yet (0 here); the write sets recipient_id.
 */
function directWire(actor: LoadedActor, plan: SendPlan, dateSent: Date): WireMessage | null {
  const { target, held } = plan;
  if (target.kind !== 'private' || !held?.sender || held.realmStringId === undefined) return null;
  const members: Array<{ id: number; email: string; fullName: string }> = [];
  for (const r of target.recipients) {
    if (r.fullName === undefined) return null;
    members.push({ id: r.id, email: r.email, fullName: r.fullName });
  }
  return wireOfNewDirectMessage(draftMessage(actor, plan, 0, dateSent), { realmStringId: held.realmStringId, sender: held.sender, members }, WIRE_OPTIONS(actor.realmUrl));
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

const INSERT_MESSAGE_SQL = `WITH ${messageAndCopies()}
SELECT id FROM m`;

/** The send path, in the caller's transaction (also used for server-generated notices). */
export async function sendMessageInTx(tx: Tx, actor: LoadedActor, plan: SendPlan): Promise<SendResult> {
  return writeMessage(tx, actor, plan, await loadSendFacts(tx, actor, plan));
}

/** Each recipient's flags, as stored (bits) and as the event tells them (names). */
function copiesOf(actor: LoadedActor, plan: SendPlan, facts: SendFacts, recipientIds: number[]) {
  const { target, rendered, input } = plan;
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

function messageEvent(actor: LoadedActor, plan: SendPlan, facts: SendFacts, wire: WireMessage, users: number[], userFlags: Record<string, string[]>): DomainEvent {
  const { target, input } = plan;
  return {
    realmId: actor.realmId,
    type: 'message',
    users,
    event: { type: 'message', message: wire },
    routing: {
      stream_id: target.kind === 'stream' ? target.stream.id : null,
      public_stream: target.kind === 'stream' && !target.stream.inviteOnly,
      sender_id: actor.userId,
      sender_gravatar: wire.avatar_url !== null && facts.senderGravatar,
      ...(input.queueId !== undefined ? { sender_queue_id: input.queueId, local_id: input.localId } : {}),
      user_flags: userFlags,
      raw_content: plan.content,
      topic: target.kind === 'stream' ? target.topic : '',
    },
  };
}

/** A timestamp without zone, as the statements take it (UTC, milliseconds). */
const timestampText = (d: Date) => d.toISOString().replace('Z', '');

function insertParams(draft: Message, facts: SendFacts, recipientIds: number[], flags: bigint[]): unknown[] {
  return [
    draft.realmId, draft.senderId, draft.recipientType, draft.streamId, draft.conversationId, draft.topic, draft.content,
    draft.renderedContent, draft.sendingClient, timestampText(facts.dateSent), draft.isMeMessage, draft.hasLink,
    draft.hasImage, draft.hasAttachment, recipientIds, flags.map(String),
  ];
}

export async function writeMessage(tx: Tx, actor: LoadedActor, plan: SendPlan, facts: SendFacts): Promise<SendResult> {
  const { target } = plan;
  const recipientIds = recipientsOf(actor, plan);
  const conversationId = target.kind === 'private' ? (await conversationFor(tx, actor.realmId, recipientIds)).id : null;
  const { flags, userFlags } = copiesOf(actor, plan, facts, recipientIds);
  const draft = draftMessage(actor, plan, conversationId, facts.dateSent);
  const [{ id }] = await tx.$queryRawUnsafe<Array<{ id: number }>>(INSERT_MESSAGE_SQL, ...insertParams(draft, facts, recipientIds, flags));
  const message = { ...draft, id };
  // The sender's own uploads it links to are shared from the moment the send commits.
  await claimOwnUploads(tx, actor.realmId, actor.userId, id, plan.content);
  if (target.kind === 'stream' && target.stream.firstMessageId === null) {
    await tx.stream.updateMany({ where: { id: target.stream.id, firstMessageId: null }, data: { firstMessageId: id } });
  }
  const widget = await saveWidgetSubmessage(tx, message);
  const wire = facts.wire && !widget ? { ...facts.wire, id, recipient_id: recipientIdOf(message) } : (await buildWireMessages(tx, [message], WIRE_OPTIONS(actor.realmUrl)))[0]!;
  await recordEvent(tx, messageEvent(actor, plan, facts, wire, recipientIds, userFlags));
  const result: SendResult = { id };
  if (target.kind === 'stream') {
    const policy = await applyAutomaticTopicPolicy(tx, actor, target.stream, target.topic, id, facts.topicPolicy ?? undefined);
    if (policy !== null) result.automatic_new_visibility_policy = policy;
    const mentioned = recipientIds.filter((u, i) => u !== actor.userId && (flags[i]! & flagBit('mentioned')) !== 0n);
    await followWhereMentioned(tx, actor.realmId, target.stream.id, target.topic, mentioned);
  }
  return result;
}

/**
 * Whether the send writes nothing but the message, its copies and its event (and a direct
 * message's conversation): a message with its object already built, linking no upload; for a
 * channel, one that has had a message, mentioning nobody, and leaving the sender's topic policy
 * as it is. Then writeMessageAlone does it in one statement.
 */
export function canWriteAlone(actor: LoadedActor, plan: SendPlan, facts: SendFacts): boolean {
  const { target, rendered } = plan;
  if (facts.wire === null || linkedPathIds(plan.content).length) return false;
  if (target.kind === 'private') return true;
  return target.stream.firstMessageId !== null
    && facts.topicPolicy !== null
    && automaticTopicPolicy(actor.settings, facts.topicPolicy) === null
    && rendered.mentionedUserIds.size === 0
    && !rendered.streamWildcard && !rendered.topicWildcard;
}

// A direct message, its copies and the outbox row in one statement: atomic on its own, so no
// transaction and one round trip. The event carries the message's id, known only inside; the
// conversation is found or made first (as conversationFor does, $5 is null then), and the
// event's recipient_id follows from it. A channel message's statement is in grouped-write.ts, built
// from the same parts (statements.ts).
const INSERT_DIRECT_ALONE_SQL = `WITH conv AS (
  INSERT INTO direct_conversations (realm_id, member_key, member_ids) VALUES ($1, $18, $19::int[])
  ON CONFLICT (realm_id, member_key) DO UPDATE SET member_key = EXCLUDED.member_key RETURNING id
), ${messageAndCopies('coalesce($5::int, conv.id)', ' FROM conv')}${EVENT_AND_NOTIFY(
  `jsonb_set(${WITH_MESSAGE_ID}, '{event,message,recipient_id}', to_jsonb(conv.id * 2 + 1))`, 'm, conv')}`;

export async function writeMessageAlone(db: Db, actor: LoadedActor, plan: SendPlan, facts: SendFacts): Promise<SendResult> {
  const recipientIds = recipientsOf(actor, plan);
  const { flags, userFlags } = copiesOf(actor, plan, facts, recipientIds);
  const draft = draftMessage(actor, plan, null, facts.dateSent);
  const payload = outboxPayload(messageEvent(actor, plan, facts, facts.wire!, recipientIds, userFlags));
  if (plan.target.kind === 'private') {
    const members = [...new Set(recipientIds)].sort((a, b) => a - b);
    const params = [...insertParams(draft, facts, recipientIds, flags), payload, members.join(','), members];
    const [{ id }] = await rawQuery<{ id: number }>(db, INSERT_DIRECT_ALONE_SQL, params, 'direct-send-write');
    return { id };
  }
  // A channel message's statement may carry other sends' with it (group commit, grouped-write.ts).
  const id = await doWriteChannelSend(db, {
    realmId: draft.realmId, senderId: draft.senderId, streamId: draft.streamId!, topic: draft.topic, content: draft.content,
    rendered: draft.renderedContent, client: draft.sendingClient, dateSent: timestampText(facts.dateSent), isMe: draft.isMeMessage,
    hasLink: draft.hasLink, hasImage: draft.hasImage, hasAttachment: draft.hasAttachment, recipientIds, flags: flags.map(String), payload,
  });
  return { id };
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
