/**
 * The event system on a real Redis Cluster: three masters started here with redis-server on
 * free ports, the queue store and waiter used directly on it, then two events replicas and two
 * gateways configured with a `redis+cluster://` URL, fanning out events recorded in the outbox
 * to queues whose keys lie on every node. Redis answers CROSSSLOT (or ioredis refuses a
 * pipeline) the moment any code path mixes slots, so these tests fail on such a regression.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { Cluster, Redis } from 'ioredis';
import { createBlockingRedis, createRedis, isCluster, keyspace, recordEvent, StreamConsumer, type StreamEntry } from '@chat/bus';
import { QueueStore, QueueWaiter } from '@chat/queues';
import { freePort, seedRealm, setupTestEnv, startService, type SeededRealm, type SeededUser, type ServiceProcess, type TestEnv } from '@chat/testing';
import { IndexSweeper } from '../../workers/fanout/sweeper';

const HOST = 'chat.test';
const PARTITIONS = 4;
const subdomains = ['', 'c1', 'c2', 'c3'];

let dir: string;
let ports: number[] = [];
const servers: ChildProcess[] = [];
let clusterUrl: string;
let env: TestEnv;
let redis: Redis;
let realms: SeededRealm[];
const services: ServiceProcess[] = [];

async function startRedisCluster(): Promise<void> {
  dir = mkdtempSync(path.join(tmpdir(), 'redis-cluster-'));
  ports = [await freePort(), await freePort(), await freePort()];
  for (const port of ports) {
    const child = spawn('redis-server', [
      '--port', String(port), '--bind', '127.0.0.1', '--dir', dir,
      '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '5000',
      '--appendonly', 'no', '--save', '', '--daemonize', 'no', '--loglevel', 'warning',
    ], { stdio: 'ignore' });
    servers.push(child);
  }
  for (const port of ports) await until(() => cli(port, 'ping') === 'PONG', 10000, `redis-server on ${port} did not start`);
  const created = spawnSync('redis-cli', [
    '--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes',
  ], { encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`cluster create failed:\n${created.stdout}${created.stderr}`);
  for (const port of ports) {
    await until(() => /cluster_state:ok/.test(cli(port, 'cluster', 'info')), 15000, `cluster never became ok on ${port}`);
  }
  clusterUrl = `redis+cluster://${ports.map((p) => `127.0.0.1:${p}`).join(',')}`;
}

function cli(port: number, ...args: string[]): string {
  return spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).stdout.trim();
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Which master serves a key ("host:port"), from the slot map the cluster connection holds. */
async function nodeOf(key: string): Promise<string> {
  const slot = Number(await redis.call('cluster', 'keyslot', key));
  return (redis as unknown as Cluster).slots[slot]![0]!;
}

beforeAll(async () => {
  await startRedisCluster();
  env = await setupTestEnv();
  redis = createRedis(clusterUrl, { name: 'cluster-test' });
  realms = [];
  for (const sub of subdomains) realms.push(await seedRealm(env.db, sub));
}, 60000);

afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  redis?.disconnect();
  await env?.close();
  for (const child of servers) child.kill('SIGKILL');
  await Promise.all(servers.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : null)));
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 30000);

const spec = (userId: number, realmId: number) => ({
  userId, realmId, eventTypes: null, narrow: [], allPublicStreams: false, clientCapabilities: {},
  applyMarkdown: true, clientGravatar: false, idleTimeoutSecs: 60, clientName: 'test',
});

it('builds a cluster connection from a redis+cluster:// URL', async () => {
  expect(isCluster(redis)).toBe(true);
  expect(await redis.ping()).toBe('PONG');
});

