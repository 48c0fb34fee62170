/**
 * Faults under load. Every service runs as its own process on a Postgres and a Redis of this
 * test's own; two senders post to a channel and six long-polling queues read it while, in turn,
 * each service is killed with SIGKILL and started again, Redis is restarted and Postgres is
 * restarted. Nothing is restarted by hand but the killed process itself: every other process
 * must ride the outages out. At the end a ledger is printed and must show that every
 * acknowledged message is stored once, and that every live queue got every stored message
 * exactly once, each sender's messages in the order they were sent.
 *
 * Run with `npm run test:faults` (CI runs it too): it takes minutes, not seconds.
 */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@chat/db/testing';
import { seedRealm, startCluster, TEST_INTERNAL_SECRET, type Cluster, type SeededRealm, type TestEnv } from '@chat/testing';
import { startOwnPostgres, startOwnRedis, type OwnPostgres, type OwnRedis } from './own-infra';
import { QueueReader, Sender } from './load';

const CHANNEL = 'faults';
const SERVICES = ['messaging', 'events', 'gateway', 'push', 'uploads', 'users'] as const;

let pg: OwnPostgres;
let redisServer: OwnRedis;
let database: TestDatabase;
let env: TestEnv;
let realm: SeededRealm;
let cluster: Cluster;

beforeAll(async () => {
  [pg, redisServer] = await Promise.all([startOwnPostgres(), startOwnRedis()]);
  database = await createTestDatabase({ serverUrl: pg.url, poolSize: 2 });
  const prefix = `f:${randomBytes(4).toString('hex')}:`;
  env = {
    db: database.db,
    databaseUrl: database.url,
    redisUrl: redisServer.url,
    prefix,
    redis: new Redis(redisServer.url, { maxRetriesPerRequest: 3 }),
    env: {
      DATABASE_URL: database.url, REDIS_URL: redisServer.url, REDIS_PREFIX: prefix,
      INTERNAL_SECRET: TEST_INTERNAL_SECRET, LOG_LEVEL: 'silent', NODE_ENV: 'test',
    },
    close: async () => undefined,
  };
  env.redis.on('error', () => undefined);
  realm = await seedRealm(env.db);
  cluster = await startCluster(env, {
    env: { EVENTS_HEARTBEAT_SECONDS: '2', PARTITION_LEASE_MS: '1500', SHUTDOWN_GRACE_MS: '2000' },
    readyTimeoutMs: 180000,
  });
  const owner = realm.owner;
  const created = await fetch(`${cluster.url}/api/v1/users/me/subscriptions`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${owner.email}:${owner.apiKey}`).toString('base64')}` },
    body: new URLSearchParams({
      subscriptions: JSON.stringify([{ name: CHANNEL }]),
      principals: JSON.stringify([realm.owner.id, realm.admin.id, realm.moderator.id, realm.member.id, realm.member2.id]),
    }),
  }).then((r) => r.json());
  expect(created).toMatchObject({ result: 'success' });
}, 600000);

afterAll(async () => {
  await cluster?.stop();
  env?.redis.disconnect();
  await database?.drop().catch(() => undefined);
  await redisServer?.stop();
  await pg?.stop();
}, 120000);

