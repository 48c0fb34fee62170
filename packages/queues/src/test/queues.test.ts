import Redis from 'ioredis';
import { appendCalls, QueueStore, QueueWaiter } from '..';
import { WAKE_PAYLOAD_MAX } from '../scripts';
import { queueTestKit } from './support';

const { prefix, redis, sub, store, spec, cleanup } = queueTestKit('queues');

afterAll(cleanup);

it('assigns increasing ids, prunes acknowledged events and checks the owner', async () => {
  const q = await store.create(spec());
  expect(await store.append(q, [{ type: 'a' }, { type: 'b' }])).toBe(1);
  expect(await store.fetch(q, 1, -1)).toEqual([{ type: 'a', id: 0 }, { type: 'b', id: 1 }]);
  expect(await store.fetch(q, 1, 0)).toEqual([{ type: 'b', id: 1 }]);
  expect(await redis.zcard(store.eventsKey(q))).toBe(1);
  expect(await store.fetch(q, 2, 0)).toBeNull();
  expect(await store.queuesOfUsers(1, [1, 2])).toEqual(new Map([[1, [q]]]));
});

it('keeps identical events apart and deletes queues', async () => {
  const q = await store.create(spec());
  await store.append(q, [{ type: 'heartbeat' }]);
  await store.append(q, [{ type: 'heartbeat' }]);
  expect((await store.fetch(q, 1))!.map((e) => e.id)).toEqual([0, 1]);
  expect(await store.delete(q, 2)).toBe(false);
  expect(await store.delete(q, 1)).toBe(true);
  expect(await store.fetch(q, 1)).toBeNull();
  expect(await store.append(q, [{ type: 'x' }])).toBe(-1);
});

it('lets Redis collect an idle queue after its timeout', async () => {
  const q = await store.create(spec({ idleTimeoutSecs: 1 }));
  await store.append(q, [{ type: 'a' }]);
  await new Promise((r) => setTimeout(r, 1300));
  expect(await store.fetch(q, 1)).toBeNull();
  expect(await redis.exists(store.metaKey(q), store.eventsKey(q))).toBe(0);
});

const wakePrefix = `${prefix}wake:`;
const newWaiter = (lingerMs?: number) => new QueueWaiter(sub, (q) => store.wakeChannel(q), (c) => c.slice(wakePrefix.length), { lingerMs });

/** Subscribes, then holds: what a long-poll that found its queue empty does. */
async function hold(waiter: QueueWaiter, q: string, timeoutMs: number, lastEventId?: number) {
  const mark = await waiter.subscribe(q);
  return new Promise<{ reason: string; events: string[] | null }>((resolve) =>
    waiter.hold(q, mark, lastEventId, timeoutMs, (reason, events) => resolve({ reason, events })),
  );
}

it('wakes a waiting long-poll on append, and times out otherwise', async () => {
  const waiter = newWaiter();
  const q = await store.create(spec());
  const started = Date.now();
  const waiting = hold(waiter, q, 5000);
  setTimeout(() => void store.append(q, [{ type: 'x' }]), 100);
  expect((await waiting).reason).toBe('woken');
  expect(Date.now() - started).toBeLessThan(2000);
  expect(waiter.size).toBe(0);
  expect((await hold(waiter, q, 100)).reason).toBe('timeout');
  const closing = hold(waiter, q, 5000);
  setTimeout(() => waiter.closeAll(), 50);
  expect(await closing).toEqual({ reason: 'closed', events: null });
});

