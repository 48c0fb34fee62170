/**
 * Waiting for the cluster to finish what earlier steps set off before a phase is measured.
 *
 * Making a thousand people sets off work that outlasts the requests: each new account's
 * welcome message and default subscriptions (the messaging consumer), their events fanned out
 * (the events consumer). On a slow machine that tail ran for over a minute after the last
 * `POST /users` and overlapped the first send cells and pgbench, which then measured the setup's
 * leftovers as much as the send. A phase starts once the bus has nothing left: the outbox is
 * empty and every consumer group of every partition stream has read and acknowledged all of it.
 */
import Redis from 'ioredis';
import type { Db } from '@chat/db';

export interface Settled {
  /** What was waited for. */
  phase: string;
  seconds: number;
  /** false: the time limit passed with work still queued (the phase ran anyway). */
  settled: boolean;
  /** What was still queued when the wait began. */
  backlog: { outbox: number; unread: number; pending: number };
}

interface Backlog {
  outbox: number;
  /** Entries of the partition streams some group has not read yet. */
  unread: number;
  /** Entries read but not acknowledged. */
  pending: number;
}

/** The domain streams (`<prefix>{s:N}:events`), whatever the partition count. */
async function streamsOf(redis: Redis, prefix: string): Promise<string[]> {
  const found = new Set<string>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}{s:*}:events`, 'COUNT', 1000);
    keys.forEach((k) => found.add(k));
    cursor = next;
  } while (cursor !== '0');
  return [...found];
}

const field = (flat: unknown[], name: string): unknown => flat[flat.indexOf(name) + 1];

/** Orders stream ids ("ms-seq"). */
function idLess(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(Number) as [number, number];
  const [bm, bs] = b.split('-').map(Number) as [number, number];
  return am < bm || (am === bm && as < bs);
}

async function backlogOf(db: Db, redis: Redis, streams: string[]): Promise<Backlog> {
  const [{ n }] = await db.$queryRawUnsafe<Array<{ n: number }>>('SELECT count(*)::int AS n FROM outbox');
  const out: Backlog = { outbox: n, unread: 0, pending: 0 };
  for (const stream of streams) {
    const info = (await redis.call('XINFO', 'STREAM', stream)) as unknown[];
    const last = String(field(info, 'last-generated-id'));
    const groups = (await redis.call('XINFO', 'GROUPS', stream)) as unknown[][];
    for (const g of groups) {
      out.pending += Number(field(g, 'pending'));
      const lag = field(g, 'lag');
      // Redis reports no lag after deletions it cannot account for; the last id read says it.
      if (typeof lag === 'number') out.unread += lag;
      else if (idLess(String(field(g, 'last-delivered-id')), last)) out.unread += 1;
    }
  }
  return out;
}

const empty = (b: Backlog) => b.outbox === 0 && b.unread === 0 && b.pending === 0;

/**
 * Returns once two readings 200 ms apart find nothing queued, or after `limitMs` (the phase then
 * runs anyway, and the report says it did not settle).
 */
export async function settle(db: Db, redisUrl: string, prefix: string, phase: string, limitMs = 300_000): Promise<Settled> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  const started = Date.now();
  try {
    const streams = await streamsOf(redis, prefix);
    const first = await backlogOf(db, redis, streams);
    let quietReadings = empty(first) ? 1 : 0;
    while (quietReadings < 2 && Date.now() - started < limitMs) {
      await new Promise((r) => setTimeout(r, 200));
      quietReadings = empty(await backlogOf(db, redis, streams)) ? quietReadings + 1 : 0;
    }
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    const settled = quietReadings >= 2;
    if (seconds >= 1 || !settled) {
      const { outbox, unread, pending } = first;
      console.log(`  ${settled ? 'settled' : 'NOT settled'} before ${phase} after ${seconds} s (outbox ${outbox}, unread ${unread}, pending ${pending})`);
    }
    return { phase, seconds, settled, backlog: first };
  } finally {
    redis.disconnect();
  }
}
