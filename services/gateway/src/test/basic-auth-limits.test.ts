import { redisKeys } from '@chat/bus';
import request from 'supertest';
import type { RunningServer, ServiceHandle } from '@chat/kit';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { start } from '../app';
import { startIdentityEcho } from './upstream';

// Failed HTTP Basic attempts are limited per client address and per claimed email (Redis).

let env: TestEnv;
let realm: SeededRealm;
let upstream: RunningServer;
/** Default limits, the client address taken from the socket. */
let direct: ServiceHandle;
/** Behind one trusted proxy (X-Forwarded-For), with a small per-email allowance. */
let proxied: ServiceHandle;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  upstream = await startIdentityEcho();
  const urls = Object.fromEntries(['MESSAGING', 'USERS', 'EVENTS', 'UPLOADS', 'PUSH'].map((s) => [`${s}_URL`, upstream.url]));
  const common = { ...env.env, ...urls, PORT: '0', RATE_LIMIT_PER_MINUTE: '0' };
  direct = await start(common);
  // A prefix of its own, so its counts do not mix with the other gateway's.
  proxied = await start({
    ...common, REDIS_PREFIX: `${env.prefix}proxied:`, TRUSTED_PROXY_HOPS: '1',
    BASIC_AUTH_FAILURES_PER_EMAIL: '5', BASIC_AUTH_FAILURES_PER_IP: '100',
  });
});

afterAll(async () => {
  await direct.stop();
  await proxied.stop();
  await upstream.close(100);
  await env.close();
});

const wrongKey = 'x'.repeat(32);

describe('failed HTTP Basic attempts', () => {
  it('passes the client address on to services in the signed identity', async () => {
    const res = await request(direct.url).get('/api/v1/users/me').auth(realm.member.email, realm.member.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.identity.clientIp).toMatch(/127\.0\.0\.1/);
    const behind = await request(proxied.url).get('/api/v1/users/me').set('X-Forwarded-For', '198.51.100.7, 203.0.113.9').auth(realm.member.email, realm.member.apiKey);
    expect(behind.body.identity.clientIp).toBe('203.0.113.9');
  });

  it('limits an address that sends 50 wrong keys at once, whatever emails and forwarded-for it claims', async () => {
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        request(direct.url).get('/api/v1/messages').set('X-Forwarded-For', `192.0.2.${i}`).auth(`guess${i}@chat.test`, wrongKey),
      ),
    );
    const elapsed = Date.now() - started;
    const statuses = answers.map((r) => r.status);
    // 30 failures per minute by default: the rest are refused, with Retry-After.
    expect(statuses.filter((s) => s === 401)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    const limited = answers.find((r) => r.status === 429)!;
    expect(limited.body).toMatchObject({ result: 'error', code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.body['retry-after']).toBe(Number(limited.headers['retry-after']));
    // Once limited the address is refused before the database is asked about a key: a wrong
    // one, or a right one not in the cache; the long-poll path shares the limiter.
    const wrong = await request(direct.url).get('/api/v1/messages').auth(realm.member.email, 'y'.repeat(32));
    expect(wrong.status).toBe(429);
    await env.redis.del(redisKeys(env.prefix).authCache(realm.admin.apiKey));
    const uncached = await request(direct.url).get('/api/v1/messages').auth(realm.admin.email, realm.admin.apiKey);
    expect(uncached.status).toBe(429);
    const poll = await request(direct.url).get('/api/v1/events?queue_id=x&last_event_id=-1').auth(realm.moderator.email, realm.moderator.apiKey);
    expect(poll.status).toBe(429);
    expect(poll.headers['retry-after']).toBeDefined();
    // A key the gateway already knows to be good (cached by the first test) is not a guess.
    const known = await request(direct.url).get('/api/v1/messages').auth(realm.member.email, realm.member.apiKey);
    expect(known.status).toBe(200);
    expect(elapsed).toBeLessThan(10_000);
  });

  it('limits wrong keys for one email from many addresses, but lets its right key through', async () => {
    const email = realm.member2.email;
    const attempt = (i: number, key = wrongKey) =>
      request(proxied.url).get('/api/v1/messages').set('X-Forwarded-For', `198.51.100.${i}`).auth(email, key);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await attempt(i)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const ok = await attempt(99, realm.member2.apiKey);
    expect(ok.status).toBe(200);
    // Another email from the same addresses is not affected.
    const other = await request(proxied.url).get('/api/v1/messages').set('X-Forwarded-For', '198.51.100.1').auth(realm.admin.email, wrongKey);
    expect(other.status).toBe(401);
    expect(other.body.code).toBe('INVALID_API_KEY');
  });

  it('does not count correct keys or requests without credentials', async () => {
    for (let i = 0; i < 40; i++) {
      const res = await request(proxied.url).get('/api/v1/messages').set('X-Forwarded-For', '198.51.100.200').auth(realm.owner.email, realm.owner.apiKey);
      expect(res.status).toBe(200);
    }
    const wrong = await request(proxied.url).get('/api/v1/messages').set('X-Forwarded-For', '198.51.100.200').auth(realm.owner.email, wrongKey);
    expect(wrong.body.code).toBe('INVALID_API_KEY');
  });
});