it('hands over the appended events when they follow last_event_id, and reads back otherwise', async () => {
  const waiter = newWaiter();
  const q = await store.create(spec());
  await store.append(q, [{ type: 'a' }]);
  // Knows event 0: events 1 and 2 come with the wake-up, ids spliced in.
  const next = hold(waiter, q, 5000, 0);
  setTimeout(() => void store.append(q, [{ type: 'b' }, { type: 'c', n: 1 }]), 50);
  expect(await next).toEqual({ reason: 'woken', events: ['{"id":1,"type":"b"}', '{"id":2,"type":"c","n":1}'] });
  // No last_event_id: woken, but the poll must read the queue itself.
  const unknown = hold(waiter, q, 5000);
  setTimeout(() => void store.append(q, [{ type: 'd' }]), 50);
  expect(await unknown).toEqual({ reason: 'woken', events: null });
  // Too large to travel with the wake-up: only the id does.
  const big = hold(waiter, q, 5000, 3);
  setTimeout(() => void store.append(q, [{ type: 'e', text: 'x'.repeat(WAKE_PAYLOAD_MAX) }]), 50);
  expect(await big).toEqual({ reason: 'woken', events: null });
  expect((await store.fetch(q, 1, 3))!.map((e) => e.id)).toEqual([4]);
  waiter.closeAll();
});

it('ignores a late wake-up for events the poll already has, and answers at once for one since its mark', async () => {
  const waiter = newWaiter();
  const q = await store.create(spec());
  const mark = await waiter.subscribe(q);
  await store.append(q, [{ type: 'a' }, { type: 'b' }]);
  // A poll that read events 0 and 1 and holds against a mark older than their wake-up.
  await new Promise((r) => setTimeout(r, 50));
  const stale = await new Promise((resolve) => waiter.hold(q, mark, 1, 5000, (reason) => resolve(reason)));
  expect(stale).toBe('woken');
  // Holding against the current mark, the already-seen wake-up does not end the wait.
  const fresh = await new Promise((resolve) => waiter.hold(q, waiter.mark(q)!, 1, 300, (reason) => resolve(reason)));
  expect(fresh).toBe('timeout');
  // Nor does a replayed wake-up naming only old events.
  const replay = new Promise((resolve) => waiter.hold(q, waiter.mark(q)!, 1, 300, (reason) => resolve(reason)));
  await redis.publish(store.wakeChannel(q), '1');
  expect(await replay).toBe('timeout');
  waiter.closeAll();
});

it('appends each source position once and in order, and indexes queues by realm', async () => {
  const q = await store.create(spec({ realmId: 7, sources: { 'src:1': '100-5' } }));
  expect(await store.realmQueues(7)).toContain(q);
  expect(await store.append(q, [{ type: 'old' }], { field: 'src:1', position: '100-5' })).toBe(-2);
  expect(await store.append(q, [{ type: 'a' }], { field: 'src:1', position: '100-6' })).toBe(0);
  expect(await store.append(q, [{ type: 'a' }], { field: 'src:1', position: '100-6' })).toBe(-2);
  expect(await store.append(q, [{ type: 'b' }], { field: 'src:1', position: '99-9' })).toBe(-2);
  expect(await store.append(q, [{ type: 'c' }], { field: 'src:1', position: '101-0' })).toBe(1);
  expect(await store.append(q, [{ type: 'd' }], { field: 'src:2', position: '1-0' })).toBe(2);
  expect((await store.fetch(q, 1))!.map((e) => e.type)).toEqual(['a', 'c', 'd']);
  await store.delete(q, 1);
  expect(await store.realmQueues(7)).not.toContain(q);
});

it('keeps a subscription a moment after its last waiter, then drops it', async () => {
  const waiter = newWaiter(200);
  const q = await store.create(spec());
  const first = hold(waiter, q, 5000);
  setTimeout(() => void store.append(q, [{ type: 'x' }]), 50);
  expect((await first).reason).toBe('woken');
  expect(await redis.pubsub('CHANNELS', `${prefix}wake:*`)).toContain(store.wakeChannel(q));
  // Still live: the next poll holds without subscribing again.
  const mark = waiter.mark(q);
  expect(mark).toBeDefined();
  const second = new Promise((resolve) => waiter.hold(q, mark!, 0, 5000, (reason) => resolve(reason)));
  setTimeout(() => void store.append(q, [{ type: 'y' }]), 50);
  expect(await second).toBe('woken');
  await new Promise((r) => setTimeout(r, 700));
  expect(waiter.mark(q)).toBeUndefined();
  expect(await redis.pubsub('CHANNELS', `${prefix}wake:*`)).not.toContain(store.wakeChannel(q));
  waiter.closeAll();
});

