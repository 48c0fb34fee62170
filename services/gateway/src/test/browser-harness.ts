/**
 * What the browser-session tests share (ADR 0036): the real users service as a process behind a
 * gateway, every other service a stand-in, and browsers that log in on the real login page.
 * `useBrowserHarness()` starts it all in beforeAll and stops it in afterAll of the calling file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { redisKeys } from '@chat/bus';
import { errors } from '@chat/contracts';
import { createApp, createLogger, endpoint, listen, type RunningServer, type ServiceHandle } from '@chat/kit';
import { QueueStore } from '@chat/queues';
import { seedRealm, setupTestEnv, startService, TEST_INTERNAL_SECRET, type SeededRealm, type ServiceProcess, type TestEnv } from '@chat/testing';
import { start } from '../app';

export const PASSWORD = 'a quiet harbour at dawn 42';
/** The inline script of the test shell (the built shell's early register is one). */
export const SHELL_INLINE_SCRIPT = 'window.__shellRead = true;';
export const SHELL = `<!doctype html><html><head><meta name="csrf-token" content="__CSRF_TOKEN__"><script>${SHELL_INLINE_SCRIPT}</script>` +
  '<script type="module" src="/static/app/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
export const notLoggedIn = { result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' };

export interface Seen {
  url: string;
  identity: { userId?: number; realmId: number; sessionId?: string };
}

/**
 * Every service but users: answers API paths with what it was told, and files as the uploads
 * service does (a 401 with its Basic challenge to anyone without a user).
 */
async function startStandIn(seen: Seen[]): Promise<RunningServer> {
  const { app } = createApp({
    service: 'stand-in',
    log: createLogger('stand-in', 'silent'),
    internalSecret: TEST_INTERNAL_SECRET,
    api: (r) => {
      r.all('/{*path}', endpoint(({ identity, req }) => {
        seen.push({ url: req.originalUrl, identity });
        return { identity, url: req.originalUrl };
      }, { auth: 'optional' }));
    },
    site: (r) => {
      r.get('/{*path}', (req, res) => {
        seen.push({ url: req.originalUrl, identity: req.identity! });
        if (req.identity?.userId === undefined) throw errors.notLoggedIn();
        res.type('text/plain').send(`file for ${req.identity.userId}`);
      });
    },
  });
  return listen(app, { host: '127.0.0.1', port: 0 });
}

export interface BrowserHarness {
  env: TestEnv;
  realm: SeededRealm;
  gateway: ServiceHandle;
  store: QueueStore;
  /** What the stand-in was asked, in order. */
  seen: Seen[];
}

let n = 0;

export function useBrowserHarness(): BrowserHarness {
  const h = { seen: [] as Seen[] } as BrowserHarness;
  let users: ServiceProcess | undefined;
  let standIn: RunningServer | undefined;
  let dist = '';

  beforeAll(async () => {
    h.env = await setupTestEnv();
    h.realm = await seedRealm(h.env.db);
    await seedRealm(h.env.db, 'other');
    dist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    writeFileSync(path.join(dist, 'index.html'), SHELL);
    [users, standIn] = await Promise.all([startService('users', h.env.env), startStandIn(h.seen)]);
    const urls = Object.fromEntries(['MESSAGING', 'EVENTS', 'UPLOADS', 'PUSH'].map((s) => [`${s}_URL`, standIn!.url]));
    h.gateway = await start({
      ...h.env.env, ...urls, USERS_URL: users.url, PORT: '0', EXTERNAL_HOST: 'chat.test', WEB_DIST_DIR: dist,
      EVENTS_HEARTBEAT_SECONDS: '0.5', EVENTS_ACK_BATCH_MS: '10', RATE_LIMIT_PER_MINUTE: '1000',
    });
    h.store = new QueueStore(h.env.redis, h.env.prefix);
    // Session users are kept in process only once the forget channel is heard.
    const channel = redisKeys(h.env.prefix).authForgetChannel();
    for (let i = 0; Number(((await h.env.redis.pubsub('NUMSUB', channel)) as [string, number])[1]) < 1; i++) {
      if (i > 100) throw new Error('the gateway never subscribed to forgets');
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 180_000);

  afterAll(async () => {
    await h.gateway?.stop();
    await users?.stop();
    await standIn?.close(100);
    await h.env?.close();
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  return h;
}

/** A browser: its own cookie jar, sent by hand so a test can leave a cookie out. */
export function browser(h: BrowserHarness) {
  const jar = new Map<string, string>();
  const keep = (res: request.Response) => {
    for (const c of ([] as string[]).concat(res.headers['set-cookie'] ?? [])) {
      const pair = c.split(';')[0]!;
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return res;
  };
  const cookie = (without: string[] = []) => [...jar].filter(([k]) => !without.includes(k)).map(([k, v]) => `${k}=${v}`).join('; ');
  const send = (req: request.Test, opts: { without?: string[]; host?: string } = {}) => {
    if (opts.host) req.set('Host', opts.host);
    return req.set('Cookie', cookie(opts.without)).then(keep);
  };
  return {
    jar,
    /** The id of the session the `sessionid` cookie names (`s:<id>.<signature>`). */
    sessionId: () => {
      const value = decodeURIComponent(jar.get('sessionid') ?? '');
      return value.slice(2, value.lastIndexOf('.'));
    },
    get: (p: string, opts?: { without?: string[]; host?: string }) => send(request(h.gateway.url).get(p), opts),
    form: (p: string, form: Record<string, string>) => send(request(h.gateway.url).post(p).type('form').send(form)),
    json: (method: 'post' | 'patch' | 'delete', p: string, form: Record<string, string>, csrf?: string, opts?: { without?: string[] }) => {
      const req = request(h.gateway.url)[method](p).type('form').send(form);
      if (csrf !== undefined) req.set('X-CSRFToken', csrf);
      return send(req, opts);
    },
  };
}
export type Browser = ReturnType<typeof browser>;

/** Logs in on the users service's real page, through the gateway; resolves to where it sends the browser. */
export async function logIn(b: Browser, email: string, next?: string, password = PASSWORD): Promise<string> {
  const form = await b.get(next === undefined ? '/login/' : `/login/?next=${encodeURIComponent(next)}`);
  const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(form.text)![1]!;
  const res = await b.form('/accounts/login/', { csrfmiddlewaretoken: token, username: email, password, ...(next === undefined ? {} : { next }) });
  expect(res.status).toBe(303);
  return res.headers.location!;
}

/** The shell served at `/`, and the CSRF token it carries. */
export async function shellToken(b: Browser): Promise<string> {
  const shell = await b.get('/');
  expect(shell.status).toBe(200);
  return /<meta name="csrf-token" content="([^"]+)">/.exec(shell.text)![1]!;
}

/** A person with a password, made by the owner through the API. */
export async function person(h: BrowserHarness): Promise<{ id: number; email: string; apiKey: string }> {
  const email = `browser${++n}@chat.test`;
  const res = await request(h.gateway.url).post('/api/v1/users').auth(h.realm.owner.email, h.realm.owner.apiKey).type('form')
    .send({ email, full_name: `Browser ${n}`, password: PASSWORD });
  expect(res.body).toMatchObject({ result: 'success' });
  const row = await h.env.db.user.findUniqueOrThrow({ where: { id: res.body.user_id } });
  return { id: row.id, email, apiKey: row.apiKey };
}
