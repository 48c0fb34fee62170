import Redis from 'ioredis';
import { QueueStore, QueueWaiter, type QueueSpec } from '..';

const prefix = `test:queues:${process.pid}:${Date.now()}:`;
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const sub = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const store = new QueueStore(redis, prefix);
const spec = (over: Partial<QueueSpec> = {}): QueueSpec => ({
  userId: 1, realmId: 1, eventTypes: null, narrow: [], allPublicStreams: false, clientCapabilities: {},
  applyMarkdown: true, clientGravatar: true, idleTimeoutSecs: 600, clientName: 'test', ...over,
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  sub.disconnect();
});

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

it('wakes a waiting long-poll on append, and times out otherwise', async () => {
  const waiter = new QueueWaiter(sub, (q) => store.wakeChannel(q), (c) => c.slice(`${prefix}wake:`.length));
  const q = await store.create(spec());
  const started = Date.now();
  const waiting = waiter.wait(q, 5000, async () => false);
  setTimeout(() => void store.append(q, [{ type: 'x' }]), 100);
  expect(await waiting).toBe('woken');
  expect(Date.now() - started).toBeLessThan(2000);
  expect(await waiter.wait(q, 100, async () => false)).toBe('timeout');
  const closing = waiter.wait(q, 5000, async () => false);
  setTimeout(() => waiter.closeAll(), 50);
  expect(await closing).toBe('closed');
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

it('keeps a subscription a moment after its last waiter, and still wakes the next one', async () => {
  const waiter = new QueueWaiter(sub, (q) => store.wakeChannel(q), (c) => c.slice(`${prefix}wake:`.length));
  const q = await store.create(spec());
  const first = waiter.wait(q, 5000, async () => false);
  setTimeout(() => void store.append(q, [{ type: 'x' }]), 50);
  expect(await first).toBe('woken');
  const channels = await redis.pubsub('CHANNELS', `${prefix}wake:*`);
  expect(channels).toContain(store.wakeChannel(q));
  const second = waiter.wait(q, 5000, async () => false);
  setTimeout(() => void store.append(q, [{ type: 'y' }]), 50);
  expect(await second).toBe('woken');
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
