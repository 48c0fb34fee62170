/**
 * Delivery of scheduled messages and reminders when they fall due.
 *
 * The row is the job: every messaging replica polls for due rows and claims one at a time with
 * `SELECT ... FOR UPDATE SKIP LOCKED`, then sends it and marks it delivered in that same
 * transaction. A message therefore goes out exactly once however many replicas poll (the others
 * skip the locked row, and find it delivered once the lock is released), and nothing is lost
 * across restarts (a replica that dies mid-send rolls back, and the row is due again for whoever
 * polls next). A failed send is rolled back to a savepoint and the row marked `failed` in the
 * same transaction, so a failure is recorded exactly once too.
 */
import { ApiError, errors } from '@chat/contracts';
import type { ScheduledMessage, Tx } from '@chat/db';
import { DELIVERY_TYPE } from '@chat/wire';
import { actorOf, type LoadedActor } from '../lib/caller';
import type { Services } from '../context';
import { normalizeContent } from '../lib/text';
import { loadRenderContext, renderMarkdown } from '../markdown';
import { accessMessage } from '../actions/message-access';
import { notificationBot } from '../actions/move-notices';
import { announceReminder } from '../actions/reminders';
import { reminderContent } from '../actions/reminder-content';
import { announceScheduledMessage } from '../actions/scheduled-messages';
import { actingCaller, checkSendMessage, sendMessageInTx } from '../actions/send';

/** A scheduled message more than this late is not sent at all (reminders always are). */
export const LATE_CUTOFF_MS = 10 * 60 * 1000;

const CLAIM_DUE_ROW = `
  SELECT id FROM scheduled_messages
   WHERE NOT delivered AND NOT failed AND scheduled_timestamp <= (now() AT TIME ZONE 'UTC')
   ORDER BY scheduled_timestamp, id
   LIMIT 1
   FOR UPDATE SKIP LOCKED`;

/** The sender, if their realm and account are still active (the checks a request would pass). */
async function activeSender(tx: Tx, row: ScheduledMessage): Promise<LoadedActor> {
  const realm = await tx.realm.findUniqueOrThrow({ where: { id: row.realmId } });
  if (realm.deactivated) throw errors.realmDeactivated();
  const user = await tx.user.findUniqueOrThrow({ where: { id: row.senderId } });
  if (!user.isActive) throw errors.userDeactivated();
  return actorOf(user, row.realmUrl);
}

/** A direct message from the notification bot to `to`, rendered as `to` sees the realm. */
async function botDirectMessage(tx: Tx, bot: LoadedActor, to: LoadedActor, raw: string): Promise<number> {
  const content = normalizeContent(raw);
  const rendered = renderMarkdown(content, await loadRenderContext(tx, to.realmId, to.realmUrl, content, to.userId));
  const result = await sendMessageInTx(tx, {
    actor: bot,
    target: { kind: 'private', recipients: [{ id: to.userId, email: to.email }] },
    content,
    rendered,
    input: { type: 'private', to: [to.userId], content, client: 'Internal', readBySender: true },
  });
  return result.id;
}

/** Sends a scheduled message as its sender, checked again as if it were sent now. */
async function sendScheduled(services: Services, tx: Tx, row: ScheduledMessage): Promise<number> {
  const sender = await activeSender(tx, row);
  if (Date.now() > row.scheduledTimestamp.getTime() + LATE_CUTOFF_MS) {
    throw errors.badRequest('Message could not be sent at the scheduled time.');
  }
  const plan = await checkSendMessage(services, actingCaller(sender), {
    type: row.recipientType,
    to: row.recipientType === 'stream' ? row.streamId : row.toUserIds,
    content: row.content,
    topic: row.topic,
    client: row.sendingClient,
    readBySender: row.readBySender,
  });
  return (await sendMessageInTx(tx, plan)).id;
}

/**
 * Sends a reminder from the notification bot. Its text is built again from the message as it
 * is now; a message the user can no longer read is recalled as it was when the reminder was set.
 */
