/**
 * Submessages: widget state attached to a message. POST /submessage adds one and tells
 * everyone who can see the message; sending a `/poll` or `/todo` message writes the widget's
 * first one before the message event is built, so the event already carries it.
 */
import { errors } from '@chat/contracts';
import type { Message, Submessage, Tx } from '@chat/db';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';
import { checkPollData, checkTodoData, pyJsonDumps, widgetContentOf, widgetTypeOf } from '../lib/widget';
import { accessMessage, messageAudience } from './message-access';
import { applyParticipationTopicPolicy } from './user-topics';

export interface SubmessageInput {
  messageId: number;
  msgType: string;
  content: string;
}

/** The submessage objects of a batch of messages, oldest first, as message objects carry them. */
export async function loadSubmessages(db: Tx, messageIds: number[]): Promise<Map<number, Record<string, unknown>[]>> {
  const rows = messageIds.length ? await db.submessage.findMany({ where: { messageId: { in: messageIds } }, orderBy: { id: 'asc' } }) : [];
  const out = new Map<number, Record<string, unknown>[]>();
  for (const r of rows) {
    const list = out.get(r.messageId) ?? [];
    list.push(submessageObject(r));
    out.set(r.messageId, list);
  }
  return out;
}

/** One submessage as message objects carry it. */
export function submessageObject(r: Pick<Submessage, 'msgType' | 'content' | 'messageId' | 'senderId' | 'id'>): Record<string, unknown> {
  return { msg_type: r.msgType, content: r.content, message_id: r.messageId, sender_id: r.senderId, id: r.id };
}

/** At send time: the widget's first submessage, from the message's sender. */
export async function saveWidgetSubmessage(tx: Tx, message: Pick<Message, 'id' | 'senderId' | 'content'>): Promise<boolean> {
  const widget = widgetContentOf(message.content);
  if (!widget) return false;
  await tx.submessage.create({ data: { messageId: message.id, senderId: message.senderId, msgType: 'widget', content: pyJsonDumps(widget) } });
  return true;
}

export async function doAddSubmessage(services: Services, actor: LoadedActor, input: SubmessageInput): Promise<void> {
  await services.db.$transaction(async (tx) => {
    // The message row is locked so that concurrent submessages see each other's first one.
    await tx.$queryRawUnsafe('SELECT id FROM messages WHERE id = $1 AND realm_id = $2 FOR UPDATE', input.messageId, actor.realmId);
    const { message } = await accessMessage(tx, actor, input.messageId);
    if (message.streamId !== null) {
      const stream = await tx.stream.findUniqueOrThrow({ where: { id: message.streamId }, select: { isArchived: true } });
      if (stream.isArchived) throw errors.invalidMessage();
    }
    const existing = await tx.submessage.findMany({ where: { messageId: message.id }, orderBy: { id: 'asc' }, select: { senderId: true, msgType: true, content: true } });
    // The first submessage of a message must come from its sender; others may then join in.
    if (actor.userId !== message.senderId && !existing.some((s) => s.senderId === message.senderId)) {
      throw errors.badRequest('You cannot attach a submessage to this message.');
    }
    let data: unknown;
    try {
      data = JSON.parse(input.content);
    } catch {
      throw errors.badRequest('Invalid json for submessage');
    }
    const widgetType = widgetTypeOf(existing.find((s) => s.msgType === 'widget')?.content);
    const isAuthor = message.senderId === actor.userId;
    if (widgetType === 'poll') checkPollData(data, isAuthor);
    if (widgetType === 'todo') checkTodoData(data, isAuthor);
    const row = await tx.submessage.create({ data: { messageId: message.id, senderId: actor.userId, msgType: input.msgType, content: input.content } });
    if (message.streamId !== null) await applyParticipationTopicPolicy(tx, actor, message.streamId, message.topic);
    await recordEvent(tx, {
      realmId: actor.realmId,
      type: 'submessage',
      users: await messageAudience(tx, [message.id], [message.streamId]),
      event: { type: 'submessage', msg_type: input.msgType, message_id: message.id, submessage_id: row.id, sender_id: actor.userId, content: input.content },
    });
  });
}
