/**
 * The viewer's undelivered scheduled messages and reminders, failed ones included (clients show
 * those so that a failure does not go unnoticed), soonest first: the same objects the messaging
 * service puts in its `scheduled_messages` and `reminders` events.
 */
import type { Db } from '@chat/db';
import { DELIVERY_TYPE, reminderObject, scheduledMessageObject } from '@chat/wire';
import type { StateOptions, Want } from '.';

async function undelivered(db: Db, opts: StateOptions, deliveryType: number) {
  const userId = opts.identity.userId;
  if (userId === undefined) return [];
  return db.scheduledMessage.findMany({
    where: { realmId: opts.realm.id, senderId: userId, deliveryType, delivered: false },
    orderBy: [{ scheduledTimestamp: 'asc' }, { id: 'asc' }],
  });
}

export async function scheduledSections(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const [scheduled, reminders] = await Promise.all([
    want('scheduled_messages') ? undelivered(db, opts, DELIVERY_TYPE.SEND_LATER) : null,
    want('reminders') ? undelivered(db, opts, DELIVERY_TYPE.REMIND) : null,
  ]);
  const out: Record<string, unknown> = {};
  if (scheduled) out.scheduled_messages = scheduled.map(scheduledMessageObject);
  if (reminders) out.reminders = reminders.map(reminderObject);
  return out;
}
