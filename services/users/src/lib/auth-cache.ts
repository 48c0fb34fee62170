import { forgetCachedAuth as forget } from '@chat/bus';
import type { Services } from '../context';

/**
 * Forgets the gateways' cached authentication of these API keys (in Redis and in every gateway
 * replica's memory), so that a deactivation, role or email change or a new key applies to the
 * very next request. Called after the change committed (see @chat/bus forgetCachedAuth).
 */
export async function forgetCachedAuth(services: Pick<Services, 'redis' | 'config'>, ...apiKeys: string[]): Promise<void> {
  await forget(services.redis, services.config.REDIS_PREFIX, apiKeys);
}
