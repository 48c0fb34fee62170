import express from 'express';
import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { REQUEST_ID_HEADER } from '@chat/contracts';
import { requestLog } from '../request-log';

function appLogging(level: string) {
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = express();
  app.use(requestLog(pino({ level }, sink)));
  app.get('/healthz', (_req, res) => void res.json({}));
  app.get('/ok', (req, res) => void res.json({ id: req.id }));
  app.get('/boom', (_req, res) => void res.status(502).json({}));
  return { app, lines };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

it('gives each request an id, the one the gateway passed on if any, and logs it when it ends', async () => {
  const { app, lines } = appLogging('info');
  const passed = await request(app).get('/ok?api_key=s3cret&x=1').set(REQUEST_ID_HEADER, 'from-gateway');
  expect(passed.body.id).toBe('from-gateway');
  expect(passed.headers[REQUEST_ID_HEADER]).toBe('from-gateway');
  const fresh = await request(app).get('/ok');
  expect(fresh.body.id).toMatch(/^[0-9a-f-]{36}$/);
  expect(fresh.headers[REQUEST_ID_HEADER]).toBe(fresh.body.id);
  await request(app).get('/healthz');
  await request(app).get('/boom');
  await settle();
  expect(lines.map((l) => [l.level, l.msg, l.req.url, l.res.statusCode])).toEqual([
    [30, 'request completed', '/ok?api_key=[Redacted]&x=1', 200],
    [30, 'request completed', '/ok', 200],
    [50, 'request errored', '/boom', 502],
  ]);
  expect(lines[0]).toMatchObject({ req: { id: 'from-gateway', method: 'GET' }, responseTime: expect.any(Number) });
});

it('writes only what the level lets through', async () => {
  const { app, lines } = appLogging('error');
  await request(app).get('/ok');
  await request(app).get('/boom');
  await settle();
  expect(lines.map((l) => l.msg)).toEqual(['request errored']);
});
