/** The events service's own metrics: queues, fan-out, the streams and the outbox behind them. */
import type { Redis } from 'ioredis';
import { masters, type Keyspace } from '@chat/bus';
import type { Db } from '@chat/db';
import { asyncGaugeOf, counterFrom, histogramOf, outboxMetrics, streamGroupMetrics, type Metrics } from '@chat/kit';
import type { QueueStore } from '@chat/queues';
import type { Fanout } from './workers/fanout/deliver';
import type { IndexSweeper } from './workers/fanout/sweeper';

export function registerEventsMetrics(
  metrics: Metrics,
  services: { redis: Redis; keys: Keyspace; db: Db; store: QueueStore; fanout: Fanout; sweeper: IndexSweeper },
): { observeDelay: (seconds: number) => void } {
  const { redis, keys, db, store, fanout, sweeper } = services;
  counterFrom(metrics, 'events_appended_total', 'Events appended to client queues by this replica', () => fanout.appended);
  counterFrom(metrics, 'event_queue_gc_runs_total', 'Sweeps of the queue index sets that drop queues Redis has expired', () => sweeper.runs);
  counterFrom(metrics, 'event_queue_gc_removed_total', 'Expired queue ids the sweeps removed', () => sweeper.removed);
  asyncGaugeOf(metrics, 'event_queues_alive', 'Event queues registered in the realm indexes (expired ones linger until the next sweep)', () =>
    countQueues(redis, store),
  );
  const delay = histogramOf(
    metrics,
    'events_fanout_delay_seconds',
    'From a domain event entering its stream to its appends in the client queues, which wake waiting long-polls',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  );
  streamGroupMetrics(metrics, redis, () => Array.from({ length: keys.partitions }, (_, p) => keys.stream(p)));
  outboxMetrics(metrics, async () => {
    const [row] = await db.$queryRaw<Array<{ rows: number; age: number }>>`
      SELECT count(*)::int AS rows, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age FROM outbox`;
    return { rows: row?.rows ?? 0, oldestAgeSeconds: row?.age ?? 0 };
  });
  return { observeDelay: (s) => delay.observe(s) };
}

/** SCARD of every realm index: one SCAN over the index keys, cheap next to the queues themselves. */
async function countQueues(redis: Redis, store: QueueStore): Promise<number> {
  let total = 0;
  for (const node of masters(redis)) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', store.keys.patterns.realmQueueIndexes(), 'COUNT', 500);
      cursor = next;
      for (const key of found) total += await redis.scard(key);
    } while (cursor !== '0');
  }
  return total;
}
