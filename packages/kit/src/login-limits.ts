import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { errors } from '@chat/contracts';

/** An ioredis client or cluster (rate-limiter-flexible speaks to both). */
export type RedisStore = ConstructorParameters<typeof RateLimiterRedis>[0]['storeClient'];

/** How many failures one subject may have within a window before it is refused. */
export interface FailureRule {
  failures: number;
  windowSeconds: number;
}

/** What one attempt is counted against: where it came from and which account it claimed. */
export interface LoginSubject {
  ip: string;
  account: string;
}

/**
 * Limits guessing of credentials (passwords at the users service, API keys at the gateway).
 * Only failures are counted, per source address and per claimed account, in Redis so every
 * replica sees the same counts; a success clears the account's count (as the API family's
 * server does) but never the address's, so one valid account cannot launder a scan.
 *
 * The check runs before the credentials are verified: a subject already over its limit is
 * refused with RATE_LIMIT_HIT and Retry-After without the (expensive) verification.
 */
export class LoginFailureLimiter {
  private readonly byIp: RateLimiterRedis | null;
  private readonly byAccount: RateLimiterRedis | null;

  /** `keyPrefix` names each limiter's keys (@chat/bus keys: loginFailurePrefix). */
  constructor(redis: RedisStore, keyPrefix: (subject: 'ip' | 'account') => string, rules: { perIp: FailureRule; perAccount: FailureRule }) {
    const make = (subject: 'ip' | 'account', rule: FailureRule) =>
      rule.failures > 0
        ? new RateLimiterRedis({ storeClient: redis, keyPrefix: keyPrefix(subject), points: rule.failures, duration: rule.windowSeconds })
        : null;
    this.byIp = make('ip', rules.perIp);
    this.byAccount = make('account', rules.perAccount);
  }

  /**
   * Throws RATE_LIMIT_HIT when the address or the account has used up its failures; a subject
   * without an account is checked by address only.
   */
  async check(subject: { ip: string; account?: string }): Promise<void> {
    const [ip, account] = await Promise.all([
      this.byIp?.get(subject.ip) ?? null,
      subject.account === undefined ? null : (this.byAccount?.get(normalAccount(subject.account)) ?? null),
    ]);
    let waitMs = 0;
    if (ip && this.byIp && ip.consumedPoints >= this.byIp.points) waitMs = Math.max(waitMs, ip.msBeforeNext);
    if (account && this.byAccount && account.consumedPoints >= this.byAccount.points) waitMs = Math.max(waitMs, account.msBeforeNext);
    if (waitMs > 0) throw errors.rateLimited(retryAfterSeconds(waitMs));
  }

  /**
   * Counts one failure against both. Returns the seconds to wait when this failure went past a
   * limit (the caller may answer RATE_LIMIT_HIT at once), else null.
   */
  async failed(subject: LoginSubject): Promise<number | null> {
    const waits = await Promise.all([
      consume(this.byIp, subject.ip),
      consume(this.byAccount, normalAccount(subject.account)),
    ]);
    const waitMs = Math.max(0, ...waits);
    return waitMs > 0 ? retryAfterSeconds(waitMs) : null;
  }

  /** Forgets the account's failures after a success. */
  async succeeded(subject: LoginSubject): Promise<void> {
    await this.byAccount?.delete(normalAccount(subject.account));
  }
}

function normalAccount(account: string): string {
  return account.trim().toLowerCase();
}

function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** Milliseconds until the window ends when the key is over its limit, else 0. */
async function consume(limiter: RateLimiterRedis | null, key: string): Promise<number> {
  if (!limiter) return 0;
  try {
    await limiter.consume(key);
    return 0;
  } catch (err) {
    // Past the limit: the count is kept, and check() refuses later attempts.
    if (err instanceof RateLimiterRes) return err.msBeforeNext;
    throw err;
  }
}
