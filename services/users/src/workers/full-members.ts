import { redisKeys } from '@chat/bus';
import type { Services } from '../context';
import { doAnnounceNewFullMembers, FULL_MEMBERS_RUN_JOB } from '../actions/full-members';
import type { MailJobHandlers } from './mail';

/** The window of a first run, when no earlier run left its time: one hour, the default schedule's period. */
const FIRST_WINDOW_MS = 3_600_000;

/**
 * The full-members job on the users service's job queue: a scheduled run (FULL_MEMBERS_CRON,
 * once per run cluster-wide: BullMQ's job scheduler) announces the members who became full
 * members since the run before, whose time it keeps in Redis, so a run missed while the
 * service was down is covered by the next.
 */
export function fullMembersJob(services: Services): { handlers: MailJobHandlers; schedule(): Promise<void> } {
  const key = redisKeys(services.config.REDIS_PREFIX).fullMembersAnnouncedUntil();
  return {
    handlers: {
      [FULL_MEMBERS_RUN_JOB]: async (data) => {
        // A run queued by hand (or a test) may name its time; the scheduler's runs are for now.
        const at = (data as { now?: string }).now;
        const until = at ? new Date(at) : new Date();
        const held = await services.redis.get(key);
        const since = held ? new Date(held) : new Date(until.getTime() - FIRST_WINDOW_MS);
        if (since >= until) return;
        const announced = await doAnnounceNewFullMembers(services.db, since, until);
        await services.redis.set(key, until.toISOString());
        if (announced) services.log.info({ announced }, 'new full members announced');
      },
    },
    async schedule() {
      if (services.config.FULL_MEMBERS_CRON) await services.mail.schedule(FULL_MEMBERS_RUN_JOB, services.config.FULL_MEMBERS_CRON);
    },
  };
}
