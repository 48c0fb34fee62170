/**
 * Messages scheduled to be sent later: created, edited and deleted by their sender, delivered
 * by `workers/scheduled.ts` through the ordinary send path. Every change is a
 * `scheduled_messages` event for the sender alone.
 */
import type { Prisma, ScheduledMessage, Tx } from '@chat/db';
import { errors } from '@chat/contracts';
import { DELIVERY_TYPE, scheduledMessageObject } from '@chat/wire';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';
import { normalizeTopic } from '../lib/text';
import { actingCaller, checkSendMessage, defaultReadBySender, type SendPlan } from './send';

/** `to` of a scheduled message: a channel id, or a list of user ids. */
export type ScheduledTo = number | number[];

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** The JSON-encoded `to`: an integer or a list of integers, nothing else (no names, no emails). */
export function parseScheduledTo(raw: unknown): ScheduledTo {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw errors.invalidJson('to');
    }
  }
  if (isId(value) || (Array.isArray(value) && value.every(isId))) return value as ScheduledTo;
  throw errors.invalidArgument('to', 'to["int"] is not an integer');
}

/** "stream"/"channel" or "private"/"direct". */
export function scheduledKind(type: string): 'stream' | 'private' {
  if (type === 'stream' || type === 'channel') return 'stream';
  if (type === 'private' || type === 'direct') return 'private';
  throw errors.invalidArgument('type');
}

/** A delivery time (UNIX seconds) strictly after now. */
export function futureDeliveryTime(timestamp: number): Date {
  const at = new Date(timestamp * 1000);
  if (!(at.getTime() > Date.now())) throw errors.badRequest('Scheduled delivery time must be in the future.');
  return at;
}

function streamIdOf(to: ScheduledTo): number {
  if (Array.isArray(to)) throw errors.badRequest('Invalid data type for channel ID');
  return to;
}

function recipientIdsOf(to: ScheduledTo): number[] {
  if (!Array.isArray(to)) throw errors.badRequest('Invalid data type for recipients');
  return [...new Set(to)];
}

/** The recipient columns of a checked send: the channel and topic, or the other participants. */
export function targetColumns(actor: LoadedActor, plan: SendPlan) {
  if (plan.target.kind === 'stream') {
    return { recipientType: 'stream', streamId: plan.target.stream.id, toUserIds: [] as number[], topic: plan.target.topic };
  }
  const others = plan.target.recipients.map((r) => r.id).sort((a, b) => a - b);
  return { recipientType: 'private', streamId: null, toUserIds: others.length ? others : [actor.userId], topic: '' };
}

const toSelf = (plan: SendPlan) => plan.target.kind === 'private' && plan.target.recipients.length === 0;

export interface ScheduleInput {
  type: string;
  to: unknown;
  content: string;
  topic?: string;
  /** UNIX seconds. */
  deliverAt: number;
  readBySender?: boolean;
  client: string;
}

/** Validates a new scheduled message exactly as a send would be, and returns its row. */
export async function checkScheduleMessage(services: Services, actor: LoadedActor, input: ScheduleInput): Promise<Prisma.ScheduledMessageUncheckedCreateInput> {
  const kind = scheduledKind(input.type);
  const scheduledTimestamp = futureDeliveryTime(input.deliverAt);
  const to = parseScheduledTo(input.to);
  const plan = await checkSendMessage(services, actingCaller(actor), {
    type: kind,
    to: kind === 'stream' ? streamIdOf(to) : recipientIdsOf(to),
    content: input.content,
    topic: input.topic,
    client: input.client,
  });
  return {
    realmId: actor.realmId,
    senderId: actor.userId,
    deliveryType: DELIVERY_TYPE.SEND_LATER,
    ...targetColumns(actor, plan),
    content: plan.content,
    renderedContent: plan.rendered.html,
    scheduledTimestamp,
    // As the reference does: a message scheduled from an interactive client starts read for its
    // sender, unless it is addressed to the sender alone.
    readBySender: input.readBySender ?? (defaultReadBySender(input.client) && !toSelf(plan)),
    sendingClient: input.client,
    realmUrl: actor.realmUrl,
  };
}

async function announce(tx: Tx, actor: LoadedActor, event: Record<string, unknown>): Promise<void> {
  await recordEvent(tx, { realmId: actor.realmId, type: 'scheduled_messages', users: [actor.userId], event: { type: 'scheduled_messages', ...event } });
}

export async function doScheduleMessage(services: Services, actor: LoadedActor, data: Prisma.ScheduledMessageUncheckedCreateInput): Promise<number> {
  return services.db.$transaction(async (tx) => {
    const row = await tx.scheduledMessage.create({ data });
    await announce(tx, actor, { op: 'add', scheduled_messages: [scheduledMessageObject(row)] });
    return row.id;
  });
}

export async function listScheduledMessages(services: Services, actor: LoadedActor) {
  const rows = await services.db.scheduledMessage.findMany({
    where: { realmId: actor.realmId, senderId: actor.userId, deliveryType: DELIVERY_TYPE.SEND_LATER, delivered: false },
    orderBy: [{ scheduledTimestamp: 'asc' }, { id: 'asc' }],
  });
  return rows.map(scheduledMessageObject);
}

