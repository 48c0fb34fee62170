import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { errors } from '@chat/contracts';
import { createApp, createLogger, endpoint, listen, signIdentity, basicAuth, loadConfig, baseConfigSchema } from '..';

const secret = 'test-internal-secret-0123456789';
const log = createLogger('kit-test', 'silent');
const identity = { realmId: 1, realmUrl: 'http://chat.test', userId: 7, email: 'a@x', role: 400, isBot: false };
const auth = () => signIdentity(secret, identity);

function build() {
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
  }).app;
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
    const res = await request(app).get('/api/v1/echo?name=a&bogus=1&other=2').set('x-chat-identity', auth());
    expect(res.body.ignored_parameters_unsupported).toEqual(['bogus', 'other']);
  });
  it('refuses bad values with the envelope', async () => {
    const bad = async (q: string) => (await request(app).get(`/api/v1/echo?${q}`).set('x-chat-identity', auth())).body;
    expect(await bad('count=x')).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'count is not an integer' });
    expect(await bad('flag=yes')).toMatchObject({ code: 'BAD_REQUEST', msg: 'flag is not a boolean' });
    expect(await bad('to=[1,')).toMatchObject({ code: 'INVALID_JSON' });
    expect(await bad('to=["a"]')).toMatchObject({ code: 'BAD_REQUEST' });
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
  it('serves health, readiness and metrics', async () => {
    expect((await request(app).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(app).get('/readyz')).body).toEqual({ status: 'ready' });
    const metrics = await request(app).get('/metrics');
    expect(metrics.text).toContain('http_request_duration_seconds');
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
    expect(missing.body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Missing authorization header for basic auth' });
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