it('wakes every waiting poll to read its queue again after the subscriber reconnects', async () => {
  const own = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  await new Promise((r) => own.once('ready', r));
  const waiter = new QueueWaiter(own, (q) => store.wakeChannel(q), (c) => c.slice(wakePrefix.length));
  try {
    const q = await store.create(spec());
    const mark = await waiter.subscribe(q);
    const woken = new Promise((resolve) => waiter.hold(q, mark, -1, 10_000, (reason, events) => resolve({ reason, events })));
    // The append happens while the connection is down: its wake-up is lost.
    const closed = new Promise((r) => own.once('close', r));
    await redis.client('KILL', 'ADDR', `${own.stream.localAddress}:${own.stream.localPort}`);
    await closed;
    await store.append(q, [{ type: 'missed' }]);
    expect(await woken).toEqual({ reason: 'woken', events: null });
    expect((await store.fetch(q, 1, -1))!.map((e) => e.type)).toEqual(['missed']);
    // And the subscription is back: the next append wakes a new hold.
    const again = new Promise((resolve) => waiter.hold(q, waiter.mark(q)!, 0, 10_000, (reason) => resolve(reason)));
    await store.append(q, [{ type: 'next' }]);
    expect(await again).toBe('woken');
  } finally {
    waiter.closeAll();
    own.disconnect();
  }
});

it('subscribes the queues asked for together in one command', async () => {
  const waiter = newWaiter();
  const queues = await Promise.all([1, 2, 3].map(() => store.create(spec())));
  await Promise.all(queues.map((q) => waiter.subscribe(q)));
  const channels = await redis.pubsub('CHANNELS', `${prefix}wake:*`);
  for (const q of queues) expect(channels).toContain(store.wakeChannel(q));
  const woken = Promise.all(queues.map((q) => new Promise((resolve) => waiter.hold(q, waiter.mark(q)!, undefined, 5000, resolve))));
  await store.appendMany(queues.map((queueId) => ({ queueId, events: [{ type: 'z' }] })));
  expect(await woken).toEqual(['woken', 'woken', 'woken']);
  waiter.closeAll();
});

it('stores slim_presence, reading queues created without it as false', async () => {
  const slim = await store.create(spec({ slimPresence: true }));
  expect((await store.get(slim))?.slimPresence).toBe(true);
  const older = await store.create(spec());
  // A queue registered before the field existed has no slim_presence entry in its meta hash.
  await redis.hdel(store.metaKey(older), 'slim_presence');
  expect((await store.get(older))?.slimPresence).toBe(false);
});

it('reports a Redis error while reading queue metadata as an error, never as an expired queue', async () => {
  const q = await store.create(spec({ userId: 31 }));
  // A real connection to a port nothing listens on: every command fails as in an outage.
  const down = new Redis({ port: 1, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null, lazyConnect: true });
  down.on('error', () => undefined);
  await down.connect().catch(() => undefined);
  const broken = new QueueStore(down, prefix);
  await expect(broken.getMany([q])).rejects.toThrow();
  await expect(broken.get(q)).rejects.toThrow();
  // The live connection still sees it, and nothing dropped it from its index sets.
  expect(await store.get(q)).toMatchObject({ queueId: q, userId: 31 });
  expect(await store.queuesOfUsers(1, [31])).toEqual(new Map([[31, [q]]]));
  down.disconnect();
});

