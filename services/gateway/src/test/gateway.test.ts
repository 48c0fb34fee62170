import request from 'supertest';
import { createApp, createLogger, endpoint, listen, type RunningServer, type ServiceHandle } from '@chat/kit';
import { QueueStore } from '@chat/queues';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { start } from '../app';

// A real HTTP service standing in for every owner: it reports what the gateway told it.
async function startUpstream(): Promise<RunningServer> {
  const { app } = createApp({
    service: 'upstream',
    log: createLogger('upstream', 'silent'),
    internalSecret: 'test-internal-secret-for-component-tests',
    api: (r) => {
      const echo = endpoint(({ identity, p, req }) => ({ identity, params: p.raw('content'), topic: p.raw('topic'), method: req.method }), { auth: 'optional' });
      r.all('/{*path}', echo);
    },
  });
  return listen(app, { host: '127.0.0.1', port: 0 });
}

let env: TestEnv;
let realm: SeededRealm;
let upstream: RunningServer;
let gateway: ServiceHandle;
let store: QueueStore;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  upstream = await startUpstream();
  const urls = Object.fromEntries(['MESSAGING', 'USERS', 'EVENTS', 'UPLOADS', 'PUSH'].map((s) => [`${s}_URL`, upstream.url]));
  // Acknowledgements batched over 10 ms rather than 1 s: these tests' heartbeats come after 0.5 s.
  gateway = await start({ ...env.env, ...urls, PORT: '0', EVENTS_HEARTBEAT_SECONDS: '0.5', EVENTS_ACK_BATCH_MS: '10', RATE_LIMIT_PER_MINUTE: '0' });
  store = new QueueStore(env.redis, env.prefix);
});

afterAll(async () => {
  await gateway.stop();
  await upstream.close(100);
  await env.close();
});

const spec = (userId: number) => ({
  userId, realmId: realm.realmId, eventTypes: null, narrow: [], allPublicStreams: false, clientCapabilities: {},
  applyMarkdown: true, clientGravatar: true, idleTimeoutSecs: 600, clientName: 'test',
});

describe('routing and authentication', () => {
  it('answers unknown paths with a JSON 404', async () => {
    const res = await request(gateway.url).get('/api/v1/no/such/thing').auth(realm.member.email, realm.member.apiKey);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ result: 'error', code: 'NOT_FOUND' });
  });

  it('requires Basic auth where the route does, and refuses bad keys', async () => {
    const missing = await request(gateway.url).get('/api/v1/messages');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ code: 'UNAUTHORIZED' });
    const wrong = await request(gateway.url).get('/api/v1/messages').auth(realm.member.email, 'x'.repeat(32));
    expect(wrong.body).toMatchObject({ code: 'INVALID_API_KEY', msg: 'Invalid API key' });
    const otherEmail = await request(gateway.url).get('/api/v1/messages').auth(realm.admin.email, realm.member.apiKey);
    expect(otherEmail.status).toBe(401);
  });

  it('accepts the real address where the API email is a placeholder', async () => {
    const placeholder = `user${realm.moderator.id}@chat.test`;
    await env.db.user.update({ where: { id: realm.moderator.id }, data: { email: placeholder } });
    const byReal = await request(gateway.url).get('/api/v1/messages').auth(realm.moderator.email, realm.moderator.apiKey);
    expect(byReal.body.identity).toMatchObject({ userId: realm.moderator.id, email: placeholder });
    const byApiEmail = await request(gateway.url).get('/api/v1/messages').auth(placeholder, realm.moderator.apiKey);
    expect(byApiEmail.status).toBe(200);
  });

  it('refuses deactivated users', async () => {
    await env.db.user.update({ where: { id: realm.member2.id }, data: { isActive: false } });
    const res = await request(gateway.url).get('/api/v1/messages').auth(realm.member2.email, realm.member2.apiKey);
    expect(res.body).toMatchObject({ code: 'USER_DEACTIVATED' });
  });

  it('forwards with a signed identity, dropping a forged one, and streams multipart bodies', async () => {
    const res = await request(gateway.url)
      .post('/api/v1/messages?topic=greetings')
      .set('x-chat-identity', 'forged')
      .auth(realm.member.email, realm.member.apiKey)
      .field('content', 'hello');
    expect(res.status).toBe(200);
    expect(res.body.identity).toMatchObject({ realmId: realm.realmId, userId: realm.member.id, role: 400 });
    expect(res.body).toMatchObject({ params: 'hello', topic: 'greetings', method: 'POST' });
  });

  it('forwards unauthenticated routes with the realm but no user', async () => {
    const res = await request(gateway.url).get('/api/v1/server_settings');
    expect(res.body.identity).toEqual(expect.objectContaining({ realmId: realm.realmId }));
    expect(res.body.identity.userId).toBeUndefined();
  });
});

