import type { Redis } from 'ioredis';
import { createRedis } from '../redis';
import { recordEvent } from '../outbox';
import { OutboxRelay } from '../relay';
import { StreamConsumer } from '../consumer';
import type { StreamEntry } from '../entries';
import {
  createTestDatabase,
  deleteKeys,
  inTransaction,
  readStream,
  testKeyspace,
  waitFor,
  type TestDatabase,
  TEST_REDIS_URL,
} from './support';

let db: TestDatabase;
let redis: Redis;
const keys = testKeyspace('outbox');

beforeAll(async () => {
  db = await createTestDatabase();
  redis = createRedis(TEST_REDIS_URL, { name: 'outbox-test' });
});

afterAll(async () => {
  await deleteKeys(redis, keys);
  redis.disconnect();
  await db.drop();
});

async function outboxCount(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox');
  return rows[0].n;
}

describe('recordEvent', () => {
  afterEach(() => db.pool.query('DELETE FROM outbox'));

  it('stores the event, its recipients and routing fields as the payload', async () => {
    const id = await inTransaction(db.pool, (tx) =>
      recordEvent(tx, {
        realmId: 3,
        // As a plain string: the outbox stores any payload; the typed message payload is the producers' concern.
        type: 'message' as string,
        event: { type: 'message', message: { id: 10, content: 'hi' }, flags: [] },
        users: [1, 2],
        routing: { stream_id: 7, sender_id: 1, user_flags: { 2: ['mentioned'] } },
      }),
    );
    const { rows } = await db.pool.query('SELECT id::text, realm_id, type, payload FROM outbox');
    expect(rows).toEqual([
      {
        id,
        realm_id: 3,
        type: 'message',
        payload: {
          event: { type: 'message', message: { id: 10, content: 'hi' }, flags: [] },
          users: [1, 2],
          stream_id: 7,
          sender_id: 1,
          user_flags: { 2: ['mentioned'] },
        },
      },
    ]);
  });

  it('rejects malformed events before touching the database', async () => {
    await inTransaction(db.pool, async (tx) => {
      const base = { realmId: 1, type: 'x', event: {}, users: [1] };
      await expect(recordEvent(tx, { ...base, realmId: 1.5 })).rejects.toThrow(/realmId/);
      await expect(recordEvent(tx, { ...base, users: ['1'] as unknown as number[] })).rejects.toThrow(/users/);
      await expect(recordEvent(tx, { ...base, routing: { users: [] } })).rejects.toThrow(/routing/);
    });
    expect(await outboxCount()).toBe(0);
  });
});

describe('outbox to stream', () => {
  let relay: OutboxRelay;

  beforeAll(() => {
    relay = new OutboxRelay({ databaseUrl: db.url, redis, keys, pollIntervalMs: 100, standbyRetryMs: 100 });
    relay.start();
  });

  afterAll(() => relay.stop());

  it('never publishes an event whose transaction rolled back', async () => {
    await expect(
      inTransaction(db.pool, async (tx) => {
        await recordEvent(tx, { realmId: 1, type: 'doomed', event: { type: 'doomed' }, users: [1] });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    // Something committed after it proves the relay has looked past the rolled-back row.
    const committed = await inTransaction(db.pool, (tx) =>
      recordEvent(tx, { realmId: 1, type: 'kept', event: { type: 'kept' }, users: [1] }),
    );

    await waitFor(async () => (await outboxCount()) === 0);
    const entries = await readStream(redis, keys.streamForRealm(1));
    expect(entries.map((e) => e.fields.type)).toEqual(['kept']);
    expect(entries[0].fields.outbox_id).toBe(committed);
  });

  it('publishes a committed event once, soon after commit, with its realm and payload', async () => {
    const stream = keys.streamForRealm(2);
    const before = (await readStream(redis, stream)).length;
    const started = Date.now();
    const id = await inTransaction(db.pool, (tx) =>
      recordEvent(tx, { realmId: 2, type: 'typing', event: { type: 'typing', op: 'start' }, users: [4, 5] }),
    );
    await waitFor(async () => (await readStream(redis, stream)).length > before);
    expect(Date.now() - started).toBeLessThan(2000);
    await waitFor(async () => (await outboxCount()) === 0);

    const entries = (await readStream(redis, stream)).slice(before);
    expect(entries).toHaveLength(1);
    expect(entries[0].fields).toMatchObject({ outbox_id: id, realm_id: '2', type: 'typing' });
    expect(JSON.parse(entries[0].fields.payload)).toEqual({ event: { type: 'typing', op: 'start' }, users: [4, 5] });
  });

  it('delivers committed events to a consumer group, each realm in commit order', async () => {
    const seen: StreamEntry[] = [];
    const consumer = new StreamConsumer({
      redis,
      keys,
      group: keys.groups.events,
      consumer: 'outbox-test',
      handler: async (entries) => {
        seen.push(...entries);
      },
    });
    await consumer.start();
    try {
      const ids: string[] = [];
      for (const op of ['add', 'update', 'remove']) {
        ids.push(
          await inTransaction(db.pool, (tx) =>
            recordEvent(tx, { realmId: 4, type: 'reaction' as string, event: { type: 'reaction', op }, users: [1, 2] }),
          ),
        );
      }
      await waitFor(() => seen.length === 3);
      expect(seen.map((e) => [e.outboxId, e.realmId, e.type, e.payload.event])).toEqual([
        [ids[0], 4, 'reaction', { type: 'reaction', op: 'add' }],
        [ids[1], 4, 'reaction', { type: 'reaction', op: 'update' }],
        [ids[2], 4, 'reaction', { type: 'reaction', op: 'remove' }],
      ]);
      expect(seen[0].payload.users).toEqual([1, 2]);
    } finally {
      await consumer.stop();
    }
  });

  it('wakes on NOTIFY rather than waiting for the poll', async () => {
    const slow = new OutboxRelay({
      databaseUrl: db.url,
      redis,
      keys,
      pollIntervalMs: 60_000,
      standbyRetryMs: 100,
    });
    await relay.stop();
    slow.start();
    try {
      await waitFor(() => slow.isLeader);
      // Let the first drain finish and the relay settle into its minute-long wait.
      await new Promise((r) => setTimeout(r, 200));
      const stream = keys.streamForRealm(3);
      await inTransaction(db.pool, (tx) => recordEvent(tx, { realmId: 3, type: 'x', event: {}, users: 'realm' }));
      await waitFor(async () => (await readStream(redis, stream)).length === 1, 3000);
    } finally {
      await slow.stop();
      relay.start();
    }
  });
});
