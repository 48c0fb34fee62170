import type { Router } from 'express';
import { createDb } from '@chat/db';
import { createRedis } from '@chat/bus';
import { createApp, createLogger, listen, type Logger, type ServiceHandle } from '@chat/kit';
import { readConfig } from './config';
import type { Services } from './context';
import { apiRoutes, siteRoutes } from './routes';

/**
 * Builds and starts the users service. `overrides` replace environment variables (tests pass
 * their private database and Redis prefix); PORT 0 picks a free port.
 */
export async function start(overrides: Record<string, string> = {}, logger?: Logger): Promise<ServiceHandle & { services: Services }> {
  const config = readConfig({ ...process.env, ...overrides });
  const log = logger ?? createLogger('users', config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL);
  const redis = createRedis(config.REDIS_URL, { name: 'users', onError: (err) => log.warn({ err }, 'redis error') });
  const services: Services = { db, redis, config, log };

  const { app, state } = createApp({
    service: 'users',
    log,
    internalSecret: config.INTERNAL_SECRET,
    ready: async () => {
      await db.$queryRawUnsafe('SELECT 1');
      await redis.ping();
    },
    api: (router: Router) => apiRoutes(router, services),
    site: (router: Router) => siteRoutes(router, services),
  });
  const server = await listen(app, { host: config.HOST, port: config.PORT, state, log });
  return {
    url: server.url,
    port: server.port,
    services,
    async stop() {
      await server.close(config.SHUTDOWN_GRACE_MS);
      redis.disconnect();
      await db.$disconnect();
    },
  };
}
