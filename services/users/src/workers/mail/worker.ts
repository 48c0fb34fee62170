import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { createRedis } from '@chat/bus';
import type { Logger } from '@chat/kit';
import type { UsersConfig } from '../../config';
import { MAIL_QUEUE } from './queue';
import { PermanentMailError, type MailMessage, type MailTransport } from './transport';

/**
 * Renders the message of a delayed job when it runs, or null when it is no longer due (then
 * nothing is sent). Keyed by job name; 'send' jobs carry their message already.
 */
export type MailRenderers = Record<string, (data: unknown) => Promise<MailMessage | null>>;

/**
 * Jobs that send nothing themselves but decide what to send and queue it (a batch of missed
 * messages becomes one mail per conversation, each its own job). Keyed by job name.
 */
export type MailJobHandlers = Record<string, (data: unknown) => Promise<void>>;

/**
 * Sends queued mail. A failure worth retrying (network, timeout, 4xx) is rethrown so BullMQ
 * retries the job with backoff; a permanent refusal ends it at once.
 */
export function startMailWorker(
  deps: { config: UsersConfig; log: Logger; transport: MailTransport; renderers?: MailRenderers; handlers?: MailJobHandlers },
  connection: ReturnType<typeof createRedis>,
  prefix: string,
): Worker {
  const worker = new Worker(MAIL_QUEUE, (job: Job) => runJob(deps, job), {
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

async function runJob(deps: { log: Logger; transport: MailTransport; renderers?: MailRenderers; handlers?: MailJobHandlers }, job: Job): Promise<void> {
  if (job.name === 'send') return sendJob(deps, job, job.data as MailMessage);
  const handle = deps.handlers?.[job.name];
  if (handle) return handle(job.data);
  const render = deps.renderers?.[job.name];
  if (!render) throw new UnrecoverableError(`unknown mail job ${job.name}`);
  const message = await render(job.data);
  if (!message) {
    deps.log.info({ jobId: job.id, name: job.name }, 'mail no longer due');
    return;
  }
  return sendJob(deps, job, message);
}

async function sendJob(deps: { log: Logger; transport: MailTransport }, job: Job, message: MailMessage): Promise<void> {
  try {
    await deps.transport.send(message);
  } catch (err) {
    if (err instanceof PermanentMailError) throw new UnrecoverableError(err.message);
    throw err;
  }
  deps.log.info({ jobId: job.id, to: message.to, subject: message.subject, via: deps.transport.kind }, 'mail sent');
}
