/**
 * Reminders: at the chosen time the notification bot sends the user a direct message about one
 * of the messages they can read. Stored beside scheduled messages (delivery type REMIND);
 * `reminders` events go to the user alone.
 */
import type { Prisma, ScheduledMessage, Tx } from '@chat/db';
import { errors } from '@chat/contracts';
import { DELIVERY_TYPE, reminderObject } from '@chat/wire';
import type { LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { recordEvent } from '@chat/bus';
import { accessMessage } from './message-access';
import { normalizeReminderNote, reminderContent } from './reminder-content';
import { futureDeliveryTime } from './scheduled-messages';
import { actingCaller, checkSendMessage } from './send';

export interface ReminderInput {
  messageId: number;
  /** UNIX seconds. */
  deliverAt: number;
  note?: string;
  client: string;
}

export async function checkCreateReminder(services: Services, actor: LoadedActor, input: ReminderInput): Promise<Prisma.ScheduledMessageUncheckedCreateInput> {
  const scheduledTimestamp = futureDeliveryTime(input.deliverAt);
  const { message } = await accessMessage(services.db, actor, input.messageId);
  const note = input.note ? normalizeReminderNote(input.note) : '';
  const content = await reminderContent(services.db, actor, message, note);
  // Checked as a direct message to oneself, though the notification bot will send it.
  const plan = await checkSendMessage(services, actingCaller(actor), { type: 'private', to: [actor.userId], content, client: input.client });
  return {
    realmId: actor.realmId,
    senderId: actor.userId,
    deliveryType: DELIVERY_TYPE.REMIND,
    recipientType: 'private',
    streamId: null,
    toUserIds: [actor.userId],
    topic: '',
    content: plan.content,
    renderedContent: plan.rendered.html,
    scheduledTimestamp,
    readBySender: false,
    sendingClient: input.client,
    realmUrl: actor.realmUrl,
    reminderTargetMessageId: message.id,
    reminderNote: note || null,
  };
}

export async function doCreateReminder(services: Services, actor: LoadedActor, data: Prisma.ScheduledMessageUncheckedCreateInput): Promise<number> {
  return services.db.$transaction(async (tx) => {
    const row = await tx.scheduledMessage.create({ data });
    await announceReminder(tx, row, { op: 'add', reminders: [reminderObject(row)] });
    return row.id;
  });
}

export async function listReminders(services: Services, actor: LoadedActor) {
  const rows = await services.db.scheduledMessage.findMany({
    where: { realmId: actor.realmId, senderId: actor.userId, deliveryType: DELIVERY_TYPE.REMIND, delivered: false },
    orderBy: [{ scheduledTimestamp: 'asc' }, { id: 'asc' }],
  });
  return rows.map(reminderObject);
}

export async function doDeleteReminder(services: Services, actor: LoadedActor, id: number): Promise<void> {
  await services.db.$transaction(async (tx) => {
    // Locked, so that a delivery in progress finishes first.
    const locked = await tx.$queryRawUnsafe<Array<{ id: number }>>(
      'SELECT id FROM scheduled_messages WHERE id = $1 AND sender_id = $2 AND realm_id = $3 AND delivery_type = $4 FOR UPDATE',
      id,
      actor.userId,
      actor.realmId,
      DELIVERY_TYPE.REMIND,
    );
    if (!locked.length) throw errors.resourceNotFound('Reminder does not exist');
    const row = await tx.scheduledMessage.delete({ where: { id } });
    await announceReminder(tx, row, { op: 'remove', reminder_id: id });
  });
}

export async function announceReminder(tx: Tx, row: ScheduledMessage, event: Record<string, unknown>): Promise<void> {
  await recordEvent(tx, { realmId: row.realmId, type: 'reminders', users: [row.senderId], event: { type: 'reminders', ...event } });
}
