/**
 * Metrics of the moving parts behind the API (streams, outbox, job queues), read at scrape time
 * so that no hot path pays for them. Typed structurally: kit does not depend on Redis or BullMQ.
 */
import client from 'prom-client';
import type { Metrics } from './metrics';

/** A counter mirroring a monotonic number the code already keeps (read at scrape time). */
export function counterFrom(metrics: Metrics, name: string, help: string, read: () => number): void {
  let last = 0;
  new client.Counter({
    name,
    help,
    registers: [metrics.registry],
    collect() {
      const now = read();
      if (now > last) this.inc(now - last);
      last = Math.max(last, now);
    },
  });
}

interface XinfoRedis {
  xinfo(subcommand: 'GROUPS', key: string): Promise<unknown>;
}

/**
 * Per consumer group, summed over the partition streams: entries not yet delivered to the group
 * (lag) and delivered but not acknowledged (pending). A growing lag means the group's consumers
 * fall behind; pending entries that stay mean a consumer died holding them.
 */
export function streamGroupMetrics(metrics: Metrics, redis: XinfoRedis, streams: () => string[]): void {
  const read = async () => {
    const lag = new Map<string, number>();
    const pending = new Map<string, number>();
    for (const stream of streams()) {
      const groups = (await redis.xinfo('GROUPS', stream).catch(() => [])) as unknown[];
      for (const g of groups) {
        const info = fieldsOf(g);
        const name = String(info.name);
        lag.set(name, (lag.get(name) ?? 0) + Number(info.lag ?? 0));
        pending.set(name, (pending.get(name) ?? 0) + Number(info.pending ?? 0));
      }
    }
    return { lag, pending };
  };
  // One XINFO pass serves both gauges of a scrape.
  let current: Promise<Awaited<ReturnType<typeof read>>> | undefined;
  const once = () => {
    current ??= read().finally(() => setTimeout(() => (current = undefined), 1000).unref());
    return current;
  };
  new client.Gauge({
    name: 'stream_consumer_lag',
    help: 'Stream entries not yet read by each consumer group, summed over partitions',
    labelNames: ['group'],
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const [group, n] of (await once()).lag) this.set({ group }, n);
    },
  });
  new client.Gauge({
    name: 'stream_pending_entries',
    help: 'Stream entries read but not yet acknowledged by each consumer group, summed over partitions',
    labelNames: ['group'],
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const [group, n] of (await once()).pending) this.set({ group }, n);
    },
  });
}

/** XINFO replies are flat [field, value, ...] lists on RESP2 and maps on RESP3. */
function fieldsOf(reply: unknown): Record<string, unknown> {
  if (Array.isArray(reply)) {
    const out: Record<string, unknown> = {};
    for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = reply[i + 1];
    return out;
  }
  return (reply ?? {}) as Record<string, unknown>;
}

/** Rows waiting in the outbox and the age of the oldest: a relay that stopped shows here first. */
export function outboxMetrics(metrics: Metrics, read: () => Promise<{ rows: number; oldestAgeSeconds: number }>): void {
  let current: ReturnType<typeof read> | undefined;
  const once = () => {
    current ??= read().finally(() => setTimeout(() => (current = undefined), 1000).unref());
    return current;
  };
  new client.Gauge({
    name: 'outbox_backlog_rows',
    help: 'Domain events committed to the outbox and not yet relayed to the streams',
    registers: [metrics.registry],
    async collect() {
      this.set((await once()).rows);
    },
  });
  new client.Gauge({
    name: 'outbox_oldest_age_seconds',
    help: 'Age of the oldest outbox row not yet relayed (0 when empty)',
    registers: [metrics.registry],
    async collect() {
      this.set((await once()).oldestAgeSeconds);
    },
  });
}

interface BullQueueLike {
  name: string;
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
}
interface BullWorkerLike {
  name: string;
  on(event: 'failed', listener: (...args: unknown[]) => void): unknown;
}

const JOB_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

/**
 * Job queue depth by state (read from Redis at scrape time) and failed attempts counted by this
 * process's workers. Every replica reports the same depth; failures are per replica.
 */
export function jobQueueMetrics(metrics: Metrics, queues: BullQueueLike[], workers: BullWorkerLike[]): void {
  new client.Gauge({
    name: 'bullmq_jobs',
    help: 'Jobs in each BullMQ queue by state',
    labelNames: ['queue', 'state'],
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const q of queues) {
        const counts = await q.getJobCounts(...JOB_STATES).catch(() => undefined);
        if (!counts) continue;
        for (const state of JOB_STATES) this.set({ queue: q.name, state }, counts[state] ?? 0);
      }
    },
  });
  const failures = new client.Counter({
    name: 'bullmq_job_failures_total',
    help: 'Job attempts that failed (each retry counts), by queue',
    labelNames: ['queue'],
    registers: [metrics.registry],
  });
  for (const w of workers) {
    failures.inc({ queue: w.name }, 0);
    w.on('failed', () => failures.inc({ queue: w.name }));
  }
}
