/**
 * The write of a send. `doSendMessage` answers a retried send from its key, plans the write
 * (plan-write.ts) and hands it to `writeSend`, the one place that chooses how the message is
 * written. Every path writes the same rows and event, built by the same functions here; only the
 * statements differ, and a path's statements run a fixed number of times whatever the number of
 * recipients (all the copies in one statement, unnest).
 */
import { rawQuery, type Db, type Message, type Tx } from '@chat/db';
import { flagBit } from '@chat/contracts';
import { type DomainEvent, outboxPayload, recordEvent } from '@chat/bus';
import type { Services } from '../../context';
import { buildWireMessages, recipientIdOf } from '../../lib/wire';
import { saveWidgetSubmessage } from '../submessages';
import { applyAutomaticTopicPolicy, followWhereMentioned } from '../user-topics';
import { settlePendingPreviews } from '../thumbnail-renders';
import { claimOwnUploads, earlierSend, isSendKeyConflict, recordSendKey, sendKeyOf } from './guarantees';
import { doWriteChannelSend } from './grouped-write';
import { draftMessage, planWrite, WIRE_OPTIONS } from './plan-write';
import { INSERT_DIRECT_ALONE_SQL, INSERT_MESSAGE_SQL } from './statements';
import type { SendPlan, SendResult, WireMessage, WritePlan } from './plan';

/** Writes a checked send (checkSendMessage's plan) and answers as POST /messages does. */
export async function doSendMessage(services: Services, plan: SendPlan): Promise<SendResult> {
  const { actor, input } = plan;
  const key = sendKeyOf(input.idempotencyKey, input.queueId, input.localId);
  if (key) {
    const earlier = await earlierSend<SendResult>(services.db, actor.userId, key);
    if (earlier) return earlier;
  }
  // Read on the pool, in parallel, before anything is written: a transaction then holds its
  // connection and locks only for the writes.
  return writeSend(services, await planWrite(services.db, plan, { key }));
}

/** The send path in the caller's transaction (server-generated notices, scheduled messages). */
export async function sendMessageInTx(tx: Tx, plan: SendPlan): Promise<SendResult> {
  return writeInTransaction(tx, await planWrite(tx, plan, { callerTransaction: true }));
}

/** Writes the message the way its plan says (plan-write.ts decides the path, with its reason). */
export async function writeSend(services: Services, write: WritePlan): Promise<SendResult> {
  switch (write.path.kind) {
    // The usual channel message: its rows and its event are one statement, atomic on its own,
    // so no transaction (ADR 0015); the statement carries the other channel sends waiting for
    // the one in flight, one commit for all (ADR 0031).
    case 'grouped':
      return requestLinkPreviews(services, write.plan, await writeChannelGrouped(services.db, write));
    // A direct message needing nothing else: one statement too, which finds or makes its
    // conversation first (ADR 0025). Not grouped: it is not the hot path ADR 0031 measured.
    case 'alone':
      return requestLinkPreviews(services, write.plan, await writeDirectAlone(services.db, write));
    // Anything else writes more than the message, its copies and its event (an idempotency key,
    // ADR 0010; claimed uploads; a widget's submessage; the channel's first message id; topic
    // policies), all of which must commit with the message: one transaction.
    case 'transaction':
      return writeInOwnTransaction(services, write);
  }
}

async function writeInOwnTransaction(services: Services, write: WritePlan): Promise<SendResult> {
  const { actor } = write.plan;
  let result: SendResult;
  try {
    result = await services.db.$transaction((tx) => writeInTransaction(tx, write));
  } catch (err) {
    // The same send, retried while the first was still in flight, committed first.
    const first = write.key && isSendKeyConflict(err) ? await earlierSend<SendResult>(services.db, actor.userId, write.key) : null;
    if (first) return first;
    throw err;
  }
  // An image shown loading may have got its thumbnail while this send was being written, its
  // event finding no message yet (actions/thumbnail-renders.ts). The send stands either way.
  await settlePendingPreviews(services, actor.realmId, write.plan.rendered.html).catch((err) => services.log.warn({ err }, 'could not settle image previews'));
  return requestLinkPreviews(services, write.plan, result);
}

