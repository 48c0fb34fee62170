/**
 * The viewer's undelivered scheduled messages and reminders, failed ones included (clients show
 * those so that a failure does not go unnoticed), soonest first: the same objects the messaging
 * service puts in its `scheduled_messages` and `reminders` events.
 */
import type { Db } from '@chat/db';
import { DELIVERY_TYPE, reminderObject, scheduledMessageObject } from '@chat/wire';
import { registerRows } from './register-rows';
import type { StateOptions, Want } from '.';

export async function scheduledSections(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  if (!want('scheduled_messages') && !want('reminders')) return out;
  const { scheduledMessages } = await registerRows(db, opts);
  const of = (type: number) => scheduledMessages.filter((m) => m.deliveryType === type);
  if (want('scheduled_messages')) out.scheduled_messages = of(DELIVERY_TYPE.SEND_LATER).map(scheduledMessageObject);
  if (want('reminders')) out.reminders = of(DELIVERY_TYPE.REMIND).map(reminderObject);
  return out;
}