it('loses and duplicates nothing through crashes of every service and restarts of Redis and Postgres', async () => {
  const started = Date.now();
  const url = () => cluster.url;
  const readers = [
    new QueueReader('owner', realm.owner, url), new QueueReader('admin', realm.admin, url),
    new QueueReader('moderator', realm.moderator, url), new QueueReader('member', realm.member, url),
    new QueueReader('member-2nd', realm.member, url), new QueueReader('member2', realm.member2, url),
  ];
  await Promise.all(readers.map((r) => r.register()));
  const senders = [new Sender('a', realm.member, url, CHANNEL, 80), new Sender('b', realm.member2, url, CHANNEL, 80)];
  for (const r of readers) r.start();
  for (const s of senders) s.start();
  const faults: string[] = [];
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

  await pause(1500);
  for (const service of SERVICES) {
    const proc = cluster.processes.find((p) => p.service === service)!;
    await proc.kill();
    const at = Date.now();
    await cluster.restart(proc);
    faults.push(`kill -9 ${service} (back in ${Date.now() - at} ms)`);
    await pause(1000);
  }
  let at = Date.now();
  await redisServer.restart(1000);
  faults.push(`Redis restart (down 1000 ms, took ${Date.now() - at} ms)`);
  await pause(3000);
  at = Date.now();
  await pg.restart();
  faults.push(`Postgres restart (took ${Date.now() - at} ms)`);
  await pause(3000);
  await Promise.all(senders.map((s) => s.stop()));

  // Every process must have ridden out the outages by itself, and be ready again.
  for (const p of cluster.processes) {
    expect({ service: p.label, exit: p.child.exitCode ?? p.child.signalCode }).toEqual({ service: p.label, exit: null });
    expect(await fetch(`${p.url}/readyz`).then((r) => r.status)).toBe(200);
  }

  const stored = await env.db.message.findMany({
    where: { realmId: realm.realmId, content: { startsWith: 'fault ' } },
    select: { id: true, content: true },
    orderBy: { id: 'asc' },
  });
  // Queues catch up: wait until each holds every stored message, or time runs out.
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline && readers.some((r) => r.delivered.length < stored.length)) await pause(250);
  await Promise.all(readers.map((r) => r.stop()));

  const sends = senders.flatMap((s) => s.sends);
  const acked = sends.filter((s) => s.ackedId !== undefined);
  const storedById = new Map(stored.map((m) => [m.id, m.content]));
  const storedContents = stored.map((m) => m.content);
  const lostAcked = acked.filter((s) => storedById.get(s.ackedId!) !== s.content);
  const duplicatedStored = storedContents.length - new Set(storedContents).size;
  const perQueue = readers.map((r) => {
    const ids = r.delivered.map((d) => d.messageId);
    const got = new Set(ids);
    const outOfOrder = senders.filter((s) => {
      const mine = r.delivered.filter((d) => d.content.startsWith(`fault ${s.name} `)).map((d) => Number(d.content.split(' ')[2]));
      return mine.some((n, i) => i > 0 && n <= mine[i - 1]!);
    }).length;
    return {
      queue: r.name, polls: r.polls, delivered: ids.length,
      lost: stored.filter((m) => !got.has(m.id)).length,
      duplicated: ids.length - got.size,
      outOfOrder, failures: r.failures.map((f) => `${f.code}: ${f.msg}`).join('; ') || '-',
    };
  });
  const retried = sends.filter((s) => s.attempts > 1).length;
  console.log([
    `faults under load (${Math.round((Date.now() - started) / 1000)} s):`,
    ...faults.map((f) => `  ${f}`),
    `sent ${sends.length} (${retried} retried) · acknowledged ${acked.length} · stored ${stored.length} · ` +
      `lost acknowledged ${lostAcked.length} · duplicated stored ${duplicatedStored} · refused ${senders.reduce((n, s) => n + s.refused.length, 0)}`,
    ...perQueue.map((q) => `  queue ${q.queue.padEnd(10)} delivered ${q.delivered} · lost ${q.lost} · duplicated ${q.duplicated} · out of order ${q.outOfOrder} · polls ${q.polls} · failures ${q.failures}`),
    `total delivered ${perQueue.reduce((n, q) => n + q.delivered, 0)} · lost ${perQueue.reduce((n, q) => n + q.lost, 0)} · duplicated ${perQueue.reduce((n, q) => n + q.duplicated, 0)}`,
  ].join('\n'));

  expect(senders.flatMap((s) => s.refused)).toEqual([]);
  expect(acked.length).toBe(sends.length);
  expect(lostAcked).toEqual([]);
  expect(duplicatedStored).toBe(0);
  for (const q of perQueue) expect(q).toMatchObject({ lost: 0, duplicated: 0, outOfOrder: 0, failures: '-' });
}, 900000);
