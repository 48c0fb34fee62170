import os from 'node:os';
import type { Router } from 'express';
import { createDb } from '@chat/db';
import { createBlockingRedis, createRedis, keyspace } from '@chat/bus';
import { createApp, createLogger, listen, type Logger, type ServiceHandle } from '@chat/kit';
import { readConfig } from './config';
import type { Services } from './context';
import { createStorage } from './storage';
import { UploadJobs } from './workers/jobs';
import { startLinkConsumer } from './workers/links';
import { uploadRoutes } from './routes/uploads';
import { attachmentRoutes } from './routes/attachments';
import { fileRoutes } from './routes/files';
import { avatarApiRoutes, avatarFileRoutes, avatarRedirectRoutes } from './routes/avatars';
import { emojiApiRoutes, emojiFileRoutes } from './routes/emoji';
import { realmImageApiRoutes, realmImageFileRoutes } from './routes/realm-images';
import { createTusServer, tusRoutes } from './routes/tus';
import { RedisLocker } from './lib/tus-locker';

export interface UploadsHandle extends ServiceHandle {
  services: Services;
  jobs: UploadJobs;
}

/**
 * Builds and starts the uploads service. `overrides` replace environment variables (tests pass
 * their private database, Redis prefix and storage); PORT 0 picks a free port.
 */
export async function start(overrides: Record<string, string> = {}, logger?: Logger): Promise<UploadsHandle> {
  const config = readConfig({ ...process.env, ...overrides });
  const log = logger ?? createLogger('uploads', config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE });
  const redis = createRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'uploads', onError: (err) => log.warn({ err }, 'redis error') });
  const keys = keyspace(config.REDIS_PREFIX, { partitions: config.STREAM_PARTITIONS });
  const storage = createStorage(config);
  await storage.init();

  const base = { db, redis, keys, config, log, storage };
  const tusExpiryMs = config.TUS_EXPIRY_HOURS * 3600 * 1000;
  // The periodic sweep also drops resumable uploads abandoned for longer than their expiry.
  const jobs = new UploadJobs(base, () => storage.tusDataStore(tusExpiryMs).deleteExpired());
  const services: Services = { ...base, requestThumbnails: (id) => jobs.requestThumbnails(id) };
  const locker = new RedisLocker(
    redis,
    createBlockingRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'uploads:tus-locks', onError: (err) => log.warn({ err }, 'redis error') }),
    keys,
  );
  const tus = createTusServer(services, locker);

  const stops: Array<() => Promise<void>> = [];
  if (config.RUN_WORKERS) {
    await jobs.startWorker(services);
    const consumer = await startLinkConsumer(services, config.CONSUMER_NAME || `${os.hostname()}-${process.pid}`);
    stops.push(() => consumer.stop());
  }

  const { app, state, metrics } = createApp({
    service: 'uploads',
    log,
    internalSecret: config.INTERNAL_SECRET,
    // Multipart bodies are streamed into storage by the upload routes themselves.
    parseMultipart: false,
    ready: async () => {
      await db.$queryRawUnsafe('SELECT 1');
      await redis.ping();
    },
    api: (router: Router) => {
      uploadRoutes(router, services);
      attachmentRoutes(router, services);
      tusRoutes(router, tus);
      avatarApiRoutes(router, services);
      avatarRedirectRoutes(router, services);
      emojiApiRoutes(router, services);
      realmImageApiRoutes(router, services);
    },
    site: (router: Router) => {
      fileRoutes(router, services);
      avatarFileRoutes(router, services);
      emojiFileRoutes(router, services);
      realmImageFileRoutes(router, services);
      avatarRedirectRoutes(router, services);
    },
  });
  const server = await listen(app, { host: config.HOST, port: config.PORT, state, log, metrics, metricsPort: config.METRICS_PORT });
  return {
    url: server.url,
    metricsUrl: server.metricsUrl,
    port: server.port,
    services,
    jobs,
    async stop() {
      await server.close(config.SHUTDOWN_GRACE_MS);
      for (const stop of stops.reverse()) await stop().catch((err) => log.warn({ err }, 'stop failed'));
      await jobs.close();
      locker.close();
      storage.close();
      redis.disconnect();
      await db.$disconnect();
    },
  };
}
