import { Queue } from 'bullmq';
import type { createRedis } from '@chat/bus';
import type { UsersConfig } from '../../config';
import type { MailMessage } from './transport';

/**
 * Outgoing mail is a BullMQ job in Redis: the request that causes a message only queues it, so
 * a slow mail server never holds it, and a failed send is retried with exponential backoff,
 * surviving restarts of the service.
 */
export const MAIL_QUEUE = 'mail';

export interface MailQueue {
  /**
   * Queues a rendered message. With `jobId`, queueing the same id again (a job that queues mail,
   * retried) adds nothing while the first is kept.
   */
  send(message: MailMessage, opts?: { jobId?: string }): Promise<void>;
  /**
   * A job that renders its message only when it runs (`delayMs` from now), so it can check
   * that the message is still due. `jobId` names it: scheduling the same id again replaces
   * the earlier job.
   */
  sendLater(name: string, data: object, opts: { delayMs: number; jobId: string }): Promise<void>;
  /** Drops a job of sendLater that has not run yet (one running now goes ahead). */
  cancel(jobId: string): Promise<void>;
  /** Queues a job of a registered handler or renderer now; an id already queued adds nothing. */
  enqueue(name: string, data: object, jobId: string): Promise<void>;
  /** Runs a job of `name` on a cron pattern (UTC), once per run however many replicas ask. */
  schedule(name: string, pattern: string): Promise<void>;
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
  // The connection reports its own outages (createRedis); this copy only must not go unheard.
  queue.on('error', () => undefined);
  const cancel = async (jobId: string) => {
    const job = await queue.getJob(jobId);
    if (job) await job.remove().catch(() => undefined);
  };
  return {
    async send(message, opts) {
      await queue.add('send', message, opts?.jobId ? { jobId: opts.jobId } : {});
    },
    async sendLater(name, data, { delayMs, jobId }) {
      // A job with this id, waiting or finished, would make add() a no-op: it goes first. One
      // being sent right now cannot be removed, and the new one is then dropped: its message
      // is going out anyway.
      await cancel(jobId);
      await queue.add(name, data, { delay: Math.max(0, delayMs), jobId });
    },
    cancel,
    async enqueue(name, data, jobId) {
      await queue.add(name, data, { jobId });
    },
    async schedule(name, pattern) {
      await queue.upsertJobScheduler(name, { pattern, tz: 'UTC' }, { name, data: {} });
    },
    close: () => queue.close(),
  };
}