it('keeps queues, their indexes and their wake-ups working with keys on every node', async () => {
  const store = new QueueStore(redis, env.prefix);
  const realmId = realms[0]!.realmId;
  const queues: string[] = [];
  // The test means something only if the queues really are spread over the masters. Queue ids
  // are random, so twelve of them miss a master about once in forty runs: create them four at
  // a time (one per user) until every master holds some.
  const nodes = new Set<string>();
  while (queues.length < 12 || (nodes.size < 3 && queues.length < 48)) {
    for (let u = 0; u < 4; u++) {
      const queueId = await store.create(spec(1000 + u, realmId));
      queues.push(queueId);
      nodes.add(await nodeOf(store.metaKey(queueId)));
    }
  }
  expect(nodes.size).toBe(3);

  const results = await store.appendMany(queues.map((queueId, i) => ({ queueId, events: [{ type: 'n', i }], source: { field: 'src:0', position: '5-0' } })));
  expect(results).toEqual(queues.map(() => [null, 0]));
  // Same source position again: refused everywhere, nothing appended twice.
  expect((await store.appendMany(queues.map((queueId) => ({ queueId, events: [{ type: 'dup' }], source: { field: 'src:0', position: '5-0' } })))).map(([, id]) => id))
    .toEqual(queues.map(() => -2));
  expect((await store.getMany(queues)).map((q) => q?.userId)).toEqual(queues.map((_, i) => 1000 + (i % 4)));
  const byUser = await store.queuesOfUsers(realmId, [1000, 1001, 1002, 1003, 1004]);
  expect([...byUser.keys()].sort()).toEqual([1000, 1001, 1002, 1003]);
  expect(byUser.get(1000)!.sort()).toEqual(queues.filter((_, i) => i % 4 === 0).sort());
  for (const [i, q] of queues.entries()) expect(await store.fetch(q, 1000 + (i % 4))).toEqual([{ id: 0, type: 'n', i }]);
  // Acknowledgements a gateway held back (ADR 0026) reach every master, each routed by its
  // queue's slot, auto-pipelined with other commands; a foreign queue is reported, not pruned.
  const acked = store.ackMany([...queues.map((queueId, i) => ({ queueId, userId: 1000 + (i % 4), lastEventId: 0 })), { queueId: queues[1]!, userId: 1, lastEventId: 0 }]);
  const alongside = store.fetch(queues[2]!, 1002);
  expect(await acked).toEqual([...queues.map(() => true), false]);
  expect(await alongside).not.toBeNull();
  for (const q of queues) expect(await redis.zcard(store.eventsKey(q))).toBe(0);

  // A waiter subscribed through one node is woken by an append whose script runs on another.
  const subscriber = createBlockingRedis(clusterUrl, { name: 'cluster-test-wake' });
  try {
    const prefix = store.wakeChannel('');
    const waiter = new QueueWaiter(subscriber, (q) => store.wakeChannel(q), (c) => c.slice(prefix.length));
    for (const [i, q] of queues.slice(0, 3).entries()) {
      const started = Date.now();
      // Appended once the subscription is live: an earlier wake-up is the reader's to catch by
      // reading the queue after subscribing (the long-poll's protocol), which this test skips.
      const mark = await waiter.subscribe(q);
      setTimeout(() => void store.append(q, [{ type: 'wake' }]), 100);
      expect(await new Promise((resolve) => waiter.hold(q, mark, undefined, 5000, resolve))).toBe('woken');
      expect(Date.now() - started).toBeLessThan(2000);
      expect((await store.fetch(q, 1000 + i, 0))!.map((e) => e.type)).toEqual(['wake']);
    }
    waiter.closeAll();
  } finally {
    subscriber.disconnect();
  }

  // Deleting a queue, then sweeping ids of queues Redis dropped, across every master's keys.
  expect(await store.delete(queues[0]!, 1000)).toBe(true);
  await redis.del(store.metaKey(queues[1]!), store.eventsKey(queues[1]!));
  expect(await new IndexSweeper(store, 60000).sweep()).toBe(2); // user and realm index of queues[1]
  expect((await store.queuesOfUsers(realmId, [1000])).get(1000)!.sort()).toEqual(queues.filter((_, i) => i > 0 && i % 4 === 0).sort());
});

it('reads every partition stream with a StreamConsumer, in order per partition', async () => {
  const keys = keyspace(`${env.prefix}sc:`, { partitions: PARTITIONS });
  const got: StreamEntry[] = [];
  const consumer = new StreamConsumer({
    redis, keys, group: 'test', consumer: 'c1', startId: '0', blockMs: 200,
    handler: async (entries) => void got.push(...entries),
  });
  await consumer.start();
  try {
    for (let i = 0; i < 40; i++) {
      const p = i % PARTITIONS;
      await redis.xadd(keys.stream(p), '*', 'outbox_id', String(i), 'realm_id', String(p), 'type', 't', 'payload', JSON.stringify({ n: i }));
    }
    await until(() => got.length >= 40, 10000, `consumer got ${got.length} of 40 entries`);
    for (let p = 0; p < PARTITIONS; p++) {
      expect(got.filter((e) => e.partition === p).map((e) => e.outboxId)).toEqual(
        Array.from({ length: 10 }, (_, k) => String(k * PARTITIONS + p)),
      );
    }
    expect(got).toHaveLength(40);
  } finally {
    await consumer.stop();
  }
});

