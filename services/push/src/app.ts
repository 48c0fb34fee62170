import os from 'node:os';
import type { Router } from 'express';
import { createBlockingRedis, createRedis, keyspace } from '@chat/bus';
import { createDb } from '@chat/db';
import { createApp, createLogger, jobQueueMetrics, listen, type Logger, type ServiceHandle } from '@chat/kit';
import type { Worker } from 'bullmq';
import { readConfig } from './config';
import type { Services } from './context';
import { RelayClient } from './lib/relay';
import { RealmDirectory } from './lib/realms';
import { createDeliveryQueue } from './lib/jobs';
import { startDeliveryWorker } from './workers/worker';
import { startMessageConsumer } from './workers/consumer';
import { doRequestRealmUpload, doScheduleRealmUploads } from './actions/relay-realms';
import { apiRoutes } from './routes';

export interface PushHandle extends ServiceHandle {
  services: Services;
}

/**
 * Builds and starts the push service: the HTTP API, and unless PUSH_RUN_WORKERS=false the
 * consumer of message and flag events and the BullMQ worker that talks to the relay.
 * `overrides` replace environment variables (tests pass their database, Redis prefix and relay
 * URL); PORT 0 picks a free port.
 */
export async function start(overrides: Record<string, string> = {}, logger?: Logger): Promise<PushHandle> {
  const config = readConfig({ ...process.env, ...overrides });
  const log = logger ?? createLogger('push', config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL, { poolSize: config.DATABASE_POOL_SIZE });
  const onError = (err: Error) => log.warn({ err }, 'redis error');
  const redis = createRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'push', onError });
  // BullMQ keeps blocking commands on its connections: they must wait out a Redis outage.
  const bullRedis = createBlockingRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'push:bull', onError });
  const keys = keyspace(config.REDIS_PREFIX, { partitions: config.STREAM_PARTITIONS });
  const relay = config.PUSH_RELAY_URL
    ? new RelayClient({
        url: config.PUSH_RELAY_URL,
        timeoutMs: config.PUSH_RELAY_TIMEOUT_MS,
        db,
        // The relay does not know an organization: upload them; the refused job's retry follows.
        onMissingRealm: () => void doRequestRealmUpload(services).catch((err) => log.warn({ err }, 'push: realm upload not queued')),
      })
    : undefined;
  const queue = createDeliveryQueue(bullRedis, keys.bullPrefix(), config);
  const realms = new RealmDirectory(db, {
    scheme: config.EXTERNAL_SCHEME,
    host: config.EXTERNAL_HOST,
    rootRealm: config.ROOT_REALM,
  });
  const services: Services = { db, redis, keys, config, log, relay, queue, realms };

  const stops: Array<() => Promise<void>> = [];
  const workers: Worker[] = [];
  if (config.PUSH_RUN_WORKERS) {
    const consumerName = config.CONSUMER_NAME || `${os.hostname()}-${process.pid}`;
    const worker = startDeliveryWorker(services, bullRedis);
    workers.push(worker);
    const consumer = await startMessageConsumer(services, consumerName);
    if (relay) await doScheduleRealmUploads(services);
    stops.push(() => consumer.stop(), () => worker.close());
  }

  const { app, state, metrics } = createApp({
    service: 'push',
    log,
    internalSecret: config.INTERNAL_SECRET,
    ready: async () => {
      await db.$queryRawUnsafe('SELECT 1');
      await redis.ping();
    },
    api: (router: Router) => apiRoutes(router, services),
  });
  jobQueueMetrics(metrics, [queue], workers);
  const server = await listen(app, { host: config.HOST, port: config.PORT, state, log, metrics, metricsPort: config.METRICS_PORT });
  return {
    url: server.url,
    metricsUrl: server.metricsUrl,
    port: server.port,
    services,
    async stop() {
      await server.close(config.SHUTDOWN_GRACE_MS);
      // Consumers first: a job in flight finishes (or goes back to Redis) before the close.
      for (const stop of stops.reverse()) await stop().catch((err) => log.warn({ err }, 'stop failed'));
      await queue.close();
      redis.disconnect();
      bullRedis.disconnect();
      await db.$disconnect();
    },
  };
}
