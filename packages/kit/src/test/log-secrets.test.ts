import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { createApp, endpoint, listen, maskSecretParams, signIdentity, type RunningServer } from '..';

// Request logs carry no password, key or one-time pad, wherever the client put it.

const secret = 'test-internal-secret-0123456789';
const lines: string[] = [];
let server: RunningServer;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const { app } = createApp({
    service: 'log-test',
    log: pino({ level: 'info' }, sink),
    internalSecret: secret,
    api: (r) => {
      r.post('/fetch_api_key', endpoint(({ p }) => ({ seen: p.str('password') === 'hunter2-secret' }), { auth: 'optional' }));
    },
  });
  server = await listen(app, { host: '127.0.0.1', port: 0 });
});
afterAll(() => server.close(100));

it('logs the request without its body, and masks secrets in the query string', async () => {
  const headers = { 'x-chat-identity': signIdentity(secret, { realmId: 1, realmUrl: 'http://chat.test' }) };
  const body = await request(server.url).post('/api/v1/fetch_api_key').set(headers).type('form').send({ username: 'a@chat.test', password: 'hunter2-secret' });
  expect(body.body.seen).toBe(true);
  const query = await request(server.url).post('/api/v1/fetch_api_key?username=a%40chat.test&password=hunter2-secret&mobile_flow_otp=0a1b2c').set(headers);
  expect(query.body.seen).toBe(true);
  const logged = lines.join('');
  expect(logged).toContain('/api/v1/fetch_api_key?username=a%40chat.test&password=[Redacted]&mobile_flow_otp=[Redacted]');
  expect(logged).not.toContain('hunter2');
  expect(logged).not.toContain('0a1b2c');
});

it('masks only the named parameters', () => {
  expect(maskSecretParams('/x?a=1&new_password=p&b&api_key=k')).toBe('/x?a=1&new_password=[Redacted]&b&api_key=[Redacted]');
  expect(maskSecretParams('/x')).toBe('/x');
});
