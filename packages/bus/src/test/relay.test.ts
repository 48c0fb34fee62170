import type { Redis } from 'ioredis';
import { createRedis } from '../redis';
import { recordEvent } from '../outbox';
import { OutboxRelay, type OutboxRelayOptions } from '../relay';
import {
  createTestDatabase,
  deleteKeys,
  inTransaction,
  readStream,
  testKeyspace,
  waitFor,
  type RawEntry,
  type TestDatabase,
  TEST_REDIS_URL,
} from './support';

let db: TestDatabase;
let redis: Redis;
const keys = testKeyspace('relay');
const relays: OutboxRelay[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  redis = createRedis(TEST_REDIS_URL, { name: 'relay-test' });
});

afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
  await db.pool.query('DELETE FROM outbox');
  await deleteKeys(redis, keys);
});

afterAll(async () => {
  redis.disconnect();
  await db.drop();
});

function relay(opts: Partial<OutboxRelayOptions> = {}): OutboxRelay {
  const r = new OutboxRelay({
    databaseUrl: db.url,
    redis,
    keys,
    pollIntervalMs: 100,
    standbyRetryMs: 50,
    onError: () => undefined,
    ...opts,
  });
  relays.push(r);
  r.start();
  return r;
}

async function outboxCount(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox');
  return rows[0].n;
}

async function allEntries(): Promise<RawEntry[]> {
  const lists = await Promise.all(keys.allStreams().map((s) => readStream(redis, s)));
  return lists.flat();
}

/** Records `count` events per realm, each realm's in its own sequence of transactions. */
async function writeEvents(realms: number[], count: number): Promise<void> {
  await Promise.all(
    realms.map(async (realmId) => {
      for (let seq = 0; seq < count; seq++) {
        await inTransaction(db.pool, (tx) =>
          recordEvent(tx, { realmId, type: 'seq', event: { type: 'seq', seq }, users: [1] }),
        );
      }
    }),
  );
}

function seqsByRealm(entries: RawEntry[]): Map<number, number[]> {
  const byRealm = new Map<number, number[]>();
  for (const e of entries) {
    const realm = Number(e.fields.realm_id);
    const seqs = byRealm.get(realm) ?? [];
    seqs.push(JSON.parse(e.fields.payload).event.seq);
    byRealm.set(realm, seqs);
  }
  return byRealm;
}

