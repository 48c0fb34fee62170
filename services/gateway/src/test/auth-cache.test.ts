import request from 'supertest';
import Redis from 'ioredis';
import { forgetCachedAuth, redisKeys } from '@chat/bus';
import { ROLE } from '@chat/contracts';
import type { RunningServer, ServiceHandle } from '@chat/kit';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { start } from '../app';
import { startIdentityEcho } from './upstream';
import { KnownKeys } from '../known-keys';

// Each gateway replica keeps the keys it found good in process (ADR 0022); the users service's
// forgetCachedAuth must still refuse a changed key at once on every replica.

let env: TestEnv;
let realm: SeededRealm;
let upstream: RunningServer;
let replicas: ServiceHandle[];

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; !(await check()); i++) {
    if (i > 100) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  upstream = await startIdentityEcho();
  const urls = Object.fromEntries(['MESSAGING', 'USERS', 'EVENTS', 'UPLOADS', 'PUSH'].map((s) => [`${s}_URL`, upstream.url]));
  replicas = await Promise.all([0, 1].map(() => start({ ...env.env, ...urls, PORT: '0', RATE_LIMIT_PER_MINUTE: '0' })));
  // Both replicas listen for forgets before any key is kept.
  const channel = redisKeys(env.prefix).authForgetChannel();
  await until(async () => Number(((await env.redis.pubsub('NUMSUB', channel)) as [string, number])[1]) >= 2);
});

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await upstream.close(100);
  await env.close();
});

const call = (replica: ServiceHandle, email: string, key: string) => request(replica.url).get('/api/v1/users/me').auth(email, key);
const codes = async (email: string, key: string) => Promise.all(replicas.map(async (r) => (await call(r, email, key)).body.code ?? 'OK'));

describe('keys kept in each gateway process', () => {
  it('serves a known key from memory, and refuses it on every replica as soon as the users service forgets it', async () => {
    const user = realm.member2;
    expect(await codes(user.email, user.apiKey)).toEqual(['OK', 'OK']);
    // Deactivated behind the caches' back, the Redis entry gone too: only the replicas' own
    // copies can still let the key in, and they do.
    await env.db.user.update({ where: { id: user.id }, data: { isActive: false } });
    await env.redis.del(redisKeys(env.prefix).authCache(user.apiKey));
    expect(await codes(user.email, user.apiKey)).toEqual(['OK', 'OK']);
    // What the users service does after the change commits.
    await forgetCachedAuth(env.redis, env.prefix, [user.apiKey]);
    expect(await codes(user.email, user.apiKey)).toEqual(['USER_DEACTIVATED', 'USER_DEACTIVATED']);
  });

  it('refuses a regenerated key at once on every replica, and takes the new one', async () => {
    const user = realm.moderator;
    expect(await codes(user.email, user.apiKey)).toEqual(['OK', 'OK']);
    const newKey = `${user.apiKey.slice(0, -4)}new1`;
    await env.db.user.update({ where: { id: user.id }, data: { apiKey: newKey } });
    await forgetCachedAuth(env.redis, env.prefix, [user.apiKey]);
    expect(await codes(user.email, user.apiKey)).toEqual(['INVALID_API_KEY', 'INVALID_API_KEY']);
    expect(await codes(user.email, newKey)).toEqual(['OK', 'OK']);
  });

  it('drops every kept key with any forgotten one', async () => {
    const user = realm.admin;
    expect(await codes(user.email, user.apiKey)).toEqual(['OK', 'OK']);
    await env.db.user.update({ where: { id: user.id }, data: { role: ROLE.MODERATOR } });
    await env.redis.del(redisKeys(env.prefix).authCache(user.apiKey));
    await forgetCachedAuth(env.redis, env.prefix, ['some-other-key']);
    // Nothing kept and nothing in Redis: the database's row, with its new role.
    for (const replica of replicas) {
      expect((await call(replica, user.email, user.apiKey)).body.identity).toMatchObject({ userId: user.id, role: ROLE.MODERATOR });
    }
  });
});

describe('KnownKeys', () => {
  let subscriber: Redis;
  const channel = () => redisKeys(env.prefix).authForgetChannel();

  beforeEach(() => {
    subscriber = new Redis(env.redisUrl, { maxRetriesPerRequest: null, retryStrategy: () => 20 });
  });
  afterEach(() => subscriber.disconnect());

  it('keeps nothing until subscribed, and nothing a lookup found while a forget came in', async () => {
    const known = new KnownKeys<{ id: number }>(60_000);
    known.keep('k', { id: 1 }, known.generation);
    expect(known.get('k')).toBeUndefined();
    known.listen(subscriber, channel());
    await until(async () => known.listening);
    const before = known.generation;
    await env.redis.publish(channel(), 'x');
    await until(async () => known.generation !== before);
    known.keep('k', { id: 1 }, before);
    expect(known.get('k')).toBeUndefined();
    known.keep('k', { id: 1 }, known.generation);
    expect(known.get('k')).toEqual({ id: 1 });
  });

  it('drops every entry when the connection drops, and keeps again only once subscribed anew', async () => {
    const known = new KnownKeys<{ id: number }>(60_000);
    known.listen(subscriber, channel());
    await until(async () => known.listening);
    known.keep('k', { id: 1 }, known.generation);
    // Seen from a listener behind the cache's own: the state right after the connection closed.
    const atClose = new Promise<[boolean, unknown]>((resolve) => subscriber.once('close', () => resolve([known.listening, known.get('k')])));
    (subscriber as unknown as { stream: { destroy(): void } }).stream.destroy();
    expect(await atClose).toEqual([false, undefined]);
    known.keep('k', { id: 3 }, known.generation);
    expect(known.get('k')).toBeUndefined();
    await until(async () => known.listening);
    known.keep('k', { id: 2 }, known.generation);
    expect(known.get('k')).toEqual({ id: 2 });
    const before = known.generation;
    await env.redis.publish(channel(), 'x');
    await until(async () => known.generation !== before);
    expect(known.get('k')).toBeUndefined();
  });

  it('lets entries expire and keeps at most its bound, oldest out first', async () => {
    const known = new KnownKeys<number>(30, 2);
    known.listen(subscriber, channel());
    await until(async () => known.listening);
    for (const k of ['a', 'b', 'c']) known.keep(k, 1, known.generation);
    expect([known.get('a'), known.get('b'), known.get('c')]).toEqual([undefined, 1, 1]);
    await new Promise((r) => setTimeout(r, 40));
    expect(known.get('b')).toBeUndefined();
  });
});
