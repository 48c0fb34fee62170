import { spawn, spawnSync } from 'node:child_process';
import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { errors } from '@chat/contracts';
import { createApp, createLogger, endpoint, listen, signIdentity, basicAuth, loadConfig, baseConfigSchema, metricsPort } from '..';

const secret = 'test-internal-secret-0123456789';
const log = createLogger('kit-test', 'silent');
const identity = { realmId: 1, realmUrl: 'http://chat.test', userId: 7, email: 'a@x', role: 400, isBot: false };
const auth = () => signIdentity(secret, identity);

function build() {
  return buildFull().app;
}

function buildFull() {
  return createApp({
    service: 'kit-test',
    log,
    internalSecret: secret,
    api: (r) => {
      const echo = endpoint(({ p }) => ({
        name: p.str('name'),
        count: p.int('count'),
        flag: p.bool('flag', false),
        to: p.json('to', z.array(z.number().int())),
      }));
      r.post('/echo', echo);
      r.patch('/echo', echo);
      r.delete('/echo', echo);
      r.get('/echo', echo);
      r.get('/boom', endpoint(() => {
        throw new Error('kaboom');
      }));
      r.get('/stream', endpoint(() => {
        throw errors.streamDoesNotExist('nope');
      }));
      r.get('/anon', endpoint(({ identity: id }) => ({ user: id.userId ?? null }), { auth: 'optional' }));
    },
  });
}

describe('parameters as clients send them', () => {
  const app = build();
  it('reads form-encoded bodies with JSON lists and booleans', async () => {
    const res = await request(app).post('/api/v1/echo').set('x-chat-identity', auth())
      .type('form').send({ name: 'x', count: '3', flag: 'true', to: '[1,2]' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', name: 'x', count: 3, flag: true, to: [1, 2] });
  });
  it('reads multipart bodies', async () => {
    const res = await request(app).post('/api/v1/echo').set('x-chat-identity', auth())
      .field('name', 'multi').field('to', '[5]');
    expect(res.body).toMatchObject({ result: 'success', name: 'multi', to: [5] });
  });
  it('reads query strings on PATCH and DELETE', async () => {
    for (const method of ['patch', 'delete'] as const) {
      const res = await request(app)[method]('/api/v1/echo?name=q&flag=false').set('x-chat-identity', auth());
      expect(res.body).toMatchObject({ result: 'success', name: 'q', flag: false });
    }
  });
  it('reports unsupported parameters', async () => {
    const res = await request(app).get('/api/v1/echo?zeta=0&name=a&other=2&bogus=1').set('x-chat-identity', auth());
    // Sorted, whatever order the request named them in, as the family lists them.
    expect(res.body.ignored_parameters_unsupported).toEqual(['bogus', 'other', 'zeta']);
  });
  it('refuses bad values with the envelope', async () => {
    const bad = async (q: string) => (await request(app).get(`/api/v1/echo?${q}`).set('x-chat-identity', auth())).body;
    expect(await bad('count=x')).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'count is not an integer' });
    expect(await bad('flag=yes')).toMatchObject({ code: 'BAD_REQUEST', msg: 'flag is not a boolean' });
    expect(await bad('to=[1,')).toMatchObject({ code: 'INVALID_JSON' });
    expect(await bad('to=["a"]')).toMatchObject({ code: 'BAD_REQUEST' });
  });
  it('refuses NUL bytes in any parameter before it can reach the database', async () => {
    const bad = async (q: string) => (await request(app).get(`/api/v1/echo?${q}`).set('x-chat-identity', auth())).body;
    expect(await bad('name=a%00b')).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'name contains NULL (0x00) characters.', var_name: 'name' });
    expect(await bad('to=%5B%22%5Cu0000%22%5D')).toMatchObject({ code: 'BAD_REQUEST', msg: 'to contains NULL (0x00) characters.' });
    const json = await request(app).post('/api/v1/echo').set('x-chat-identity', auth()).send({ name: 'x\u0000y' });
    expect(json.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'name contains NULL (0x00) characters.' });
  });
  it('answers paths holding a NUL byte or undecodable escapes as not found, before identity', async () => {
    for (const path of ['/api/v1/echo%00', '/user_uploads/1/%00/etc/passwd', '/api/v1/%ff%fe']) {
      const res = await request(app).get(path);
      expect({ path, status: res.status, body: res.body }).toMatchObject({ path, status: 404, body: { result: 'error', code: 'NOT_FOUND' } });
    }
  });
  it('answers unreadable multipart bodies and oversized URLs with the envelope', async () => {
    const nameless = await request(app).post('/api/v1/echo').set('x-chat-identity', auth()).field('', 'x');
    expect({ status: nameless.status, body: nameless.body }).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_REQUEST' } });
    const server = await listen(app, { host: '127.0.0.1', port: 0 });
    const res = await fetch(`${server.url}/api/v1/echo?name=${'x'.repeat(20000)}`);
    expect(res.status).toBe(431);
    expect(await res.json()).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    await server.close(100);
  });
  it('sends security headers on every answer', async () => {
    const res = await request(app).get('/api/v1/echo').set('x-chat-identity', auth());
    expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
  });
});