async function sendReminder(tx: Tx, row: ScheduledMessage, bot: LoadedActor): Promise<number> {
  const user = await activeSender(tx, row);
  let content = row.content;
  try {
    const { message } = await accessMessage(tx, user, row.reminderTargetMessageId!);
    content = await reminderContent(tx, user, message, row.reminderNote ?? '');
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
  }
  return botDirectMessage(tx, bot, user, content);
}

/** Global time syntax of a UTC instant, as the reference writes it into notices. */
const globalTime = (d: Date) => `<time:${d.toISOString().slice(0, 19)}+00:00>`;

async function markFailed(services: Services, tx: Tx, row: ScheduledMessage, err: unknown): Promise<void> {
  const known = err instanceof ApiError ? err : null;
  if (!known) services.log.error({ err, scheduledMessageId: row.id }, 'unexpected error delivering a scheduled message');
  const failureMessage = known ? known.message : 'Internal server error';
  services.log.info({ scheduledMessageId: row.id, failureMessage }, 'scheduled message not delivered');
  const updated = await tx.scheduledMessage.update({ where: { id: row.id }, data: { failed: true, failureMessage } });
  // No one to tell when the realm or the account is gone; reminders have no failure notice.
  if (row.deliveryType === DELIVERY_TYPE.REMIND || known?.code === 'REALM_DEACTIVATED' || known?.code === 'USER_DEACTIVATED') return;
  await announceScheduledMessage(tx, updated, 'update');
  await tx.$executeRawUnsafe('SAVEPOINT scheduled_failure_notice');
  try {
    const sender = await activeSender(tx, row);
    const notice =
      `The message you scheduled for ${globalTime(row.scheduledTimestamp)} was not sent because of the following error:\n\n` +
      `> ${failureMessage}\n\n[View scheduled messages](#scheduled)`;
    await botDirectMessage(tx, await notificationBot(tx, sender), sender, notice);
  } catch (noticeErr) {
    // The failure itself stays recorded; only the courtesy notice is lost.
    await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT scheduled_failure_notice');
    services.log.warn({ err: noticeErr, scheduledMessageId: row.id }, 'could not send the failed scheduled message notice');
  }
}

/**
 * Claims one due row and delivers it (or records its failure). False when nothing was due or
 * every due row is being delivered by another replica.
 */
export async function deliverOneDue(services: Services): Promise<boolean> {
  return services.db.$transaction(
    async (tx) => {
      const [claimed] = await tx.$queryRawUnsafe<Array<{ id: number }>>(CLAIM_DUE_ROW);
      if (!claimed) return false;
      const row = await tx.scheduledMessage.findUniqueOrThrow({ where: { id: claimed.id } });
      const reminder = row.deliveryType === DELIVERY_TYPE.REMIND;
      // The bot is found (or, the first time in a realm, created) before the savepoint: should
      // two replicas race to create it, the loser rolls back whole and retries on its next poll
      // instead of recording a failure.
      const bot = reminder ? await notificationBot(tx, actorOf(await tx.user.findUniqueOrThrow({ where: { id: row.senderId } }), row.realmUrl)) : null;
      await tx.$executeRawUnsafe('SAVEPOINT scheduled_delivery');
      try {
        const messageId = bot ? await sendReminder(tx, row, bot) : await sendScheduled(services, tx, row);
        await tx.scheduledMessage.update({ where: { id: row.id }, data: { delivered: true, deliveredMessageId: messageId } });
        if (reminder) await announceReminder(tx, row, { op: 'remove', reminder_id: row.id });
        else await announceScheduledMessage(tx, row, 'remove');
      } catch (err) {
        await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT scheduled_delivery');
        await markFailed(services, tx, row, err);
      }
      return true;
    },
    { timeout: 60_000 },
  );
}

/** The polling loop of one replica: due rows one after another, then a pause. */
export class ScheduledDelivery {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly services: Services,
    private readonly pollMs: number,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let delivered = false;
      try {
        delivered = await deliverOneDue(this.services);
      } catch (err) {
        this.services.log.warn({ err }, 'scheduled delivery round failed');
      }
      if (!delivered && this.running) await this.pause();
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.pollMs);
      this.wake = done;
    });
  }

  /** Stops polling; a delivery in progress finishes (or rolls back) first. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }
}
