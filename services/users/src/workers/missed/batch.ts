import type { createRedis, RedisKeys } from '@chat/bus';
import type { Trigger } from '@chat/notify';
import { DEFAULT_USER_SETTINGS } from '@chat/realm';
import type { MailQueue } from '../mail';

type Redis = ReturnType<typeof createRedis>;

/** The mail job that mails one person's batch of missed messages (actions/missed-messages.ts). */
export const MISSED_BATCH_JOB = 'missed-messages';

export interface MissedBatchJob {
  realmId: number;
  userId: number;
  /** Names this batch: the job id, and the value of the batch key while it waits. */
  batchId: string;
}

/**
 * A batch's waiting messages outlive its job by far: if the job is lost (a crash between the
 * batch key and the job), the next message starts a new batch that mails them all.
 */
const PENDING_TTL_SECONDS = 7 * 24 * 3600;
/** How long past its due time a batch key keeps later messages joining a job that never ran. */
const BATCH_GRACE_SECONDS = 300;

/**
 * Per-person batching of missed-message email, as the family batches over
 * `email_notifications_batching_period_seconds`: the first message of a batch schedules one
 * delayed job for the end of the period; later ones join it. Both live in Redis under one hash
 * tag: the pending hash (message id -> trigger) and the batch key naming the job.
 */
export class MissedBatches {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly mail: MailQueue,
  ) {}

  /**
   * Adds messages to the person's batch, scheduling the batch's job if none waits. A stream
   * entry redelivered while its batch waits only sets the same fields again.
   */
  async add(realmId: number, userId: number, entries: Array<{ messageId: number; trigger: Trigger }>, periodSeconds: number): Promise<void> {
    if (!entries.length) return;
    const pending = this.keys.missedMailPending(realmId, userId);
    const batchKey = this.keys.missedMailBatch(realmId, userId);
    const batchId = `missed-${realmId}-${userId}-${Date.now()}-${entries[0]!.messageId}`;
    const fields = entries.flatMap((e) => [String(e.messageId), e.trigger]);
    const [, , started] = (await this.redis
      .multi()
      .hset(pending, ...fields)
      .expire(pending, PENDING_TTL_SECONDS)
      .set(batchKey, batchId, 'EX', periodSeconds + BATCH_GRACE_SECONDS, 'NX')
      .get(batchKey)
      .exec()) as Array<[Error | null, unknown]>;
    // The batch key now names the job that mails these messages: a new one (this call set it), or one already waiting.
    if (started?.[1] !== 'OK') return;
    const job: MissedBatchJob = { realmId, userId, batchId };
    await this.mail.sendLater(MISSED_BATCH_JOB, job, { delayMs: periodSeconds * 1000, jobId: batchId });
  }

  /** The messages waiting in the person's batch, oldest first, with their triggers. */
  async pending(realmId: number, userId: number): Promise<Map<number, Trigger>> {
    const raw = await this.redis.hgetall(this.keys.missedMailPending(realmId, userId));
    const entries = Object.entries(raw)
      .map(([id, trigger]) => [Number(id), trigger as Trigger] as const)
      .filter(([id]) => Number.isSafeInteger(id))
      .sort((a, b) => a[0] - b[0]);
    return new Map(entries);
  }

  /**
   * Ends the batch once its mail is queued: drops the messages it handled and frees the batch key
   * (if it still names this batch). Messages that arrived meanwhile joined this batch's key after
   * the job read it: they start the next batch, due a period from now.
   */
  async finish(job: MissedBatchJob, handled: number[], periodSeconds: number): Promise<void> {
    const pending = this.keys.missedMailPending(job.realmId, job.userId);
    const batchKey = this.keys.missedMailBatch(job.realmId, job.userId);
    if (handled.length) await this.redis.hdel(pending, ...handled.map(String));
    await this.redis.eval(DEL_IF_EQUAL, 1, batchKey, job.batchId);
    const left = await this.pending(job.realmId, job.userId);
    if (!left.size) return;
    const entries = [...left].map(([messageId, trigger]) => ({ messageId, trigger }));
    // Re-adding starts the next batch, or joins one a message arriving just now started.
    await this.add(job.realmId, job.userId, entries, periodSeconds);
  }
}

/** Deletes KEYS[1] only while it still holds ARGV[1]: a newer batch's key is left alone. */
const DEL_IF_EQUAL = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/** The person's `email_notifications_batching_period_seconds` (the family's default, 120, if unset). */
export function batchingPeriod(settings: Record<string, unknown>): number {
  const v = settings.email_notifications_batching_period_seconds;
  return typeof v === 'number' && v > 0 ? v : (DEFAULT_USER_SETTINGS.email_notifications_batching_period_seconds as number);
}
