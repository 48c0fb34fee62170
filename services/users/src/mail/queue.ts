import { Queue } from 'bullmq';
import type { createRedis } from '@chat/bus';
import type { UsersConfig } from '../config';
import type { MailMessage } from './transport';

/**
 * Outgoing mail is a BullMQ job in Redis: the request that causes a message only queues it, so
 * a slow mail server never holds it, and a failed send is retried with exponential backoff,
 * surviving restarts of the service.
 */
export const MAIL_QUEUE = 'mail';

export interface MailQueue {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export function createMailQueue(connection: ReturnType<typeof createRedis>, prefix: string, config: UsersConfig): MailQueue {
  const queue = new Queue(MAIL_QUEUE, {
    connection,
    prefix,
    defaultJobOptions: {
      attempts: config.EMAIL_RETRY_ATTEMPTS,
      backoff: { type: 'exponential', delay: config.EMAIL_RETRY_BASE_MS },
      removeOnComplete: { age: 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
  });
  return {
    async send(message) {
      await queue.add('send', message);
    },
    close: () => queue.close(),
  };
}
