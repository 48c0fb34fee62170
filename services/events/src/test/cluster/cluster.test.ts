/**
 * The event system as deployed: two gateway processes and two events-service processes on one
 * database and Redis, clients long-polling whichever gateway they like.
 */
import request from 'supertest';
import { recordEvent } from '@chat/bus';
import { seedRealm, setupTestEnv, startService, type SeededRealm, type SeededUser, type ServiceProcess, type TestEnv } from '@chat/testing';

const HOST = 'chat.test';
let env: TestEnv;
let realms: SeededRealm[];
const subdomains = ['', 'r1', 'r2', 'r3'];
let eventsA: ServiceProcess;
let eventsB: ServiceProcess;
let gateways: ServiceProcess[];

beforeAll(async () => {
  env = await setupTestEnv();
  realms = [];
  for (const sub of subdomains) realms.push(await seedRealm(env.db, sub));
  const events = { ...env.env, STREAM_PARTITIONS: '4', PARTITION_LEASE_MS: '1000' };
  [eventsA, eventsB] = await Promise.all([startService('events', events, { label: 'events-a' }), startService('events', events, { label: 'events-b' })]);
  const gw = (eventsUrl: string) => ({
    ...env.env, EVENTS_URL: eventsUrl, EXTERNAL_HOST: HOST, EVENTS_HEARTBEAT_SECONDS: '1.5', RATE_LIMIT_PER_MINUTE: '0',
  });
  gateways = await Promise.all([startService('gateway', gw(eventsA.url), { label: 'gateway-1' }), startService('gateway', gw(eventsB.url), { label: 'gateway-2' })]);
  // Both replicas hold partitions before the first burst.
  await until(async () => new Set(Object.values(await leaseOwners())).size === 2, 15000, 'partitions never spread over both replicas');
}, 90000);

afterAll(async () => {
  await Promise.all([...(gateways ?? []), eventsA, eventsB].filter(Boolean).map((p) => p.stop()));
  await env?.close();
});

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function leaseOwners(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (let p = 0; p < 4; p++) {
    const owner = await env.redis.get(`${env.prefix}events:lease:${p}`);
    if (owner) out[p] = owner;
  }
  return out;
}

const hostOf = (sub: string) => (sub ? `${sub}.${HOST}` : HOST);

class Client {
  queueId = '';
  lastEventId = -1;
  readonly burst: number[] = [];
  readonly ids: number[] = [];
  polls = 0;

  constructor(
    readonly user: SeededUser,
    readonly sub: string,
  ) {}

  async register(gateway: ServiceProcess, params: Record<string, string> = {}) {
    const res = await request(gateway.url).post('/api/v1/register').set('Host', hostOf(this.sub))
      .auth(this.user.email, this.user.apiKey).type('form').send({ event_types: JSON.stringify(['burst']), ...params });
    if (res.body.result !== 'success') throw new Error(`register failed: ${JSON.stringify(res.body)}`);
    this.queueId = res.body.queue_id;
    return res.body;
  }

  async poll(gateway: ServiceProcess, extra: Record<string, string> = {}) {
    this.polls++;
    const res = await request(gateway.url).get('/api/v1/events').set('Host', hostOf(this.sub))
      .auth(this.user.email, this.user.apiKey)
      .query({ queue_id: this.queueId, last_event_id: String(this.lastEventId), ...extra });
    if (res.body.result !== 'success') return res;
    for (const e of res.body.events as Array<{ id: number; type: string; n?: number }>) {
      this.ids.push(e.id);
      this.lastEventId = Math.max(this.lastEventId, e.id);
      if (e.type === 'burst') this.burst.push(e.n!);
    }
    return res;
  }

  /** Long-polls random live gateways until `count` burst events arrived. */
  async collect(count: number, live: () => ServiceProcess[], timeoutMs = 60000) {
    const deadline = Date.now() + timeoutMs;
    while (this.burst.length < count && Date.now() < deadline) {
      const choices = live();
      const gateway = choices[Math.floor(Math.random() * choices.length)]!;
      try {
        await this.poll(gateway);
      } catch {
        // A gateway stopping under us: carry on against another one.
      }
    }
  }
}

