import type { Services } from '../context';
import { DIGEST_JOB, DIGEST_RUN_JOB, doQueueDigests, renderDigest, type DigestJob } from '../actions/digests';
import type { MailJobHandlers, MailRenderers } from './mail';

/**
 * Digest emails on the mail queue: a scheduled daily run (DIGEST_EMAIL_CRON, one run per day
 * cluster-wide: BullMQ's job scheduler) queues one job per person due, each rendered when it runs.
 */
export function digestMail(services: Services): { renderers: MailRenderers; handlers: MailJobHandlers; schedule(): Promise<void> } {
  return {
    renderers: { [DIGEST_JOB]: (data) => renderDigest(services, data as DigestJob) },
    handlers: {
      [DIGEST_RUN_JOB]: async (data) => {
        // A run queued by hand (or a test) may name its day; the scheduler's runs are for now.
        const at = (data as { now?: string }).now;
        const queued = await doQueueDigests(services, at ? new Date(at) : new Date());
        services.log.info({ queued }, 'digest emails queued');
      },
    },
    async schedule() {
      if (services.config.DIGEST_EMAIL_CRON) await services.mail.schedule(DIGEST_RUN_JOB, services.config.DIGEST_EMAIL_CRON);
    },
  };
}