describe('OutboxRelay', () => {
  it('publishes once when a relay dies between XADD and DELETE and another takes over', async () => {
    let appended!: () => void;
    const reachedGap = new Promise<void>((r) => (appended = r));
    let resume!: () => void;
    const stuck = new Promise<void>((r) => (resume = r));
    const doomed = relay({
      applicationName: 'relay-test-doomed',
      afterPublish: () => {
        appended();
        return stuck;
      },
    });
    await waitFor(() => doomed.isLeader);
    await writeEvents([1, 2, 3], 5);
    await reachedGap;

    // The batch is in the streams and still in the outbox. Kill the session as a crash would.
    expect(await outboxCount()).toBeGreaterThan(0);
    const published = (await allEntries()).length;
    expect(published).toBeGreaterThan(0);
    await db.pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'relay-test-doomed'",
    );

    const successor = relay({ applicationName: 'relay-test-successor' });
    await waitFor(() => successor.isLeader);
    await waitFor(async () => (await outboxCount()) === 0);
    resume(); // the zombie's DELETE now fails on its dead session

    const entries = await allEntries();
    expect(entries.map((e) => e.fields.outbox_id).sort()).toEqual([...new Set(entries.map((e) => e.fields.outbox_id))].sort());
    expect(entries).toHaveLength(15);
    for (const seqs of seqsByRealm(entries).values()) expect(seqs).toEqual([0, 1, 2, 3, 4]);
  });

  it('with two relays running, publishes each event exactly once and in order', async () => {
    const a = relay({ batchSize: 7 });
    const b = relay({ batchSize: 7 });
    await waitFor(() => a.isLeader || b.isLeader);
    await writeEvents([1, 2, 3, 4, 5, 6], 40);
    await waitFor(async () => (await outboxCount()) === 0);

    expect([a.isLeader, b.isLeader].filter(Boolean)).toHaveLength(1);
    const entries = await allEntries();
    expect(entries).toHaveLength(240);
    expect(new Set(entries.map((e) => e.fields.outbox_id)).size).toBe(240);
    const expected = Array.from({ length: 40 }, (_, i) => i);
    for (const seqs of seqsByRealm(entries).values()) expect(seqs).toEqual(expected);
    // Each realm stays in its partition.
    for (const p of keys.allPartitions()) {
      for (const e of await readStream(redis, keys.stream(p))) expect(keys.partitionOf(Number(e.fields.realm_id))).toBe(p);
    }
  });

  it('deletes published rows with the next batch\'s read, which comes soon when all is quiet', async () => {
    const published: string[] = [];
    const leftOver: string[] = [];
    const r = relay({
      batchSize: 2,
      pollIntervalMs: 60_000, // only notifications and the quiet delete drive it
      afterPublish: async (rows) => {
        // By the time a batch is in the streams, every earlier batch's rows are gone.
        const { rows: present } = await db.pool.query<{ id: string }>('SELECT id::text FROM outbox');
        leftOver.push(...present.map((r) => r.id).filter((id) => published.includes(id)));
        published.push(...rows.map((r) => r.id));
      },
    });
    await waitFor(() => r.isLeader);
    await writeEvents([1, 2], 6);
    await waitFor(async () => published.length === 12 && (await outboxCount()) === 0, 3000);
    expect(leftOver).toEqual([]);
    expect(new Set(published).size).toBe(12);
  });

  it('hands over to a standby when the leader stops', async () => {
    const first = relay();
    await waitFor(() => first.isLeader);
    const second = relay();
    await writeEvents([1], 3);
    await waitFor(async () => (await outboxCount()) === 0);
    expect(second.isLeader).toBe(false);

    await first.stop();
    await waitFor(() => second.isLeader);
    await writeEvents([1], 3);
    await waitFor(async () => (await outboxCount()) === 0);
    expect(seqsByRealm(await allEntries()).get(1)).toEqual([0, 1, 2, 0, 1, 2]);
  });

  it('keeps rows until Redis takes them, and recovers a flushed script cache', async () => {
    const errors: Error[] = [];
    const broken = createRedis('redis://127.0.0.1:1', {
      name: 'relay-test-unreachable',
      onError: () => undefined,
      redisOptions: { maxRetriesPerRequest: 0 },
    });
    try {
      relay({ redis: broken, lockName: 'relay-test-broken', onError: (e) => errors.push(e) });
      await writeEvents([1], 2);
      await waitFor(() => errors.length > 0);
      expect(await outboxCount()).toBe(2);
    } finally {
      await relays.pop()!.stop();
      broken.disconnect();
    }

    await redis.script('FLUSH');
    relay();
    await waitFor(async () => (await outboxCount()) === 0);
    expect(seqsByRealm(await allEntries()).get(1)).toEqual([0, 1]);
  });

  it('publishes a reused outbox id again once its row is a different row', async () => {
    await db.pool.query("SELECT setval('outbox_id_seq', 1, false)");
    relay();
    await writeEvents([1], 1);
    await waitFor(async () => (await outboxCount()) === 0);
    // A recreated database hands out the same ids again.
    await db.pool.query("SELECT setval('outbox_id_seq', 1, false)");
    await writeEvents([1], 1);
    await waitFor(async () => (await outboxCount()) === 0);
    const entries = await allEntries();
    expect(entries.map((e) => e.fields.outbox_id)).toEqual(['1', '1']);
  });

  it('caps stream length approximately', async () => {
    relay({ streamMaxLen: 10, batchSize: 50 });
    await writeEvents([1], 300);
    await waitFor(async () => (await outboxCount()) === 0);
    const length = await redis.xlen(keys.streamForRealm(1));
    expect(length).toBeLessThan(300);
    expect(length).toBeGreaterThanOrEqual(10);
  });
});
