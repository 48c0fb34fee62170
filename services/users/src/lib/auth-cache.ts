import { redisKeys } from '@chat/bus';
import type { Services } from '../context';

/**
 * Forgets the gateway's cached authentication of these API keys, so that a deactivation, role
 * or email change or a new key applies to the very next request rather than after the cache
 * TTL. Called after the change committed: deleting earlier would let a request racing the
 * transaction cache the old state again.
 */
export async function forgetCachedAuth(services: Pick<Services, 'redis' | 'config'>, ...apiKeys: string[]): Promise<void> {
  if (!apiKeys.length) return;
  // One DEL per key: several keys in one DEL fail on a cluster when they hash to different slots.
  const keys = redisKeys(services.config.REDIS_PREFIX);
  await Promise.all(apiKeys.map((k) => services.redis.del(keys.authCache(k))));
}
