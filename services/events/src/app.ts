/**
 * The events service: POST /register over HTTP, and in the background the outbox relay (one
 * leader across every replica of every service that runs it) and the fan-out of the domain
 * streams into per-client queues (one replica per stream partition at a time).
 */
import { createDb, withGenericPlans, withShortQuerySettings } from '@chat/db';
import { createBlockingRedis, createRedis, keyspace, OutboxRelay } from '@chat/bus';
import { createApp, createLogger, createMetrics, listen, type ServiceHandle } from '@chat/kit';
import { QueueStore } from '@chat/queues';
import { readConfig } from './config';
import { registerRoutes } from './routes/register';
import { PartitionLeases } from './workers/fanout/leases';
import { Fanout } from './workers/fanout/deliver';
import { FanoutConsumer } from './workers/fanout/consumer';
import { IndexSweeper } from './workers/fanout/sweeper';
import { registerEventsMetrics } from './metrics';

export interface EventsHandle extends ServiceHandle {
  /** Partitions this replica consumes right now (tests and /metrics). */
  partitions(): number[];
}

export async function start(overrides: Record<string, string | undefined> = {}): Promise<EventsHandle> {
  const config = readConfig(overrides);
  const log = createLogger('events', config.LOG_LEVEL);
  const db = createDb(withGenericPlans(withShortQuerySettings(config.DATABASE_URL)), { poolSize: config.DATABASE_POOL_SIZE });
  const redis = createRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'events' });
  const blocking = createBlockingRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'events-fanout' });
  const keys = keyspace(config.REDIS_PREFIX, { partitions: config.STREAM_PARTITIONS });
  const store = new QueueStore(redis, config.REDIS_PREFIX);

  const relay = config.OUTBOX_RELAY
    ? new OutboxRelay({ databaseUrl: config.DATABASE_URL, redis, keys, onError: (err) => log.error({ err }, 'outbox relay') })
    : null;
  const leases = new PartitionLeases({ redis, keys, leaseMs: config.PARTITION_LEASE_MS });
  const fanout = new Fanout(store, log, db);
  const sweeper = new IndexSweeper(store, config.INDEX_SWEEP_MS, log);
  const metrics = createMetrics('events');
  const { observeDelay } = registerEventsMetrics(metrics, { redis, keys, db, store, fanout, sweeper });
  const consumer = new FanoutConsumer({ redis, blocking, keys, leases, fanout, batch: config.FANOUT_BATCH, leaseMs: config.PARTITION_LEASE_MS, log, observeDelay });

  const { app, state } = createApp({
    service: 'events',
    log,
    metrics,
    internalSecret: config.INTERNAL_SECRET,
    ready: async () => {
      await db.$queryRaw`SELECT 1`;
      await redis.ping();
    },
    api: (router) => registerRoutes(router, {
      db,
      store,
      redis,
      keys,
      server: { mergeBase: config.MERGE_BASE, pushNotificationsEnabled: config.PUSH_NOTIFICATIONS_ENABLED, development: config.NODE_ENV !== 'production' },
    }),
  });
  const server = await listen(app, { host: config.HOST, port: config.PORT, state, log, metrics, metricsPort: config.METRICS_PORT });
  relay?.start();
  leases.start();
  consumer.start();
  sweeper.start();

  return {
    url: server.url,
    metricsUrl: server.metricsUrl,
    port: server.port,
    partitions: () => leases.active(),
    async stop() {
      await server.close(config.SHUTDOWN_GRACE_MS);
      sweeper.stop();
      // Finish the batch in hand, then hand the partitions over at once.
      await consumer.stop();
      await leases.stop();
      await relay?.stop();
      blocking.disconnect();
      await redis.quit().catch(() => undefined);
      await db.$disconnect();
    },
  };
}
