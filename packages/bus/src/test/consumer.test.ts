import type { Redis } from 'ioredis';
import { createRedis } from '../redis';
import { publishRows } from '../publish';
import { StreamConsumer, type StreamConsumerOptions } from '../consumer';
import type { EntryHead, StreamEntry } from '../entries';
import { deleteKeys, testKeyspace, waitFor, TEST_REDIS_URL } from './support';

let redis: Redis;
const keys = testKeyspace('consumer', 4);
const consumers: StreamConsumer[] = [];
let nextOutboxId = 1;
let group = '';
let groupSeq = 0;

beforeAll(() => {
  redis = createRedis(TEST_REDIS_URL, { name: 'consumer-test' });
});

beforeEach(() => {
  group = `g${++groupSeq}`;
});

afterEach(async () => {
  await Promise.all(consumers.splice(0).map((c) => c.stop()));
});

afterAll(async () => {
  await deleteKeys(redis, keys);
  redis.disconnect();
});

/** Publishes `count` events for each realm, interleaved, as the relay would. */
async function publish(realms: number[], count: number, from = 0): Promise<void> {
  const rows = [];
  for (let seq = from; seq < from + count; seq++) {
    for (const realmId of realms) {
      const id = String(nextOutboxId++);
      const payload = JSON.stringify({ event: { type: 'seq', seq }, users: [1] });
      rows.push({ id, realmId, type: 'seq', payload, createdAt: id });
    }
  }
  await publishRows(redis, keys, rows, { streamMaxLen: null, markerTtlSeconds: 60 });
}

async function consumer(opts: Partial<StreamConsumerOptions> & { handler: StreamConsumerOptions['handler'] }) {
  const c = new StreamConsumer({ redis, keys, group, blockMs: 2000, onError: () => undefined, ...opts });
  consumers.push(c);
  await c.start();
  return c;
}