describe('envelope and identity', () => {
  const app = build();
  it('refuses a request without the gateway identity', async () => {
    const res = await request(app).get('/api/v1/echo');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
  });
  it('refuses a forged identity', async () => {
    const forged = signIdentity('some-other-secret-9876543210', identity);
    expect((await request(app).get('/api/v1/echo').set('x-chat-identity', forged)).status).toBe(401);
  });
  it('requires a user unless the route is optional', async () => {
    const anon = signIdentity(secret, { realmId: 1, realmUrl: 'http://chat.test' });
    expect((await request(app).get('/api/v1/echo').set('x-chat-identity', anon)).status).toBe(401);
    const res = await request(app).get('/api/v1/anon').set('x-chat-identity', anon);
    expect(res.body).toMatchObject({ result: 'success', user: null });
  });
  it('renders catalogue errors with extra keys, and hides internal ones', async () => {
    const res = await request(app).get('/api/v1/stream').set('x-chat-identity', auth());
    expect(res.body).toEqual({ result: 'error', code: 'STREAM_DOES_NOT_EXIST', msg: "Channel 'nope' does not exist", stream: 'nope' });
    const boom = await request(app).get('/api/v1/boom').set('x-chat-identity', auth());
    expect(boom.status).toBe(500);
    expect(boom.body).toMatchObject({ result: 'error', code: 'INTERNAL_SERVER_ERROR' });
  });
  it('answers unknown paths with a JSON 404', async () => {
    const res = await request(app).get('/api/v1/nowhere').set('x-chat-identity', auth());
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ result: 'error', code: 'NOT_FOUND' });
  });
  it('serves health and readiness, and metrics only on the metrics port', async () => {
    expect((await request(app).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(app).get('/readyz')).body).toEqual({ status: 'ready' });
    const hidden = await request(app).get('/metrics');
    expect(hidden.status).toBe(404);
    expect(hidden.body).toMatchObject({ result: 'error', code: 'NOT_FOUND' });
    const built = buildFull();
    const server = await listen(built.app, { host: '127.0.0.1', port: 0, metrics: built.metrics, metricsPort: 0 });
    try {
      await fetch(`${server.url}/api/v1/stream`, { headers: { 'x-chat-identity': auth() } });
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
      expect(server.metricsUrl).toBeDefined();
      expect(server.metricsUrl).not.toBe(server.url);
      const scraped = await fetch(`${server.metricsUrl}/metrics`);
      expect(scraped.status).toBe(200);
      const text = await scraped.text();
      expect(text).toContain('http_request_duration_seconds_bucket');
      // Route templates, not raw paths, label the latency histogram.
      expect(text).toMatch(/route="\/api\/v1\/stream"/);
      expect((await fetch(`${server.metricsUrl}/other`)).status).toBe(404);
    } finally {
      await server.close(100);
    }
  });
  it('gives METRICS_PORT a free port in tests and validates it', () => {
    const schema = baseConfigSchema.extend({ METRICS_PORT: metricsPort(9300) });
    expect(loadConfig(schema, { NODE_ENV: 'test' }).METRICS_PORT).toBe(0);
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      expect(loadConfig(schema, { NODE_ENV: 'production', INTERNAL_SECRET: 'x'.repeat(20) }).METRICS_PORT).toBe(9300);
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    // A service configured as in production but started by a test still gets a free port.
    expect(loadConfig(schema, { NODE_ENV: 'production', INTERNAL_SECRET: 'x'.repeat(20) }).METRICS_PORT).toBe(0);
    expect(loadConfig(schema, { NODE_ENV: 'test', METRICS_PORT: '9400' }).METRICS_PORT).toBe(9400);
    expect(() => loadConfig(schema, { METRICS_PORT: 'ninety' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig(schema, { METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });
});

describe('basic auth', () => {
  const users: Record<string, string> = { 'iago@x': 'key123' };
  const app = express();
  app.use(basicAuth(async (_req, email, key) => {
    if (users[email] !== key) throw errors.invalidApiKey();
    return { email };
  }));
  app.get('/', (req, res) => res.json((req as unknown as { authUser: unknown }).authUser));
  app.use((err: { status: number; toJSON(): unknown }, _q: express.Request, res: express.Response, _n: express.NextFunction) =>
    res.status(err.status).json(err.toJSON()));
  it('accepts email:api_key and refuses the rest', async () => {
    expect((await request(app).get('/').auth('iago@x', 'key123')).body).toEqual({ email: 'iago@x' });
    const wrong = await request(app).get('/').auth('iago@x', 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'INVALID_API_KEY' });
    const missing = await request(app).get('/');
    expect(missing.body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Not logged in: API authentication or user session required' });
  });
  it('reads the header as passport-http did', async () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const codeOf = async (header: string) => (await request(app).get('/').set('Authorization', header)).body.code ?? 'OK';
    expect(await codeOf(`basic ${b64('iago@x:key123')}`)).toBe('OK');
    // Password up to the next colon; empty email or key; whitespace other than one space.
    expect(await codeOf(`Basic ${b64('iago@x:key123:more')}`)).toBe('OK');
    expect(await codeOf(`Basic ${b64('iago@x:')}`)).toBe('INVALID_API_KEY');
    expect(await codeOf(`Basic ${b64(':key123')}`)).toBe('INVALID_API_KEY');
    expect(await codeOf(`Basic  ${b64('iago@x:key123')}`)).toBe('INVALID_API_KEY');
    expect(await codeOf(`Basic\t${b64('iago@x:key123')}`)).toBe('INVALID_API_KEY');
    expect(await codeOf(`Bearer ${b64('iago@x:key123')}`)).toBe('UNAUTHORIZED');
    expect(await codeOf(`Basic ${b64('no colon')}`)).toBe('UNAUTHORIZED');
  });
  it('decodes the header without the deprecated Buffer constructor (patches/passport-http)', () => {
    // Buffer() from node_modules takes a stack trace per call to decide whether to warn, for the
    // first 10,000 calls of a process: a tenth of a millisecond per authenticated request.
    // --pending-deprecation makes it warn there too, and --throw-deprecation makes that fatal.
    const script = `
      const { BasicStrategy } = require(${JSON.stringify(require.resolve('passport-http'))});
      const s = new BasicStrategy((user, pass, done) => done(null, { user, pass }));
      s.success = (u) => { console.log(JSON.stringify(u)); };
      s.fail = s.error = (e) => { console.error('failed', e); process.exit(3); };
      s.authenticate({ headers: { authorization: 'Basic ' + Buffer.from('iago@x:key123').toString('base64') } });`;
    const run = spawnSync(process.execPath, ['--pending-deprecation', '--throw-deprecation', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ user: 'iago@x', pass: 'key123' });
  });
});

describe('graceful shutdown and config', () => {
  it('lets an in-flight request finish, then closes', async () => {
    const { app, state } = createApp({
      service: 'slow', log, internalSecret: secret,
      api: (r) => r.get('/slow', endpoint(async () => {
        await new Promise((res) => setTimeout(res, 300));
        return { done: true };
      })),
    });
    const srv = await listen(app, { host: '127.0.0.1', port: 0, state });
    const pending = fetch(`${srv.url}/api/v1/slow`, { headers: { 'x-chat-identity': auth() } }).then((r) => r.json());
    await new Promise((res) => setTimeout(res, 50));
    await srv.close(5000);
    expect(await pending).toMatchObject({ result: 'success', done: true });
    expect(state.draining).toBe(true);
  });
  it('fails fast on invalid configuration', () => {
    expect(() => loadConfig(baseConfigSchema, { PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig(baseConfigSchema, { NODE_ENV: 'production' })).toThrow(/INTERNAL_SECRET/);
    expect(loadConfig(baseConfigSchema, {}).PORT).toBe(0);
  });
});

describe('runService', () => {
  // A process started with runService; `stop` is the handle's stop, as source text.
  const serve = (stop: string) => new Promise<{ code: number | null; ms: number }>((resolve, reject) => {
    const script = `
      const { runService, createLogger } = require(${JSON.stringify(require.resolve('..'))});
      runService('svc', async () => ({ url: 'http://x', port: 0, stop: ${stop} }), createLogger('svc', 'silent'), 300);
      setInterval(() => undefined, 1000);
      setTimeout(() => console.log('ready'), 50);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: __dirname, stdio: ['ignore', 'pipe', 'inherit'] });
    let signalled = 0;
    child.stdout.on('data', (d: Buffer) => {
      if (!d.toString().includes('ready')) return;
      signalled = Date.now();
      child.kill('SIGTERM');
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, ms: Date.now() - signalled }));
  });

  it('exits 0 once its stop is done', async () => {
    expect((await serve('() => new Promise((r) => setTimeout(r, 50))')).code).toBe(0);
  });

  it('exits 1 when its stop outlasts the deadline (a dependency that never answers)', async () => {
    const { code, ms } = await serve('() => new Promise(() => undefined)');
    expect(code).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(250);
  }, 20_000);
});
