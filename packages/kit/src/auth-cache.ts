import { createHash } from 'node:crypto';

/**
 * Redis key under which the gateway caches the authentication of one API key. The users
 * service deletes it whenever a change must take effect at once (deactivation, role or email
 * change, key regeneration), so both sides must build it the same way: here.
 */
export function authCacheKey(prefix: string, apiKey: string): string {
  return `${prefix}auth:${createHash('sha256').update(apiKey).digest('hex')}`;
}
