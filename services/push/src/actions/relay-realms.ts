import { doUploadRealms, RelayError } from '@chat/push-relay';
import type { Services } from '../context';
import { realmUrl } from '../lib/realms';

/**
 * Keeps the relay's list of our organizations current. The relay accepts a device or a
 * notification of an organization only once the realm upload has named it (else
 * MISSING_REMOTE_REALM): the upload runs when this service starts, every
 * PUSH_RELAY_REALMS_INTERVAL_MS, and whenever the relay reports an organization it does not know
 * (a realm created since), after which the refused job's retry goes through.
 */
export const REALMS_JOB = 'relay-realms';

export async function doScheduleRealmUploads(services: Services): Promise<void> {
  await services.queue.upsertJobScheduler(REALMS_JOB, { every: services.config.PUSH_RELAY_REALMS_INTERVAL_MS }, { name: REALMS_JOB, data: {} });
  await doRequestRealmUpload(services);
}

/**
 * Requests made while an upload waits share it (one job id); the job leaves nothing behind when
 * done, so the next request after it queues a new one.
 */
export async function doRequestRealmUpload(services: Services): Promise<void> {
  await services.queue.add(REALMS_JOB, {}, { jobId: `${REALMS_JOB}-now`, removeOnComplete: true, removeOnFail: true });
}

export async function doUploadRealmsToRelay(services: Services): Promise<void> {
  const { config } = services;
  if (!config.PUSH_RELAY_URL) return;
  const address = { scheme: config.EXTERNAL_SCHEME, host: config.EXTERNAL_HOST, rootRealm: config.ROOT_REALM };
  try {
    const count = await doUploadRealms(services.db, { url: config.PUSH_RELAY_URL, timeoutMs: config.PUSH_RELAY_TIMEOUT_MS }, (stringId) => realmUrl(address, stringId));
    services.log.info({ realms: count }, 'push: organizations uploaded to the relay');
  } catch (err) {
    // Not registered yet, or refused credentials: nothing to retry until an operator acts.
    if (err instanceof RelayError && !err.retryable) {
      services.log.warn({ err }, 'push: the relay did not take our organizations');
      return;
    }
    throw err;
  }
}
