/**
 * Code playgrounds, realm exports and bot storage through the gateway, every service its own
 * process, as the family's clients use them: HTTP Basic, form bodies, event queues, and the
 * export downloaded from the URL its event gives.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';

let env: TestEnv;
let realm: SeededRealm;
let cluster: Cluster;
let exportDir: string;

type Body = Record<string, any>;

function call(method: string, path: string, user: SeededUser | null, params: Record<string, unknown> = {}): Promise<{ status: number; body: Body }> {
  const headers: Record<string, string> = {};
  if (user) headers.authorization = `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`;
  const encoded = Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string]);
  let url = `${cluster.url}/api/v1${path}`;
  let body: URLSearchParams | undefined;
  if (method === 'GET') {
    if (encoded.length) url += `?${new URLSearchParams(encoded)}`;
  } else {
    body = new URLSearchParams(encoded);
  }
  return fetch(url, { method, headers, body }).then(async (res) => ({ status: res.status, body: (await res.json()) as Body }));
}

/** Events of a queue after `after`, waiting until `done` says enough arrived. */
async function eventsUntil(user: SeededUser, queueId: string, done: (events: Body[]) => boolean): Promise<Body[]> {
  const seen: Body[] = [];
  let last = -1;
  for (let i = 0; i < 40 && !done(seen); i++) {
    const res = await call('GET', '/events', user, { queue_id: queueId, last_event_id: String(last), dont_block: 'true' });
    const fresh = (res.body.events as Body[]).filter((e) => e.type !== 'heartbeat');
    seen.push(...fresh);
    if (res.body.events.length) last = Math.max(...res.body.events.map((e: Body) => e.id));
    if (!done(seen)) await new Promise((r) => setTimeout(r, 150));
  }
  return seen;
}

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  exportDir = await mkdtemp(path.join(tmpdir(), 'e2e-exports-'));
  cluster = await startCluster(env, { env: { EVENTS_HEARTBEAT_SECONDS: '1', EXPORT_DIR: exportDir } });
}, 180000);

afterAll(async () => {
  await cluster?.stop();
  await env?.close();
  if (exportDir) await rm(exportDir, { recursive: true, force: true });
});

it('adds and removes a code playground, which every client hears about and register lists', async () => {
  const q = await call('POST', '/register', realm.member, { event_types: ['realm_playgrounds'] });
  const added = await call('POST', '/realm/playgrounds', realm.admin, { name: 'Python', pygments_language: 'Python', url_template: 'https://python.test/?c={code}' });
  expect(added.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
  const expected = [{ id: added.body.id, name: 'Python', pygments_language: 'Python', url_template: 'https://python.test/?c={code}' }];
  const [event] = await eventsUntil(realm.member, q.body.queue_id, (e) => e.length > 0);
  expect(event).toEqual({ id: expect.any(Number), type: 'realm_playgrounds', realm_playgrounds: expected });
  expect((await call('POST', '/register', realm.guest, { fetch_event_types: ['realm_playgrounds'] })).body.realm_playgrounds).toEqual(expected);
  expect((await call('DELETE', `/realm/playgrounds/${added.body.id}`, realm.member)).body.code).toBe('UNAUTHORIZED_PRINCIPAL');
  expect((await call('DELETE', `/realm/playgrounds/${added.body.id}`, realm.owner)).body.result).toBe('success');
  expect((await call('DELETE', `/realm/playgrounds/${added.body.id}`, realm.owner)).body.msg).toBe('Invalid playground');
});

it("keeps a bot's storage", async () => {
  expect((await call('PUT', '/bot_storage', realm.bot, { storage: { cursor: '7' } })).body).toEqual({ result: 'success', msg: '' });
  expect((await call('GET', '/bot_storage', realm.bot, { keys: ['cursor'] })).body).toEqual({ result: 'success', msg: '', storage: { cursor: '7' } });
  expect((await call('GET', '/bot_storage', realm.bot, { keys: ['nope'] })).body.msg).toBe('Key does not exist.');
  expect((await call('DELETE', '/bot_storage', realm.bot)).body.result).toBe('success');
  expect((await call('GET', '/bot_storage', realm.bot)).body.storage).toEqual({});
});

it('exports the realm, tells the administrators, and serves the tarball at its URL', async () => {
  const q = await call('POST', '/register', realm.admin, { event_types: ['realm_export'] });
  const created = await call('POST', '/export/realm', realm.owner);
  expect(created.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
  const finished = (e: Body[]) => e.some((x) => x.exports.some((y: Body) => y.id === created.body.id && !y.pending));
  const events = await eventsUntil(realm.admin, q.body.queue_id, finished);
  const last = events[events.length - 1]!.exports.find((y: Body) => y.id === created.body.id);
  expect(last).toMatchObject({ acting_user_id: realm.owner.id, pending: false, failed_timestamp: null, export_type: 1 });
  expect(events[0]!.exports.find((y: Body) => y.id === created.body.id).pending).toBe(true);
  const url = new URL(last.export_url);
  expect(url.pathname).toMatch(/^\/user_avatars\/exports\/\d+\/[^/]+\/chat-export-[^/]+\.tar\.gz$/);
  const download = await fetch(`${cluster.url}${url.pathname}`);
  expect(download.status).toBe(200);
  const tar = gunzipSync(Buffer.from(await download.arrayBuffer())).toString('latin1');
  expect(tar).toContain('realm.json');
  expect(tar).toContain('Test Organization');
  expect((await call('GET', '/export/realm', realm.admin)).body.exports).toContainEqual(last);
  expect((await call('GET', '/export/realm', realm.member)).body.code).toBe('UNAUTHORIZED_PRINCIPAL');
  expect((await call('DELETE', `/export/realm/${created.body.id}`, realm.admin)).body.result).toBe('success');
  expect((await fetch(`${cluster.url}${url.pathname}`)).status).toBe(404);
});