const hostOf = (sub: string) => (sub ? `${sub}.${HOST}` : HOST);

class Client {
  queueId = '';
  lastEventId = -1;
  readonly got: number[] = [];

  constructor(
    readonly user: SeededUser,
    readonly sub: string,
  ) {}

  async register(gateway: ServiceProcess) {
    const res = await request(gateway.url).post('/api/v1/register').set('Host', hostOf(this.sub))
      .auth(this.user.email, this.user.apiKey).type('form').send({ event_types: JSON.stringify(['burst']) });
    if (res.body.result !== 'success') throw new Error(`register failed: ${JSON.stringify(res.body)}`);
    this.queueId = res.body.queue_id;
  }

  async collect(count: number, gateways: ServiceProcess[], timeoutMs = 30000) {
    const deadline = Date.now() + timeoutMs;
    while (this.got.length < count && Date.now() < deadline) {
      const gateway = gateways[Math.floor(Math.random() * gateways.length)]!;
      const res = await request(gateway.url).get('/api/v1/events').set('Host', hostOf(this.sub))
        .auth(this.user.email, this.user.apiKey).query({ queue_id: this.queueId, last_event_id: String(this.lastEventId) });
      if (res.body.result !== 'success') throw new Error(`poll failed: ${JSON.stringify(res.body)}`);
      for (const e of res.body.events as Array<{ id: number; type: string; n?: number }>) {
        expect(e.id).toBeGreaterThan(this.lastEventId);
        this.lastEventId = e.id;
        if (e.type === 'burst') this.got.push(e.n!);
      }
    }
  }
}

it('fans events recorded in the outbox out to long-polls, in order, through real events and gateway processes', async () => {
  const clusterEnv = { ...env.env, REDIS_URL: clusterUrl, STREAM_PARTITIONS: String(PARTITIONS), PARTITION_LEASE_MS: '1000' };
  services.push(...(await Promise.all([startService('events', clusterEnv, { label: 'events-a' }), startService('events', clusterEnv, { label: 'events-b' })])));
  const gw = { ...clusterEnv, EVENTS_URL: services[0]!.url, EXTERNAL_HOST: HOST, RATE_LIMIT_PER_MINUTE: '1000' };
  const gateways = await Promise.all([startService('gateway', gw, { label: 'gateway-1' }), startService('gateway', gw, { label: 'gateway-2' })]);
  services.push(...gateways);

  const clients = realms.flatMap((realm, r) => [realm.member, realm.member2, realm.owner].map((u) => new Client(u, subdomains[r]!)));
  await Promise.all(clients.map((c) => c.register(gateways[0]!)));
  const store = new QueueStore(redis, env.prefix);
  expect(new Set(await Promise.all(clients.map((c) => nodeOf(store.metaKey(c.queueId))))).size).toBeGreaterThan(1);

  const COUNT = 60;
  const collecting = Promise.all(clients.map((c) => c.collect(COUNT, gateways)));
  await Promise.all(realms.map(async (realm, r) => {
    for (let i = 0; i < COUNT; i++) {
      const users = i % 2 ? ('realm' as const) : [realm.member.id, realm.member2.id, realm.owner.id];
      await env.db.$transaction((tx) => recordEvent(tx, { realmId: realm.realmId, type: 'burst', event: { type: 'burst', n: i, realm: r }, users }));
    }
  }));
  await collecting;
  for (const c of clients) expect({ who: c.user.email, sub: c.sub, got: c.got }).toEqual({ who: c.user.email, sub: c.sub, got: Array.from({ length: COUNT }, (_, i) => i) });
  // Both replicas took part: the partitions are spread over them.
  const owners = await Promise.all(Array.from({ length: PARTITIONS }, (_, p) => redis.get(`${env.prefix}events:lease:${p}`)));
  expect(new Set(owners.filter(Boolean)).size).toBe(2);
  for (const s of services) expect(s.output()).not.toMatch(/CROSSSLOT|same slot/);
}, 60000);
