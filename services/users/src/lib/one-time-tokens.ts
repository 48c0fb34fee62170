import { redisKeys } from '@chat/bus';
import { generateApiKey } from '@chat/realm';
import type { Services } from '../context';

type TokenServices = Pick<Services, 'redis' | 'config'>;

/**
 * Short-lived, single-use tokens kept in Redis with a TTL: password-reset links, sign-up
 * confirmation links, email-change confirmation links and the desktop app's login tokens. Redis expires them by itself, every
 * replica sees them, and using one is an atomic GETDEL, so two requests racing with the same
 * token cannot both succeed. Losing them (a Redis flush) only means asking for a new link.
 */
export type TokenKind = 'reset' | 'confirm' | 'desktop' | 'emailchange';

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

/**
 * Issues a token that replaces the owner's previous one of this kind: only the newest link
 * works (a second email change request voids the first's link, as on the family's server). The
 * owner's current token is remembered under its own key with the same lifetime.
 */
export async function issueSoleToken(services: TokenServices, kind: TokenKind, owner: string, data: object, ttlSeconds: number): Promise<string> {
  const token = await issueToken(services, kind, data, ttlSeconds);
  // GETSET, so of two requests racing each deletes the token the other replaced: one survives.
  const previous = await services.redis.getset(key(services, kind, `owner-${owner}`), token);
  await services.redis.expire(key(services, kind, `owner-${owner}`), ttlSeconds);
  if (previous && previous !== token) await services.redis.del(key(services, kind, previous));
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