/** A message with pages to preview gets them from the link preview job (actions/link-previews.ts). */
async function requestLinkPreviews(services: Services, plan: SendPlan, result: SendResult): Promise<SendResult> {
  const { actor } = plan;
  if (plan.rendered.linksForPreview.length) await services.linkPreviews?.request({ messageId: result.id, realmId: actor.realmId, realmUrl: actor.realmUrl });
  return result;
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

/** The transaction path, in `tx`: the message and its copies, then each step the send needs. */
async function writeInTransaction(tx: Tx, write: WritePlan): Promise<SendResult> {
  const { plan, facts, recipientIds, flags } = write;
  const { actor, target } = plan;
  const conversationId = target.kind === 'private' ? (await conversationFor(tx, actor.realmId, recipientIds)).id : null;
  const draft = draftMessage(plan, conversationId, facts.dateSent);
  const [{ id }] = await tx.$queryRawUnsafe<Array<{ id: number }>>(INSERT_MESSAGE_SQL, ...insertParams(draft, write));
  const message = { ...draft, id };
  // The sender's own uploads it links to are shared from the moment the send commits.
  await claimOwnUploads(tx, actor.realmId, actor.userId, id, plan.content);
  if (target.kind === 'stream' && target.stream.firstMessageId === null) {
    await tx.stream.updateMany({ where: { id: target.stream.id, firstMessageId: null }, data: { firstMessageId: id } });
  }
  const widget = await saveWidgetSubmessage(tx, message);
  const wire = facts.wire && !widget ? { ...facts.wire, id, recipient_id: recipientIdOf(message) } : (await buildWireMessages(tx, [message], WIRE_OPTIONS(actor.realmUrl)))[0]!;
  await recordEvent(tx, messageEvent(write, wire));
  const result: SendResult = { id };
  if (target.kind === 'stream') {
    const policy = await applyAutomaticTopicPolicy(tx, actor, target.stream, target.topic, id, facts.topicPolicy ?? undefined);
    if (policy !== null) result.automatic_new_visibility_policy = policy;
    const mentioned = recipientIds.filter((u, i) => u !== actor.userId && (flags[i]! & flagBit('mentioned')) !== 0n);
    await followWhereMentioned(tx, actor.realmId, target.stream.id, target.topic, mentioned);
  }
  if (write.key) await recordSendKey(tx, actor.userId, write.key, id, result);
  return result;
}

/** The direct message written alone (INSERT_DIRECT_ALONE_SQL: conversation, message, copies, event). */
async function writeDirectAlone(db: Db, write: WritePlan): Promise<SendResult> {
  const { plan, facts, recipientIds } = write;
  const draft = draftMessage(plan, null, facts.dateSent);
  const payload = outboxPayload(messageEvent(write, facts.wire!));
  const members = [...new Set(recipientIds)].sort((a, b) => a - b);
  const params = [...insertParams(draft, write), payload, members.join(','), members];
  const [{ id }] = await rawQuery<{ id: number }>(db, INSERT_DIRECT_ALONE_SQL, params, 'direct-send-write');
  return { id };
}

/** The channel message, in one statement with the other channel sends waiting (grouped-write.ts). */
async function writeChannelGrouped(db: Db, write: WritePlan): Promise<SendResult> {
  const { plan, facts, recipientIds, flags } = write;
  const draft = draftMessage(plan, null, facts.dateSent);
  const payload = outboxPayload(messageEvent(write, facts.wire!));
  const id = await doWriteChannelSend(db, {
    realmId: draft.realmId, senderId: draft.senderId, streamId: draft.streamId!, topic: draft.topic, content: draft.content,
    rendered: draft.renderedContent, client: draft.sendingClient, dateSent: timestampText(facts.dateSent), isMe: draft.isMeMessage,
    hasLink: draft.hasLink, hasImage: draft.hasImage, hasAttachment: draft.hasAttachment, recipientIds, flags: flags.map(String), payload,
  });
  return { id };
}

function messageEvent(write: WritePlan, wire: WireMessage): DomainEvent {
  const { plan, facts, recipientIds, userFlags } = write;
  const { actor, target, input } = plan;
  return {
    realmId: actor.realmId,
    type: 'message',
    users: recipientIds,
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

/** The parameters $1 to $16 of the statements (statements.ts). */
function insertParams(draft: Message, write: WritePlan): unknown[] {
  const { facts, recipientIds, flags } = write;
  return [
    draft.realmId, draft.senderId, draft.recipientType, draft.streamId, draft.conversationId, draft.topic, draft.content,
    draft.renderedContent, draft.sendingClient, timestampText(facts.dateSent), draft.isMeMessage, draft.hasLink,
    draft.hasImage, draft.hasAttachment, recipientIds, flags.map(String),
  ];
}
