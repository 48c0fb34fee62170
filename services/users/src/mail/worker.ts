import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { createRedis } from '@chat/bus';
import type { Logger } from '@chat/kit';
import type { UsersConfig } from '../config';
import { MAIL_QUEUE } from './queue';
import { PermanentMailError, type MailMessage, type MailTransport } from './transport';

/**
 * Sends queued mail. A failure worth retrying (network, timeout, 4xx) is rethrown so BullMQ
 * retries the job with backoff; a permanent refusal ends it at once.
 */
export function startMailWorker(
  deps: { config: UsersConfig; log: Logger; transport: MailTransport },
  connection: ReturnType<typeof createRedis>,
  prefix: string,
): Worker {
  const worker = new Worker(MAIL_QUEUE, (job: Job<MailMessage>) => sendJob(deps, job), {
    connection,
    prefix,
    concurrency: deps.config.EMAIL_WORKER_CONCURRENCY,
  });
  worker.on('failed', (job, err) => {
    deps.log.warn({ err, jobId: job?.id, attempts: job?.attemptsMade, to: job?.data.to }, 'mail not sent');
  });
  worker.on('error', (err) => deps.log.warn({ err }, 'mail worker error'));
  return worker;
}

async function sendJob(deps: { log: Logger; transport: MailTransport }, job: Job<MailMessage>): Promise<void> {
  try {
    await deps.transport.send(job.data);
  } catch (err) {
    if (err instanceof PermanentMailError) throw new UnrecoverableError(err.message);
    throw err;
  }
  deps.log.info({ jobId: job.id, to: job.data.to, subject: job.data.subject, via: deps.transport.kind }, 'mail sent');
}
