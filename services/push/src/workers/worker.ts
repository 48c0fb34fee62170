import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { createRedis } from '@chat/bus';
import type { Services } from '../context';
import { RelayError } from '../lib/relay';
import { QUEUE_NAME, type ChannelProgress, type NotifyJob, type RelayRegistrationJob, type RemoveJob } from '../lib/jobs';
import { doCompleteRegistration, doFailRegistration } from '../actions/registration';
import { doSyncLegacyToken, type LegacySyncJob, type LegacyUnregisterAllJob } from '../actions/legacy-registration';
import { REALMS_JOB, doUploadRealmsToRelay } from '../actions/relay-realms';
import { doDeliverNotification, doDeliverRemoval, type Progress } from '../actions/delivery';

/**
 * Runs delivery jobs. A relay failure worth retrying (network, timeout, 5xx) is rethrown so
 * BullMQ retries the job with exponential backoff; a failure no retry can fix ends the job.
 */
export function startDeliveryWorker(services: Services, connection: ReturnType<typeof createRedis>): Worker {
  const worker = new Worker(QUEUE_NAME, (job) => processJob(services, job), {
    connection,
    prefix: services.keys.bullPrefix(),
    concurrency: services.config.PUSH_WORKER_CONCURRENCY,
  });
  worker.on('failed', (job, err) => {
    services.log.warn({ err, job: job?.name, jobId: job?.id, attempts: job?.attemptsMade }, 'push job failed');
  });
  worker.on('error', (err) => services.log.warn({ err }, 'push worker error'));
  return worker;
}

async function processJob(services: Services, job: Job): Promise<void> {
  const relay = services.relay;
  if (!relay) throw new UnrecoverableError('push relay is not configured');
  switch (job.name) {
    case 'register':
      return processRegistration(services, job as Job<RelayRegistrationJob>);
    case 'notify':
      return withRetryPolicy(job, () => doDeliverNotification(services, relay, job.data as NotifyJob, progressOf(job)));
    case 'remove':
      return withRetryPolicy(job, () => doDeliverRemoval(services, relay, job.data as RemoveJob, progressOf(job)));
    case 'legacy-sync':
      return withRetryPolicy(job, async () => void (await doSyncLegacyToken(services, relay, job.data as LegacySyncJob)));
    case REALMS_JOB:
      return doUploadRealmsToRelay(services);
    case 'legacy-unregister-all': {
      const data = job.data as LegacyUnregisterAllJob;
      return withRetryPolicy(job, () => relay.unregisterAllLegacy({ realmId: data.realmId, userId: data.userId }));
    }
    default:
      throw new UnrecoverableError(`unknown push job ${job.name}`);
  }
}

/** Progress lives in the job's data in Redis, so it outlasts the attempt (and a restart). */
function progressOf(job: Job<ChannelProgress>): Progress {
  const done = { ...(job.data.sent ?? {}) };
  return {
    done,
    record: async (channel, reached) => {
      done[channel] = reached;
      await job.updateData({ ...job.data, sent: { ...done } });
    },
  };
}

function isLastAttempt(job: Job): boolean {
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

async function withRetryPolicy(job: Job, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (err instanceof RelayError && !err.retryable) throw new UnrecoverableError(err.message);
    throw err;
  }
}

async function processRegistration(services: Services, job: Job<RelayRegistrationJob>): Promise<void> {
  const data = job.data;
  try {
    await services.relay!.register({
      realmId: data.realmId,
      token_id: data.tokenId,
      token_kind: data.tokenKind,
      bouncer_public_key: data.bouncerPublicKey,
      encrypted_push_registration: data.encryptedPushRegistration,
    });
  } catch (err) {
    if (err instanceof RelayError && err.kind === 'rejected') {
      await doFailRegistration(services, data, err.code ?? 'BAD_REQUEST');
      return;
    }
    // Network, 5xx, or a server-side configuration problem an admin can fix: keep trying for
    // as long as the job's attempts last, then tell the client the registration expired.
    if (isLastAttempt(job)) {
      await doFailRegistration(services, data, 'REQUEST_EXPIRED');
      services.log.error({ err, userId: data.userId, deviceId: data.deviceId }, 'push device registration expired');
      return;
    }
    throw err;
  }
  await doCompleteRegistration(services, data);
}