it('appends a batch to many queues in one call with each queue its own ids, positions and wake-up, and isolates a broken queue', async () => {
  const waiter = newWaiter();
  try {
    // More queues than one APPEND_BATCH call takes, so the batch is split.
    const queues = await Promise.all(Array.from({ length: 520 }, () => store.create(spec({ userId: 41 }))));
    const [first, second, gone, broken] = queues as [string, string, string, string];
    await store.append(second, [{ type: 'before' }], { field: 'src:0', position: '7-0' });
    await redis.del(store.metaKey(gone));
    await redis.del(store.eventsKey(broken));
    await redis.set(store.eventsKey(broken), 'not a sorted set');
    await waiter.subscribe(first);
    const woken = new Promise<string[] | null>((resolve) => waiter.hold(first, waiter.mark(first)!, -1, 5000, (_r, events) => resolve(events)));
    const shared = JSON.stringify({ type: 'm', text: 'same for everyone' });
    const results = await store.appendManyJson([
      ...queues.map((queueId, i) => ({ queueId, events: i === 0 ? [shared, JSON.stringify({ type: 'own' })] : [shared], source: { field: 'src:0', position: '7-0' } })),
      // The same queue again in the batch, later in the stream: appended after the first.
      { queueId: first, events: [shared], source: { field: 'src:0', position: '7-1' } },
      // Already applied position: refused.
      { queueId: first, events: [shared], source: { field: 'src:0', position: '7-1' } },
    ]);
    expect(results).toHaveLength(queues.length + 2);
    expect(results[0]).toEqual([null, 1]);
    expect(results[1]).toEqual([null, -2]);
    expect(results[2]).toEqual([null, -1]);
    expect(results[3]![0]).toBeInstanceOf(Error);
    expect(results[3]![0]!.message).toMatch(/WRONGTYPE/);
    for (const [err, id] of results.slice(4, queues.length)) expect([err, id]).toEqual([null, 0]);
    expect(results[queues.length]).toEqual([null, 2]);
    expect(results[queues.length + 1]).toEqual([null, -2]);
    expect(await store.fetch(first, 41, -1)).toEqual([
      { id: 0, type: 'm', text: 'same for everyone' }, { id: 1, type: 'own' }, { id: 2, type: 'm', text: 'same for everyone' },
    ]);
    expect((await store.fetch(second, 41, -1))!.map((e) => e.type)).toEqual(['before']);
    expect((await store.fetch(queues[519]!, 41, -1))!.map((e) => e.id)).toEqual([0]);
    // The wake-up carries the queue's own events of its first append.
    expect(await woken).toEqual(['{"id":0,"type":"m","text":"same for everyone"}', '{"id":1,"type":"own"}']);
  } finally {
    waiter.closeAll();
  }
});

it('sends a fan-out to many queues as growing script calls, one after the other, so the first wake-ups leave early', async () => {
  expect(appendCalls(0)).toEqual([]);
  expect(appendCalls(10)).toEqual([[0, 10]]);
  expect(appendCalls(1200).map(([s, e]) => e - s)).toEqual([16, 32, 64, 128, 256, 500, 204]);
  const queues = await Promise.all(Array.from({ length: 200 }, () => store.create(spec({ userId: 51 }))));
  // MONITOR streams every client's commands, other test files' included. Lines that arrive with
  // its OK, or as it disconnects, are read as replies to no command ("Command queue state
  // error"): not this test's concern, so its errors are heard from before it connects.
  const monitor = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { monitor: true, lazyConnect: true });
  monitor.on('error', () => undefined);
  const monitoring = new Promise((resolve) => monitor.once('monitoring', resolve));
  await monitor.connect();
  await monitoring;
  const ownId = await redis.client('ID');
  const ownAddr = String(await redis.client('LIST', 'ID', String(ownId))).match(/addr=(\S+)/)![1];
  const calls: number[] = [];
  // MONITOR reports commands in the order they ran, so once it has reported this connection's
  // PING it has reported every script call before it; the reply to the PING proves nothing.
  let pinged!: () => void;
  const pingSeen = new Promise<void>((resolve) => { pinged = resolve; });
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (!source.endsWith(ownAddr!)) return;
    if (/^evalsha$/i.test(args[0]!)) calls.push(Number(args[2]) / 2);
    if (/^ping$/i.test(args[0]!)) pinged();
  });
  try {
    const results = await store.appendManyJson(queues.map((queueId, i) => ({ queueId, events: [JSON.stringify({ type: 'n', i })] })));
    expect(results.every(([err, id]) => err === null && id === 0)).toBe(true);
    await redis.ping();
    await pingSeen;
    expect(calls).toEqual([16, 32, 64, 88]);
    expect((await store.fetch(queues[199]!, 51, -1))!.map((e) => (e as { i?: number }).i)).toEqual([199]);
  } finally {
    monitor.disconnect();
  }
});
