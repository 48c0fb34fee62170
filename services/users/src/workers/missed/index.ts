import type { Keyspace, StreamConsumer } from '@chat/bus';
import { ActiveClients } from '@chat/notify';
import type { Services } from '../../context';
import { doSendMissedMessages } from '../../actions/missed-messages';
import type { MailJobHandlers } from '../mail';
import { MISSED_BATCH_JOB, MissedBatches, type MissedBatchJob } from './batch';
import { startMissedMessageConsumer } from './consumer';

export { MISSED_BATCH_JOB, MissedBatches, type MissedBatchJob } from './batch';

/**
 * Missed-message email: the stream consumer that batches new messages per person (unless
 * MISSED_MESSAGE_EMAILS is off on this replica), and the mail job that mails a batch when it is due.
 */
export async function startMissedMessageMail(services: Services, keys: Keyspace, consumerName: string): Promise<{ handlers: MailJobHandlers; stop(): Promise<void> }> {
  const batches = new MissedBatches(services.redis, keys, services.mail);
  let consumer: StreamConsumer | undefined;
  if (services.config.MISSED_MESSAGE_EMAILS) {
    const active = new ActiveClients(services.redis, services.config.REDIS_PREFIX, services.config.ACTIVE_CLIENT_WINDOW_SECONDS);
    consumer = await startMissedMessageConsumer(services, { keys, consumer: consumerName, active, batches });
  }
  return {
    handlers: { [MISSED_BATCH_JOB]: (data) => doSendMissedMessages(services, batches, data as MissedBatchJob) },
    stop: async () => {
      await consumer?.stop();
    },
  };
}