/** Records `count` events per realm, sequentially within a realm, realms concurrently. */
async function burst(count: number, onEach?: (i: number) => Promise<void> | void) {
  await Promise.all(realms.map(async (realm, r) => {
    for (let i = 0; i < count; i++) {
      // Alternate explicit recipients and realm-wide delivery: both paths keep order.
      const users = i % 2 ? 'realm' as const : [realm.member.id, realm.member2.id, realm.owner.id];
      await env.db.$transaction((tx) => recordEvent(tx, { realmId: realm.realmId, type: 'burst', event: { type: 'burst', n: i, realm: r }, users }));
      if (r === 0) await onEach?.(i);
    }
  }));
}

function clientsFor(): Client[] {
  return realms.flatMap((realm, r) => [realm.member, realm.member2, realm.owner].map((u) => new Client(u, subdomains[r]!)));
}

const sequence = (n: number) => Array.from({ length: n }, (_, i) => i);

function expectExactlyOnceInOrder(clients: Client[], count: number) {
  for (const c of clients) {
    expect({ user: c.user.email, realm: c.sub, burst: c.burst }).toEqual({ user: c.user.email, realm: c.sub, burst: sequence(count) });
    expect(c.ids).toEqual([...c.ids].sort((a, b) => a - b));
    expect(new Set(c.ids).size).toBe(c.ids.length);
  }
}

// On a slow two-core machine this burst through the cluster outlasted jest's default minute.
it('delivers every event of a burst to every queue exactly once and in order, whichever gateway each client polls', async () => {
  const clients = clientsFor();
  await Promise.all(clients.map((c, i) => c.register(gateways[i % 2]!)));
  const COUNT = 150;
  const collecting = Promise.all(clients.map((c) => c.collect(COUNT, () => gateways)));
  await burst(COUNT);
  await collecting;
  expectExactlyOnceInOrder(clients, COUNT);
}, 150_000);

it('answers a blocking poll with nothing to say with a heartbeat', async () => {
  const c = new Client(realms[1]!.member, 'r1');
  await c.register(gateways[0]!, { event_types: JSON.stringify(['heartbeat']) });
  const started = Date.now();
  const res = await c.poll(gateways[1]!);
  expect(res.body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
  // Heartbeats are spread over 90-110% of the configured 1.5 s.
  expect(Date.now() - started).toBeGreaterThanOrEqual(1350);
});

it('collects an idle queue after its timeout, once, and answers BAD_EVENT_QUEUE_ID from every gateway', async () => {
  const c = new Client(realms[2]!.member, 'r2');
  const body = await c.register(gateways[1]!, { idle_queue_timeout: '2' });
  expect(body.idle_queue_timeout_secs).toBe(2);
  expect((await c.poll(gateways[0]!, { dont_block: 'true' })).body.result).toBe('success');
  await new Promise((r) => setTimeout(r, 2500));
  for (const gateway of gateways) {
    const res = await c.poll(gateway, { dont_block: 'true' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_EVENT_QUEUE_ID', queue_id: c.queueId });
  }
  expect(await env.redis.exists(`${env.prefix}{q:${c.queueId}}:meta`, `${env.prefix}{q:${c.queueId}}:events`)).toBe(0);
  const unknown = await request(gateways[0]!.url).get('/api/v1/events').set('Host', hostOf('r2'))
    .auth(c.user.email, c.user.apiKey).query({ queue_id: 'no-such-queue', last_event_id: '-1' });
  expect(unknown.body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', msg: 'Bad event queue ID: no-such-queue' });
});

it('loses and duplicates nothing when an events replica is killed and a gateway stops mid-burst', async () => {
  const clients = clientsFor();
  await Promise.all(clients.map((c, i) => c.register(gateways[i % 2]!)));
  const COUNT = 200;
  let live = [...gateways];
  const collecting = Promise.all(clients.map((c) => c.collect(COUNT, () => live, 90000)));
  await burst(COUNT, async (i) => {
    if (i === 60) await eventsA.kill();
    if (i === 100) {
      // Draining: its waiting long-polls answer at once and clients move to the other gateway.
      live = [gateways[1]!];
      expect(await gateways[0]!.stop()).toBe(0);
    }
  });
  await collecting;
  expectExactlyOnceInOrder(clients, COUNT);
  // The survivor took every partition over.
  expect(new Set(Object.values(await leaseOwners())).size).toBe(1);
}, 120000);
