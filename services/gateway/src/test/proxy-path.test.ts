import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { verifyIdentity, type ServiceHandle } from '@chat/kit';
import { freePort, seedRealm, setupTestEnv, TEST_INTERNAL_SECRET, type SeededRealm, type TestEnv } from '@chat/testing';
import { start } from '../app';

// Proxied routes are served ahead of express (proxy-path.ts); what a service and a client see
// must be what the express path gave them.

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  bytes: number;
}

let env: TestEnv;
let realm: SeededRealm;
let upstream: http.Server;
let gateway: ServiceHandle;
let metricsUrl: string;
const seen: Seen[] = [];

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  // Reports what arrived; `?answer=<bytes>` answers that many bytes.
  upstream = http.createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, bytes });
      const size = Number(new URL(req.url!, 'http://x').searchParams.get('answer') ?? 0);
      const body = size ? 'x'.repeat(size) : JSON.stringify({ result: 'success', msg: '', bytes });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': ['a=1', 'b=2'] }).end(body);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const urls = Object.fromEntries(['MESSAGING', 'USERS', 'EVENTS', 'UPLOADS', 'PUSH'].map((s) => [`${s}_URL`, url]));
  const metricsPort = await freePort();
  gateway = await start({ ...env.env, ...urls, PORT: '0', RATE_LIMIT_PER_MINUTE: '0', METRICS_PORT: String(metricsPort) });
  metricsUrl = gateway.metricsUrl!;
});

afterAll(async () => {
  await gateway.stop();
  await new Promise((r) => upstream.close(r));
  await env.close();
});

const last = () => seen[seen.length - 1]!;

describe('the proxy path', () => {
  it('forwards with the signed identity and forwarding headers, and answers with the id and security headers', async () => {
    const res = await request(gateway.url)
      .post('/api/v1/messages?topic=a%20b')
      .set('X-Chat-Identity', 'forged').set('X-Chat-Other', 'x')
      .set('X-Forwarded-For', '198.51.100.7').set('X-Forwarded-Proto', 'https, http')
      .auth(realm.member.email, realm.member.apiKey)
      .type('form').send({ content: 'hello' });
    expect(res.status).toBe(200);
    const got = last();
    expect(got).toMatchObject({ method: 'POST', url: '/api/v1/messages?topic=a%20b', bytes: 'content=hello'.length });
    expect(verifyIdentity(TEST_INTERNAL_SECRET, got.headers['x-chat-identity'] as string)).toMatchObject({ realmId: realm.realmId, userId: realm.member.id });
    expect(got.headers).toMatchObject({
      'x-forwarded-for': expect.stringMatching(/^198\.51\.100\.7, .*127\.0\.0\.1$/), 'x-forwarded-proto': 'https', 'content-type': 'application/x-www-form-urlencoded',
    });
    expect(got.headers['x-chat-other']).toBeUndefined();
    expect(got.headers.authorization).toBeUndefined();
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.headers['x-request-id']).toBe(res.headers['x-request-id']);
    expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'strict-origin-when-cross-origin' });
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
  });

  it('leaves percent-encoded paths to express, which forwards them alike or refuses a NUL', async () => {
    const res = await request(gateway.url).get('/api/v1/messages/%31%32').auth(realm.member.email, realm.member.apiKey);
    expect(res.status).toBe(200);
    expect(last().url).toBe('/api/v1/messages/%31%32');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const nul = await request(gateway.url).get('/api/v1/messages/%00').auth(realm.member.email, realm.member.apiKey);
    expect(nul.body).toMatchObject({ result: 'error', code: 'NOT_FOUND' });
  });

  it('refuses in the envelope, before any service sees the request', async () => {
    const before = seen.length;
    const missing = await request(gateway.url).post('/api/v1/messages');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Basic realm="chat"');
    expect(missing.body).toEqual({ result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' });
    expect(missing.headers['x-request-id']).toBeDefined();
    expect(seen.length).toBe(before);
    expect((await request(gateway.url).get('/healthz')).body).toEqual({ status: 'ok' });
  });

  it('streams large bodies both ways', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024, 'a');
    const up = await request(gateway.url).post('/api/v1/user_uploads').auth(realm.member.email, realm.member.apiKey)
      .set('Content-Type', 'application/octet-stream').send(body);
    expect(up.body).toMatchObject({ bytes: body.length });
    const down = await request(gateway.url).get('/api/v1/messages?answer=2000000').auth(realm.member.email, realm.member.apiKey).buffer(true).parse((r, cb) => {
      let n = 0;
      r.on('data', (c: Buffer) => (n += c.length));
      r.on('end', () => cb(null, n));
    });
    expect(down.body).toBe(2_000_000);
  });

  it('counts requests by route template in the metrics', async () => {
    await request(gateway.url).get('/api/v1/messages/77').auth(realm.member.email, realm.member.apiKey);
    const text = await (await fetch(`${metricsUrl}/metrics`)).text();
    expect(text).toMatch(/http_request_duration_seconds_count\{service="gateway",method="GET",route="\/api\/v1\/messages\/\*",status="200"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_count\{service="gateway",method="POST",route="\/api\/v1\/messages\/\*",status="401"\} [1-9]/);
  });

  it('answers SERVICE_UNAVAILABLE when the owner cannot be reached', async () => {
    const down = await start({ ...env.env, MESSAGING_URL: `http://127.0.0.1:${await freePort()}`, PORT: '0', RATE_LIMIT_PER_MINUTE: '0' });
    try {
      const res = await request(down.url).get('/api/v1/messages').auth(realm.member.email, realm.member.apiKey);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ result: 'error', msg: 'Service temporarily unavailable', code: 'SERVICE_UNAVAILABLE' });
    } finally {
      await down.stop();
    }
  });
});