/** A handler that records what it saw, per realm. */
function recorder() {
  const seen = new Map<number, number[]>();
  const batches: StreamEntry[][] = [];
  return {
    seen,
    batches,
    count: () => [...seen.values()].reduce((n, l) => n + l.length, 0),
    handler: async (entries: StreamEntry[]) => {
      batches.push(entries);
      for (const e of entries) {
        const list = seen.get(e.realmId) ?? [];
        list.push((e.payload.event as { seq: number }).seq);
        seen.set(e.realmId, list);
      }
    },
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

async function pendingCount(partitions = keys.allPartitions()): Promise<number> {
  let total = 0;
  for (const p of partitions) {
    const [n] = (await redis.xpending(keys.stream(p), group)) as [number];
    total += Number(n);
  }
  return total;
}

describe('StreamConsumer', () => {
  it('delivers parsed entries through the group and acknowledges them', async () => {
    const rec = recorder();
    await consumer({ handler: rec.handler });
    await publish([1, 2], 3);
    await waitFor(() => rec.count() === 6);

    const first = rec.batches.flat().find((e) => e.realmId === 1)!;
    expect(first).toMatchObject({
      partition: keys.partitionOf(1),
      realmId: 1,
      type: 'seq',
      payload: { event: { type: 'seq', seq: 0 }, users: [1] },
    });
    expect(first.outboxId).toMatch(/^\d+$/);
    expect(first.streamId).toMatch(/^\d+-\d+$/);
    await waitFor(async () => (await pendingCount()) === 0);
  });

  it('keeps each partition in order across small batches', async () => {
    const rec = recorder();
    await consumer({ handler: rec.handler, batchSize: 7 });
    await publish([1, 2, 3, 5], 60);
    await waitFor(() => rec.count() === 240);
    for (const realm of [1, 2, 3, 5]) expect(rec.seen.get(realm)).toEqual(range(0, 60));
  });

  it('retries a failing batch in place, so later events wait for it', async () => {
    const rec = recorder();
    let failures = 2;
    await consumer({
      batchSize: 2,
      handler: async (entries) => {
        if (failures-- > 0) throw new Error('downstream is down');
        await rec.handler(entries);
      },
    });
    await publish([1], 6);
    await waitFor(() => rec.count() === 6);
    expect(rec.seen.get(1)).toEqual(range(0, 6));
    await waitFor(async () => (await pendingCount()) === 0);
  });

  it('hands entries a crashed consumer left unacknowledged to the next one, oldest first', async () => {
    // The first consumer reads, never acknowledges, and goes away.
    let read = 0;
    const doomed = await consumer({
      consumer: 'doomed',
      handler: async (entries) => {
        read += entries.length;
        throw new Error('crash');
      },
    });
    await publish([1, 2], 5);
    await waitFor(() => read >= 2);
    await doomed.stop();
    expect(await pendingCount()).toBeGreaterThan(0);
    await publish([1, 2], 5, 5); // newer events the successor must not handle first

    const rec = recorder();
    await consumer({ consumer: 'successor', handler: rec.handler, claimIdleMs: 300 });
    await waitFor(() => rec.count() === 20);
    expect(rec.seen.get(1)).toEqual(range(0, 10));
    expect(rec.seen.get(2)).toEqual(range(0, 10));
    await waitFor(async () => (await pendingCount()) === 0);
  });

  it('picks up its own unacknowledged entries first when restarted under the same name', async () => {
    let read = 0;
    const first = await consumer({
      consumer: 'same',
      handler: async (entries) => {
        read += entries.length;
        throw new Error('crash');
      },
    });
    await publish([3], 3);
    await waitFor(() => read >= 3);
    await first.stop();
    await publish([3], 3, 3);

    const rec = recorder();
    // claimIdleMs far away: only knowing its own name lets it resume at once.
    await consumer({ consumer: 'same', handler: rec.handler, claimIdleMs: 60_000 });
    await waitFor(() => rec.count() === 6, 3000);
    expect(rec.seen.get(3)).toEqual(range(0, 6));
  });

  it('hands a partition over between live consumers without reordering its events', async () => {
    const p = keys.partitionOf(1);
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const order: string[] = [];
    const old = await consumer({
      consumer: 'old',
      partitions: [p],
      claimIdleMs: 60_000,
      handler: async (entries) => {
        entered();
        await gate;
        for (const e of entries) order.push(`old:${(e.payload.event as { seq: number }).seq}`);
      },
    });
    await publish([1], 3);
    await inHandler; // the old owner holds seq 0..2, unacknowledged

    await consumer({
      consumer: 'next',
      partitions: [p],
      claimIdleMs: 60_000,
      handler: async (entries) => {
        for (const e of entries) order.push(`next:${(e.payload.event as { seq: number }).seq}`);
      },
    });
    await publish([1], 2, 3);
    const dropped = old.setPartitions([]);
    await new Promise((r) => setTimeout(r, 300));
    expect(order).toEqual([]); // the newcomer waits for the older entries
    release();
    await dropped;
    await waitFor(() => order.length === 5);
    expect(order).toEqual(['old:0', 'old:1', 'old:2', 'next:3', 'next:4']);
  });

  it('claims entries a consumer died holding while others keep running', async () => {
    const rec = recorder();
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let first = true;
    await consumer({
      consumer: 'survivor',
      claimIdleMs: 300,
      claimIntervalMs: 100,
      handler: async (entries) => {
        if (first) {
          first = false;
          entered();
          await gate;
        }
        await rec.handler(entries);
      },
    });
    await publish([1], 1);
    await inHandler;
    // While the survivor is busy, another consumer reads new entries and dies without a trace.
    await publish([2], 3);
    const taken = await redis.xreadgroup('GROUP', group, 'ghost', 'COUNT', 10, 'STREAMS', keys.streamForRealm(2), '>');
    expect(taken).not.toBeNull();
    release();

    await waitFor(() => rec.count() === 4);
    expect(rec.seen.get(2)).toEqual([0, 1, 2]);
    await waitFor(async () => (await pendingCount()) === 0);
  });

  it('reads only its partitions, and switches promptly when they change', async () => {
    const rec = recorder();
    const c = await consumer({ handler: rec.handler, partitions: [keys.partitionOf(1)], blockMs: 20_000 });
    await publish([1, 2], 2);
    await waitFor(() => rec.count() === 2);
    expect([...rec.seen.keys()]).toEqual([1]);

    const started = Date.now();
    await c.setPartitions([keys.partitionOf(2)]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(c.partitions).toEqual([keys.partitionOf(2)]);
    await waitFor(() => rec.count() === 4, 2000);
    expect(rec.seen.get(2)).toEqual([0, 1]);
    await publish([1], 1, 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(rec.seen.get(1)).toEqual([0, 1]);
  });

  it('stops promptly while blocked and finishes the batch in flight', async () => {
    let release!: () => void;
    let entered!: () => void;
    const inHandler = new Promise<void>((r) => (entered = r));
    const gate = new Promise<void>((r) => (release = r));
    const c = await consumer({
      blockMs: 30_000,
      handler: async () => {
        entered();
        await gate;
      },
    });
    await publish([1], 1);
    await inHandler;
    const stopping = c.stop();
    setTimeout(release, 100);
    await stopping;
    expect(await pendingCount()).toBe(0);

    const idle = await consumer({ blockMs: 30_000, handler: async () => undefined });
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await idle.stop();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('reports unreadable entries and acknowledges them with the rest', async () => {
    const errors: Error[] = [];
    const rec = recorder();
    await consumer({ handler: rec.handler, onError: (e) => errors.push(e) });
    await redis.xadd(keys.streamForRealm(1), '*', 'outbox_id', '999999', 'realm_id', '1', 'type', 'x', 'payload', '{oops');
    await publish([1], 1);
    await waitFor(() => rec.count() === 1);
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/payload is not JSON/)]);
    await waitFor(async () => (await pendingCount()) === 0);
  });

  it('parses and hands over only the entries select picks, and acknowledges the rest unparsed', async () => {
    const errors: Error[] = [];
    const rec = recorder();
    const heads: EntryHead[] = [];
    await consumer({
      handler: rec.handler,
      onError: (e) => errors.push(e),
      select: (batch) => {
        heads.push(...batch);
        return batch.map((h) => h.type === 'seq');
      },
    });
    // Not JSON: had it been parsed, it would have been reported.
    await redis.xadd(keys.streamForRealm(1), '*', 'outbox_id', '999998', 'realm_id', '1', 'type', 'skipped', 'payload', '{not json');
    await publish([1], 2);
    await waitFor(() => rec.count() === 2);
    await waitFor(async () => (await pendingCount()) === 0);
    expect(errors).toEqual([]);
    expect(rec.seen.get(1)).toEqual([0, 1]);
    const skipped = heads.find((h) => h.type === 'skipped')!;
    expect(skipped).toMatchObject({ partition: keys.partitionOf(1), realmId: 1, outboxId: '999998' });
    expect(Buffer.isBuffer(skipped.payload) && skipped.payload.toString()).toBe('{not json');
  });

  it('retries a batch whose select fails, so later events wait for it', async () => {
    const rec = recorder();
    let failures = 2;
    await consumer({
      batchSize: 2,
      handler: rec.handler,
      select: (batch) => {
        if (failures-- > 0) throw new Error('cannot decide yet');
        return batch.map(() => true);
      },
    });
    await publish([1], 6);
    await waitFor(() => rec.count() === 6);
    expect(rec.seen.get(1)).toEqual(range(0, 6));
  });

  it('with minReadIntervalMs, reads an idle stream at once and a busy one in fewer batches', async () => {
    const realm = 13; // no other test publishes for it
    const rec = recorder();
    const handled: number[] = [];
    const c = await consumer({
      minReadIntervalMs: 300,
      handler: async (entries) => {
        handled.push(Date.now());
        await rec.handler(entries);
      },
    });
    await new Promise((r) => setTimeout(r, 400));
    const sent = Date.now();
    await publish([realm], 1);
    await waitFor(() => rec.count() === 1);
    expect(handled[0]! - sent).toBeLessThan(250);

    const started = Date.now();
    for (let i = 1; i <= 30; i++) {
      await publish([realm], 1, i);
      await new Promise((r) => setTimeout(r, 20));
    }
    await waitFor(() => rec.count() === 31);
    const elapsed = Date.now() - started;
    expect(rec.seen.get(realm)).toEqual(range(0, 31));
    // One read per interval at most, where without it each event could come alone.
    expect(rec.batches.length - 1).toBeLessThanOrEqual(Math.ceil(elapsed / 300) + 1);
    expect(rec.batches.length - 1).toBeLessThan(30);

    // Between reads it waits interruptibly: stop() does not wait out the interval.
    await publish([realm], 1, 31);
    await waitFor(() => rec.count() === 32);
    const stopping = Date.now();
    await c.stop();
    expect(Date.now() - stopping).toBeLessThan(250);
  });

  it('starts a new group at the end of the streams unless told otherwise', async () => {
    const realm = 11; // no other test publishes for it
    await publish([realm], 2);
    const fromNow = recorder();
    await consumer({ handler: fromNow.handler });
    await publish([realm], 1, 2);
    await waitFor(() => fromNow.count() === 1);
    expect(fromNow.seen.get(realm)).toEqual([2]);

    group = `${group}-replay`;
    const replay = recorder();
    await consumer({ handler: replay.handler, startId: '0' });
    await waitFor(() => replay.seen.get(realm)?.length === 3);
    expect(replay.seen.get(realm)).toEqual([0, 1, 2]);
  });
});
