import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { keyspace } from '@chat/bus';
import { PartitionLeases } from '../workers/fanout/leases';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `t:leases:${randomBytes(4).toString('hex')}:`;
const made: PartitionLeases[] = [];

const replica = (leaseMs = 400) => {
  const l = new PartitionLeases({ redis, keys: keyspace(prefix, { partitions: 8 }), leaseMs });
  made.push(l);
  return l;
};

async function until(check: () => boolean, what: string, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((r) => setTimeout(r, 20));
  }
}

afterAll(async () => {
  await Promise.all(made.map((l) => l.stop()));
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

it('spreads partitions over live replicas, one owner each, and hands a stopped replica\'s over at once', async () => {
  const a = replica();
  a.start();
  await until(() => a.active().length === 8, 'a alone never held every partition');
  const b = replica();
  b.start();
  // a hands half over once it sees b; releases happen when the consumer is done with them.
  const pump = setInterval(() => {
    for (let p = 0; p < 8; p++) if (a.isReleasing(p)) void a.release(p);
  }, 10);
  await until(() => a.active().length === 4 && b.active().length === 4, 'partitions never split 4/4');
  clearInterval(pump);
  expect(new Set([...a.active(), ...b.active()]).size).toBe(8);
  await b.stop();
  await until(() => a.active().length === 8, 'a never took b\'s partitions back');
  await a.stop();
});

it('takes a dead replica\'s partitions over once its leases expire', async () => {
  const c = replica(300);
  const d = replica(300);
  c.start();
  await until(() => c.active().length === 8, 'c never held every partition');
  d.start();
  const pump = setInterval(() => {
    for (let p = 0; p < 8; p++) if (c.isReleasing(p)) void c.release(p);
  }, 10);
  await until(() => d.active().length === 4, 'd never got its share');
  clearInterval(pump);
  // c "dies": stops renewing without releasing anything.
  (c as unknown as { timer?: NodeJS.Timeout }).timer = undefined;
  const died = Date.now();
  await until(() => d.active().length === 8, 'd never took the dead replica\'s partitions');
  expect(Date.now() - died).toBeGreaterThanOrEqual(200);
  expect(c.active().length).toBe(0);
});
