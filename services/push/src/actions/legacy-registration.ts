import type { OutboxPayload } from '@chat/contracts';
import type { Services } from '../context';
import { LEGACY_TOKEN_KIND, RelayError, type RelayClient } from '../lib/relay';
import type { LegacyToken } from '../lib/legacy';

/**
 * Keeps the relay's record of a user's legacy tokens in step with ours. The relay delivers a
 * `remotes/push/notify` only to tokens it holds, and reports every other listed token as
 * deleted, which makes us delete it too: a notification that reached the relay before the
 * token's registration would cost the user the token. So:
 *
 * - adding or removing a token first marks it pending (a Redis hash per user, the value counting
 *   changes), then writes the row, then queues a `legacy-sync` job;
 * - the job, holding a per-token lock so that jobs of one token apply one at a time, reads the
 *   row as it is now and registers the token (row present) or unregisters it (row gone), then
 *   clears the mark unless a newer change came in meanwhile. The last job to run therefore
 *   applies the last change, however the retries of earlier jobs interleave;
 * - a notification lists a token only once the mark is gone: a token still pending is synced
 *   right there, first (a relay failure then fails the notification, which is retried).
 */

export interface LegacySyncJob {
  realmId: number;
  userId: number;
  kind: LegacyToken['kind'];
  token: string;
}

/** Forget all of a deactivated user's legacy tokens at the relay. */
export interface LegacyUnregisterAllJob {
  realmId: number;
  userId: number;
}

function pendingKey(services: Services, userId: number): string {
  return services.keys.pushLegacyPending(userId);
}

const field = (t: { kind: string; token: string }) => `${t.kind}:${t.token}`;

/** Step one of a change: from here on, notifications leave the token out until it is synced. */
export async function doMarkLegacyPending(services: Services, userId: number, token: LegacyToken): Promise<void> {
  if (!services.relay) return;
  await services.redis.hincrby(pendingKey(services, userId), field(token), 1);
}

/** Step three: the job that brings the relay in line with the row. */
export async function doEnqueueLegacySync(services: Services, job: LegacySyncJob): Promise<void> {
  if (!services.relay) return;
  await services.queue.add('legacy-sync', job);
}

export async function doEnqueueLegacyUnregisterAll(services: Services, job: LegacyUnregisterAllJob): Promise<void> {
  if (!services.relay) return;
  await services.redis.del(pendingKey(services, job.userId));
  await services.queue.add('legacy-unregister-all', job);
}

/** Deletes the field only if no change counted it up since it was read. */
const CLEAR_IF_UNCHANGED = `if redis.call('hget', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('hdel', KEYS[1], ARGV[1]) end return 0`;

/**
 * Registers or unregisters one token, whichever its row says now. Returns whether the relay
 * holds the token afterwards.
 */
export async function doSyncLegacyToken(services: Services, relay: RelayClient, job: LegacySyncJob): Promise<boolean> {
  const key = pendingKey(services, job.userId);
  const f = field(job);
  // Jobs of one token run one at a time (a transaction-level advisory lock, released however
  // the transaction ends); the transaction may last as long as two relay calls.
  return services.db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(${job.userId}::int, hashtext(${f}))) AS l`;
      const mark = await services.redis.hget(key, f);
      const row = await tx.pushDeviceToken.findUnique({
        where: { userId_kind_token: { userId: job.userId, kind: job.kind, token: job.token } },
        select: { iosAppId: true },
      });
      const base = { realmId: job.realmId, userId: job.userId, token: job.token, token_kind: LEGACY_TOKEN_KIND[job.kind] };
      if (row) await relay.registerLegacy({ ...base, ...(job.kind === 'apns' && row.iosAppId ? { ios_app_id: row.iosAppId } : {}) });
      else await relay.unregisterLegacy(base);
      if (mark !== null) await services.redis.eval(CLEAR_IF_UNCHANGED, 1, key, f, mark);
      return row !== null;
    },
    { maxWait: 10_000, timeout: services.config.PUSH_RELAY_TIMEOUT_MS * 3 + 5_000 },
  );
}

/**
 * The tokens a notification may list: those the relay holds. A token still pending (its job
 * waiting for a retry, or not run yet) is synced first. A failure worth retrying fails the
 * notification, to be retried with it; a refusal leaves that token out this time.
 */
export async function registeredLegacyTokens(
  services: Services,
  relay: RelayClient,
  target: { realmId: number; userId: number },
  tokens: LegacyToken[],
): Promise<LegacyToken[]> {
  if (!tokens.length) return tokens;
  const pending = new Set(Object.keys(await services.redis.hgetall(pendingKey(services, target.userId))));
  if (!pending.size) return tokens;
  const ready: LegacyToken[] = [];
  for (const t of tokens) {
    if (!pending.has(field(t))) {
      ready.push(t);
      continue;
    }
    try {
      if (await doSyncLegacyToken(services, relay, { ...target, ...t })) ready.push(t);
    } catch (err) {
      if (err instanceof RelayError && !err.retryable) {
        services.log.warn({ err, userId: target.userId, kind: t.kind }, 'push: relay refused a legacy token; left out');
        continue;
      }
      throw err;
    }
  }
  return ready;
}

/**
 * A deactivated user's legacy tokens: forgotten here, and at the relay with one
 * `remotes/push/unregister/all` (which also clears anything an interrupted sync left behind).
 */
export async function doForgetDeactivatedUser(services: Services, realmId: number, payload: Pick<OutboxPayload<'realm_user'>, 'event'>) {
  const { event } = payload;
  if (event.op !== 'update' || event.person.is_active !== false) return;
  const userId = event.person.user_id;
  const removed = await services.db.pushDeviceToken.deleteMany({ where: { userId } });
  if (removed.count) services.log.info({ userId, removed: removed.count }, 'push: deactivated user; legacy tokens removed');
  await doEnqueueLegacyUnregisterAll(services, { realmId, userId });
}
