import { AckBatcher, QueueStore, QueueWaiter } from '..';
import { queueTestKit } from './support';

const { prefix, redis, sub, store, spec, cleanup } = queueTestKit('acks');
const wakePrefix = `${prefix}wake:`;
const newWaiter = () => new QueueWaiter(sub, (q) => store.wakeChannel(q), (c) => c.slice(wakePrefix.length));

afterAll(cleanup);

/** Holds a poll of `owner` that knows events up to `lastEventId`, as the gateway does. */
function holdAt(waiter: QueueWaiter, q: string, mark: number, lastEventId: number, owner: number, timeoutMs = 5000) {
  return new Promise<{ reason: string; events: string[] | null }>((resolve) =>
    waiter.hold(q, mark, lastEventId, timeoutMs, (reason, events) => resolve({ reason, events }), owner),
  );
}

it('prunes held-back acknowledgements, refreshes the idle timer, and reports gone or foreign queues', async () => {
  const a = await store.create(spec({ idleTimeoutSecs: 60 }));
  const b = await store.create(spec({ userId: 2 }));
  await store.append(a, [{ type: 'x' }, { type: 'y' }, { type: 'z' }]);
  await redis.pexpire(store.metaKey(a), 5000);
  expect(await store.ackMany([
    { queueId: a, userId: 1, lastEventId: 1 },
    { queueId: b, userId: 1, lastEventId: -1 },
    { queueId: 'no-such-queue', userId: 1, lastEventId: 0 },
  ])).toEqual([true, false, false]);
  expect(await store.fetch(a, 1)).toEqual([{ type: 'z', id: 2 }]);
  expect(await redis.pttl(store.metaKey(a))).toBeGreaterThan(50_000);
  // What FETCH records as acknowledged moved too: an acknowledgement below it is refused there.
  await expect(store.fetch(a, 1, 0)).rejects.toThrow('already been pruned');
  // Held back, an acknowledgement a later poll overtook only refreshes the queue.
  await store.fetch(a, 1, 2);
  expect(await store.ackMany([{ queueId: a, userId: 1, lastEventId: 1 }])).toEqual([true]);
  expect(await store.fetch(a, 1, 2)).toEqual([]);
});

it('knows a queue holds nothing newer after answering from a wake-up, until another wake-up comes', async () => {
  const waiter = newWaiter();
  const q = await store.create(spec({ userId: 7 }));
  await store.append(q, [{ type: 'a' }]);
  const first = holdAt(waiter, q, await waiter.subscribe(q), 0, 7);
  await store.append(q, [{ type: 'b' }]);
  expect(await first).toEqual({ reason: 'woken', events: ['{"id":1,"type":"b"}'] });
  // The poll again with the id it was given: settled for its owner only, and at that id only.
  const mark = waiter.settled(q, 7, 1);
  expect(mark).toBe(waiter.mark(q));
  expect(waiter.settled(q, 8, 1)).toBeUndefined();
  expect(waiter.settled(q, 7, 0)).toBeUndefined();
  // Held on that mark, the next append answers it, carried as usual.
  const second = holdAt(waiter, q, mark!, 1, 7);
  await store.append(q, [{ type: 'c' }]);
  expect((await second).events).toEqual(['{"id":2,"type":"c"}']);
  // A wake-up nobody was holding for: the queue has news, so it must be read.
  await store.append(q, [{ type: 'd' }]);
  await new Promise((r) => setTimeout(r, 50));
  expect(waiter.settled(q, 7, 2)).toBeUndefined();
  waiter.closeAll();
});

it('sends deferred acknowledgements together, the newest per queue, and wakes the polls of a queue found gone', async () => {
  const waiter = newWaiter();
  const q = await store.create(spec());
  const gone = await store.create(spec());
  await store.append(q, [{ type: 'a' }, { type: 'b' }, { type: 'c' }]);
  await store.append(gone, [{ type: 'a' }]);
  const calls: number[] = [];
  const acksMany = store.ackMany.bind(store);
  const counting = Object.assign(Object.create(store) as QueueStore, {
    ackMany: (acks: Parameters<QueueStore['ackMany']>[0]) => {
      calls.push(acks.length);
      return acksMany(acks);
    },
  });
  const failed: string[] = [];
  const acks = new AckBatcher(counting, (ids) => {
    failed.push(...ids);
    for (const id of ids) waiter.poke(id);
  });
  // A poll of the deleted queue held as if settled: the batch finds it gone and wakes it.
  const held = holdAt(waiter, gone, await waiter.subscribe(gone), 0, 1);
  await store.delete(gone, 1);
  acks.defer(q, 1, 0);
  acks.defer(q, 1, 1);
  acks.defer(gone, 1, 0);
  await acks.flush();
  expect(calls).toEqual([2]);
  expect(failed).toEqual([gone]);
  expect(await held).toEqual({ reason: 'woken', events: null });
  expect((await store.fetch(q, 1))!.map((e) => e.id)).toEqual([2]);
  // On its own timer too.
  acks.defer(q, 1, 2);
  await new Promise((r) => setTimeout(r, 100));
  expect(await redis.zcard(store.eventsKey(q))).toBe(0);
  expect(calls).toEqual([2, 1]);
  waiter.closeAll();
});
