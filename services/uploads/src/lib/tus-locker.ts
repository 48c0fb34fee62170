import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/utils';
import type { RedisKeys } from '@chat/bus';

const LEASE_MS = 30_000;
const RENEW_MS = 10_000;
const RETRY_MS = 50;
/** How long a request waits for an upload another request holds (tus asks the holder to let go). */
const ACQUIRE_TIMEOUT_MS = 10_000;

const RELEASE_IF_OURS = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0`;
const RENEW_IF_OURS = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0`;

/**
 * Upload locks shared by every replica, in Redis. tus requires that one request at a time work
 * on an upload, and that a newer request (a client resuming after a dropped connection) can ask
 * the holder to let go: the request is published, and the replica holding the lock tells its
 * request handler to stop. Leases expire, so a crashed replica never blocks an upload for long.
 */
export class RedisLocker implements Locker {
  private readonly held = new Map<string, RequestRelease>();
  private subscribed: Promise<unknown> | undefined;

  constructor(
    private readonly redis: Redis,
    /** A connection of its own: it is put in subscriber mode. */
    private readonly subscriber: Redis,
    private readonly keys: Pick<RedisKeys, 'tusLock' | 'tusReleaseChannel'>,
  ) {}

  private lockKey(id: string): string {
    return this.keys.tusLock(id);
  }

  private get channel(): string {
    return this.keys.tusReleaseChannel();
  }

  private listen(): Promise<unknown> {
    this.subscribed ??= this.subscriber.subscribe(this.channel).then(() => {
      this.subscriber.on('message', (channel: string, id: string) => {
        if (channel === this.channel) void this.held.get(id)?.();
      });
    });
    return this.subscribed;
  }

  newLock(id: string): Lock {
    const token = randomBytes(12).toString('hex');
    let renew: NodeJS.Timeout | undefined;
    return {
      lock: async (signal: AbortSignal, cancelReq: RequestRelease) => {
        await this.listen();
        const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
        let asked = false;
        for (;;) {
          if (signal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
          if (await this.redis.set(this.lockKey(id), token, 'PX', LEASE_MS, 'NX')) break;
          if (!asked) {
            asked = true;
            await this.redis.publish(this.channel, id);
          }
          if (Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
          await new Promise((r) => setTimeout(r, RETRY_MS));
        }
        this.held.set(id, cancelReq);
        renew = setInterval(() => void this.redis.eval(RENEW_IF_OURS, 1, this.lockKey(id), token, LEASE_MS).catch(() => 0), RENEW_MS);
        renew.unref();
      },
      unlock: async () => {
        clearInterval(renew);
        this.held.delete(id);
        await this.redis.eval(RELEASE_IF_OURS, 1, this.lockKey(id), token);
      },
    };
  }

  close(): void {
    this.subscriber.disconnect();
  }
}
