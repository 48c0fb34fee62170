import { redisKeys } from '@chat/bus';
import { generateApiKey } from '@chat/realm';
import type { Services } from '../context';

type TokenServices = Pick<Services, 'redis' | 'config'>;

/**
 * Short-lived, single-use tokens kept in Redis with a TTL: password-reset links, sign-up
 * confirmation links and the desktop app's login tokens. Redis expires them by itself, every
 * replica sees them, and using one is an atomic GETDEL, so two requests racing with the same
 * token cannot both succeed. Losing them (a Redis flush) only means asking for a new link.
 */
export type TokenKind = 'reset' | 'confirm' | 'desktop';

/** 32 letters and digits, the API key shape the family also uses for its login tokens. */
export const TOKEN_SHAPE = /^[A-Za-z0-9]{32}$/;

function key(services: TokenServices, kind: TokenKind, token: string): string {
  return redisKeys(services.config.REDIS_PREFIX).oneTimeToken(kind, token);
}

export async function issueToken(services: TokenServices, kind: TokenKind, data: object, ttlSeconds: number): Promise<string> {
  const token = generateApiKey();
  await services.redis.set(key(services, kind, token), JSON.stringify(data), 'EX', ttlSeconds);
  return token;
}

/** The token's data while it is valid; it stays usable. */
export async function peekToken<T>(services: TokenServices, kind: TokenKind, token: string): Promise<T | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const raw = await services.redis.get(key(services, kind, token));
  return raw ? (JSON.parse(raw) as T) : null;
}

/** The token's data, using it up: only one caller ever gets it. */
export async function takeToken<T>(services: TokenServices, kind: TokenKind, token: string): Promise<T | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const raw = await services.redis.getdel(key(services, kind, token));
  return raw ? (JSON.parse(raw) as T) : null;
}

/**
 * Counts one more request for `subject` in every window and says how long to wait when any
 * window is over its limit (0: go ahead).
 */
export async function countRequest(services: TokenServices, subject: string, windows: Array<[seconds: number, max: number]>): Promise<number> {
  let wait = 0;
  const keys = redisKeys(services.config.REDIS_PREFIX);
  for (const [seconds, max] of windows) {
    const k = keys.pageLimit(seconds, subject);
    const [[, count], [, ttl]] = (await services.redis.multi().incr(k).ttl(k).exec()) as [[unknown, number], [unknown, number]];
    if (ttl < 0) await services.redis.expire(k, seconds);
    if (count > max) wait = Math.max(wait, ttl > 0 ? ttl : seconds);
  }
  return wait;
}
