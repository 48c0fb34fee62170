import type Redis from 'ioredis';
import { redisKeys } from './keys';

/**
 * Forgets the gateways' cached authentication of these API keys, so that a deactivation, role
 * or email change or a new key applies to the very next request rather than after a cache
 * lifetime. Call it after the change committed: deleting earlier would let a request racing the
 * transaction cache the old state again.
 *
 * The shared entries in Redis are deleted first, then every gateway replica is told on
 * `authForgetChannel` to drop the authentications it keeps in process (ADR 0022). Redis writes
 * the message to every subscriber before it answers the PUBLISH, so by the time the caller
 * answers its own request, every gateway has the message on its socket.
 */
export async function forgetCachedAuth(redis: Redis, prefix: string, apiKeys: string[]): Promise<void> {
  if (!apiKeys.length) return;
  const keys = redisKeys(prefix);
  const names = apiKeys.map((k) => keys.authCache(k));
  // One DEL per key: several keys in one DEL fail on a cluster when they hash to different slots.
  await Promise.all(names.map((name) => redis.del(name)));
  // The names are digests, never keys: anyone may read the channel.
  await redis.publish(keys.authForgetChannel(), names.join(' '));
}
