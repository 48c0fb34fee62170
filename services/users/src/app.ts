import type { Router } from 'express';
import { createDb } from '@chat/db';
import os from 'node:os';
import { createBlockingRedis, createRedis, keyspace, redisKeys } from '@chat/bus';
import { Queue } from 'bullmq';
import { createApp, createLogger, jobQueueMetrics, listen, type Logger, type ServiceHandle } from '@chat/kit';
import { readConfig } from './config';
import type { Services } from './context';
import { inviteMailRenderers } from './actions/invite-reminders';
import { createExportQueue, createExportStore, EXPORT_QUEUE, startExportWorker } from './workers/exports';
import { createMailQueue, createMailTransport, MAIL_QUEUE, startMailWorker } from './workers/mail';
import { digestMail } from './workers/digest';
import { fullMembersJob } from './workers/full-members';
import { startMissedMessageMail } from './workers/missed';
import { apiRoutes, siteRoutes } from './routes';
import { takesBotAvatar } from './routes/bots';

/**
 * Builds and starts the users service. `overrides` replace environment variables (tests pass
 * their private database and Redis prefix); PORT 0 picks a free port.
 */
export async function start(overrides: Record<string, string> = {}, logger?: Logger): Promise<ServiceHandle & { services: Services }> {
  const config = readConfig({ ...process.env, ...overrides });
  const log = logger ?? createLogger('users', config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE });
  const onError = (err: Error) => log.warn({ err }, 'redis error');
  const redis = createRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'users', onError });
  // BullMQ keeps blocking commands on its connections: they must wait out a Redis outage.
  const bullRedis = createBlockingRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'users:bull', onError });
  const bullPrefix = redisKeys(config.REDIS_PREFIX).bullPrefix();
  const mail = createMailQueue(bullRedis, bullPrefix, config);
  const transport = createMailTransport(config);
  const exports = createExportQueue(bullRedis, bullPrefix);
  const services: Services = { db, redis, config, log, mail, exports, exportStore: createExportStore(config) };
  const keys = keyspace(config.REDIS_PREFIX, { partitions: config.STREAM_PARTITIONS });
  const missed = await startMissedMessageMail(services, keys, config.CONSUMER_NAME || `${os.hostname()}-${process.pid}`);
  const digests = digestMail(services);
  const fullMembers = fullMembersJob(services);
  const renderers = { ...inviteMailRenderers(db, config), ...digests.renderers };
  const worker = config.EMAIL_RUN_WORKERS
    ? startMailWorker({ config, log, transport, renderers, handlers: { ...missed.handlers, ...digests.handlers, ...fullMembers.handlers } }, bullRedis, bullPrefix)
    : undefined;
  if (worker) await digests.schedule().catch((err) => log.warn({ err }, 'digest schedule not set'));
  if (worker) await fullMembers.schedule().catch((err) => log.warn({ err }, 'full members schedule not set'));
  const exportWorker = config.EXPORT_RUN_WORKERS ? startExportWorker(services, bullRedis, bullPrefix) : undefined;

  const { app, state, metrics } = createApp({
    service: 'users',
    log,
    internalSecret: config.INTERNAL_SECRET,
    // A bot's creation form may carry its avatar: that route reads its multipart body itself.
    parseMultipart: (req) => !takesBotAvatar(req),
    ready: async () => {
      await db.$queryRawUnsafe('SELECT 1');
      await redis.ping();
    },
    api: (router: Router) => apiRoutes(router, services),
    site: (router: Router) => siteRoutes(router, services),
  });
  // Read-only handles on the job queues for their depth (the wrappers above keep theirs private).
  const watched = [new Queue(MAIL_QUEUE, { connection: bullRedis, prefix: bullPrefix }), new Queue(EXPORT_QUEUE, { connection: bullRedis, prefix: bullPrefix })];
  jobQueueMetrics(metrics, watched, [worker, exportWorker].filter((w) => w !== undefined));
  const server = await listen(app, { host: config.HOST, port: config.PORT, state, log, metrics, metricsPort: config.METRICS_PORT });
  return {
    url: server.url,
    metricsUrl: server.metricsUrl,
    port: server.port,
    services,
    async stop() {
      await server.close(config.SHUTDOWN_GRACE_MS);
      await missed.stop();
      // A message being sent finishes (or goes back to Redis) before the connections close.
      await worker?.close().catch((err) => log.warn({ err }, 'mail worker close failed'));
      await mail.close();
      await exportWorker?.close().catch((err) => log.warn({ err }, 'export worker close failed'));
      await exports.close();
      await Promise.all(watched.map((q) => q.close()));
      transport.close();
      redis.disconnect();
      bullRedis.disconnect();
      await db.$disconnect();
    },
  };
}