export interface EditInput {
  type?: string;
  to?: unknown;
  topic?: string;
  content?: string;
  deliverAt?: number;
  client: string;
}

/** What an edit asks for, checked before the row is looked at (as the reference orders it). */
export function checkEditRequest(input: EditInput): { kind?: 'stream' | 'private'; to?: ScheduledTo; deliverAt?: Date } {
  const { type, to, topic, content, deliverAt } = input;
  if (type === undefined && to === undefined && topic === undefined && content === undefined && deliverAt === undefined) {
    throw errors.badRequest('Nothing to change');
  }
  const kind = type ? scheduledKind(type) : undefined;
  if (kind && to === undefined) throw errors.badRequest('Recipient required when updating type of scheduled message.');
  if (kind === 'stream' && topic === undefined) throw errors.badRequest('Topic required when updating scheduled message type to channel.');
  return {
    kind,
    to: to === undefined ? undefined : parseScheduledTo(to),
    deliverAt: deliverAt === undefined ? undefined : futureDeliveryTime(deliverAt),
  };
}

/** The sender's own scheduled message, locked so a delivery in progress finishes first. */
async function lockScheduledMessage(tx: Tx, actor: LoadedActor, id: number): Promise<ScheduledMessage> {
  const locked = await tx.$queryRawUnsafe<Array<{ id: number }>>(
    'SELECT id FROM scheduled_messages WHERE id = $1 AND sender_id = $2 AND realm_id = $3 AND delivery_type = $4 FOR UPDATE',
    id,
    actor.userId,
    actor.realmId,
    DELIVERY_TYPE.SEND_LATER,
  );
  if (!locked.length) throw errors.resourceNotFound('Scheduled message does not exist');
  return tx.scheduledMessage.findUniqueOrThrow({ where: { id } });
}

export async function doEditScheduledMessage(services: Services, actor: LoadedActor, id: number, input: EditInput): Promise<void> {
  const request = checkEditRequest(input);
  await services.db.$transaction(
    async (tx) => {
      const row = await lockScheduledMessage(tx, actor, id);
      if (row.delivered) throw errors.badRequest('Scheduled message was already sent');
      // A message the server failed to send needs a new time before it may be tried again.
      if (row.failed && !request.deliverAt) throw errors.badRequest('Scheduled delivery time must be in the future.');
      const data: Prisma.ScheduledMessageUncheckedUpdateInput = {};
      const retarget = request.kind !== undefined || request.to !== undefined;
      if (retarget || input.content !== undefined) {
        // Recipients or content changed: the whole message is checked again, as a send would be.
        const kind = request.kind ?? (row.recipientType as 'stream' | 'private');
        let to: number | number[];
        if (request.to !== undefined) to = kind === 'stream' ? streamIdOf(request.to) : recipientIdsOf(request.to);
        else to = row.recipientType === 'stream' ? row.streamId! : row.toUserIds;
        const plan = await checkSendMessage(services, actingCaller(actor), {
          type: kind,
          to,
          content: input.content ?? row.content,
          topic: input.topic ?? row.topic,
          client: input.client,
        });
        if (retarget) Object.assign(data, targetColumns(actor, plan));
        else if (input.topic !== undefined && row.recipientType === 'stream') data.topic = (plan.target as { topic: string }).topic;
        if (input.content !== undefined) Object.assign(data, { content: plan.content, renderedContent: plan.rendered.html });
      } else if (input.topic !== undefined && row.recipientType === 'stream') {
        // A topic sent for a direct message is ignored, as the reference does.
        data.topic = normalizeTopic(input.topic);
      }
      if (request.deliverAt) data.scheduledTimestamp = request.deliverAt;
      Object.assign(data, { sendingClient: input.client, realmUrl: actor.realmUrl, failed: false, failureMessage: null });
      const updated = await tx.scheduledMessage.update({ where: { id }, data });
      await announce(tx, actor, { op: 'update', scheduled_message: scheduledMessageObject(updated) });
    },
    { timeout: 30_000 },
  );
}

export async function doDeleteScheduledMessage(services: Services, actor: LoadedActor, id: number): Promise<void> {
  await services.db.$transaction(async (tx) => {
    await lockScheduledMessage(tx, actor, id);
    await tx.scheduledMessage.delete({ where: { id } });
    await announce(tx, actor, { op: 'remove', scheduled_message_id: id });
  });
}

/** The events of the delivery loop, recorded in its transaction. */
export async function announceScheduledMessage(tx: Tx, row: ScheduledMessage, op: 'update' | 'remove'): Promise<void> {
  const event = op === 'remove' ? { op, scheduled_message_id: row.id } : { op, scheduled_message: scheduledMessageObject(row) };
  await recordEvent(tx, { realmId: row.realmId, type: 'scheduled_messages', users: [row.senderId], event: { type: 'scheduled_messages', ...event } });
}