describe('GET and DELETE /events', () => {
  const get = (qs: string, user = realm.member) =>
    request(gateway.url).get(`/api/v1/events?${qs}`).auth(user.email, user.apiKey);

  it('answers BAD_EVENT_QUEUE_ID for unknown queues and for other users\' queues', async () => {
    expect((await get('queue_id=nope&last_event_id=-1')).body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: 'nope' });
    const q = await store.create(spec(realm.admin.id));
    expect((await get(`queue_id=${q}&last_event_id=-1`)).body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
  });

  it('returns queued events above last_event_id and prunes the rest', async () => {
    const q = await store.create(spec(realm.member.id));
    await store.append(q, [{ type: 'a' }, { type: 'b' }]);
    const first = await get(`queue_id=${q}&last_event_id=-1&dont_block=true`);
    expect(first.body).toMatchObject({ result: 'success', queue_id: q, events: [{ type: 'a', id: 0 }, { type: 'b', id: 1 }] });
    const second = await get(`queue_id=${q}&last_event_id=1&dont_block=true`);
    expect(second.body.events).toEqual([]);
  });

  it('wakes a blocked long-poll as soon as an event arrives', async () => {
    const q = await store.create(spec(realm.member.id));
    const started = Date.now();
    const poll = get(`queue_id=${q}&last_event_id=-1`);
    setTimeout(() => void store.append(q, [{ type: 'x' }]), 150);
    const res = await poll;
    expect(res.body.events).toEqual([{ type: 'x', id: 0 }]);
    expect(Date.now() - started).toBeLessThan(450);
  });

  it('answers a silent blocking poll with a heartbeat', async () => {
    const q = await store.create(spec(realm.member.id));
    const res = await get(`queue_id=${q}&last_event_id=-1`);
    expect(res.body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
  });

  it('checks last_event_id as the family does: required, not below what was pruned, one the queue issued', async () => {
    const q = await store.create(spec(realm.member.id));
    await store.append(q, [{ type: 'a' }, { type: 'b' }, { type: 'c' }]);
    expect((await get(`queue_id=${q}&dont_block=true`)).body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: "Missing 'last_event_id' argument" });
    expect((await get('last_event_id=-1')).body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: "Missing 'queue_id' argument" });
    expect((await get(`queue_id=${q}&last_event_id=0&dont_block=true`)).body.events.map((e: { id: number }) => e.id)).toEqual([1, 2]);
    // Going backwards: the client lost events and must be told.
    expect((await get(`queue_id=${q}&last_event_id=-1&dont_block=true`)).body).toMatchObject({
      result: 'error', code: 'BAD_REQUEST', msg: 'An event newer than -1 has already been pruned!',
    });
    // The same acknowledgement again is fine (a poll cut off and retried).
    expect((await get(`queue_id=${q}&last_event_id=0&dont_block=true`)).body.events).toHaveLength(2);
    expect((await get(`queue_id=${q}&last_event_id=7&dont_block=true`)).body).toMatchObject({
      result: 'error', code: 'BAD_REQUEST', msg: 'Event 7 was not in this queue',
    });
  });

  it('answers a poll cut off by a draining gateway with the events it holds, and drains within a second', async () => {
    const other = await start({ ...env.env, ...Object.fromEntries(['MESSAGING', 'USERS', 'EVENTS', 'UPLOADS', 'PUSH'].map((s) => [`${s}_URL`, upstream.url])), PORT: '0', EVENTS_HEARTBEAT_SECONDS: '30', RATE_LIMIT_PER_MINUTE: '0' });
    const q = await store.create(spec(realm.member.id));
    const poll = request(other.url).get(`/api/v1/events?queue_id=${q}&last_event_id=-1`).auth(realm.member.email, realm.member.apiKey).then((r) => r);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    await other.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await poll).body).toMatchObject({ result: 'success', events: [], queue_id: q });
  });

  it('holds a re-poll after an answer from a wake-up without reading the queue, and acknowledges it soon after', async () => {
    const q = await store.create(spec(realm.member.id));
    const heldUnread = async () => {
      const text = await (await fetch(`${gateway.metricsUrl}/metrics`)).text();
      return Number(/^gateway_repolls_held_unread_total\{[^}]*\} (\d+)/m.exec(text)![1]);
    };
    const poll = (last: number) => get(`queue_id=${q}&last_event_id=${last}`).then((r) => r);
    const first = poll(-1);
    setTimeout(() => void store.append(q, [{ type: 'a' }]), 150);
    expect((await first).body.events).toEqual([{ type: 'a', id: 0 }]);
    const before = await heldUnread();
    // The same client again: held at once; event 0 is pruned by the batch, not by a read.
    const second = poll(0);
    await new Promise((r) => setTimeout(r, 150));
    expect(await heldUnread()).toBe(before + 1);
    expect(await env.redis.zcard(store.eventsKey(q))).toBe(0);
    await store.append(q, [{ type: 'b' }]);
    expect((await second).body.events).toEqual([{ type: 'b', id: 1 }]);
    // Deleted meanwhile: the batch finds it gone and the held poll answers as for any gone queue.
    const third = poll(1);
    await new Promise((r) => setTimeout(r, 100));
    await store.delete(q, realm.member.id);
    const fourth = poll(1);
    expect((await third).body).toMatchObject({ result: 'error', code: 'BAD_EVENT_QUEUE_ID', queue_id: q });
    expect((await fourth).body).toMatchObject({ result: 'error', code: 'BAD_EVENT_QUEUE_ID', queue_id: q });
    expect(await heldUnread()).toBe(before + 3);
  });

  it('deletes a queue', async () => {
    const q = await store.create(spec(realm.member.id));
    const del = await request(gateway.url).delete('/api/v1/events').type('form').send({ queue_id: q }).auth(realm.member.email, realm.member.apiKey);
    expect(del.body).toMatchObject({ result: 'success' });
    expect((await get(`queue_id=${q}&last_event_id=-1&dont_block=true`)).body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
  });
});

describe('rate limits and draining', () => {
  it('limits requests per user with RATE_LIMIT_HIT', async () => {
    const limited = await start({ ...env.env, MESSAGING_URL: upstream.url, PORT: '0', RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const call = () => request(limited.url).get('/api/v1/messages').auth(realm.admin.email, realm.admin.apiKey);
      expect((await call()).status).toBe(200);
      expect((await call()).status).toBe(200);
      const third = await call();
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' });
      expect(third.headers['retry-after']).toBeDefined();
    } finally {
      await limited.stop();
    }
  });

  it('ends waiting long-polls cleanly when stopping', async () => {
    const other = await start({ ...env.env, PORT: '0', EVENTS_HEARTBEAT_SECONDS: '30' });
    const q = await store.create(spec(realm.member.id));
    const poll = request(other.url).get(`/api/v1/events?queue_id=${q}&last_event_id=-1`).auth(realm.member.email, realm.member.apiKey);
    const pending = poll.then((r) => r);
    await new Promise((r) => setTimeout(r, 200));
    const stopped = other.stop();
    const res = await pending;
    await stopped;
    expect(res.body).toMatchObject({ result: 'success', events: [] });
  });
});
