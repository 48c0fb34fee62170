/**
 * Gaps the web app found, across the services, every one its own process behind the gateway: an
 * uploaded image linked from a message is shown with its thumbnail (the uploads service makes it
 * and announces it, the messaging service renders or re-renders the message), which recipients
 * can load; register names the thumbnail formats made; a bot created with the web app's
 * multipart form gets its avatar through the users service's handover to the uploads service;
 * an email change is confirmed through the link mailed to the new address.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type TestEnv } from '@chat/testing';
import { client } from './lib/event-queues';

let env: TestEnv;
let realm: SeededRealm;
let cluster: Cluster;
let mailDir: string;
const call = client(() => cluster.url);

/** A 16x12 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAMCAIAAADkharWAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAGElEQVQokWMwTvtPEmIY1ZA2GkrG2MIAAOnOMhBShHMEAAAAAElFTkSuQmCC',
  'base64',
);

const basic = (u: { email: string; apiKey: string }) => `Basic ${Buffer.from(`${u.email}:${u.apiKey}`).toString('base64')}`;

async function eventually<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  mailDir = await mkdtemp(path.join(tmpdir(), 'e2e-media-mail-'));
  cluster = await startCluster(env, { env: { EMAIL_LOG_DIR: mailDir, EMAIL_RETRY_BASE_MS: '50' }, readyTimeoutMs: 180_000 });
  const made = await call('POST', '/users/me/subscriptions', realm.owner, { subscriptions: [{ name: 'gallery' }], principals: [realm.member.id, realm.member2.id] });
  expect(made.body.result).toBe('success');
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await env?.close();
});

it('tells clients which thumbnail formats are made', async () => {
  const res = await call('POST', '/register', realm.member, { fetch_event_types: ['realm'] });
  expect(res.body.server_thumbnail_formats).toEqual([
    { name: '840x560-anim.webp', max_width: 840, max_height: 560, format: 'webp', animated: true },
    { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
  ]);
});

it('shows an uploaded image linked from a message with its thumbnail, which recipients can load', async () => {
  const uploaded = await call('POST', '/user_uploads', realm.member, {}, { files: [{ field: 'file', name: 'x.png', type: 'image/png', data: PNG }] });
  const url = uploaded.body.url as string;
  const sent = await call('POST', '/messages', realm.member, { type: 'stream', to: 'gallery', topic: 'pictures', content: `[x.png](${url})` });
  expect(sent.body.result).toBe('success');
  // Sent before or after the thumbnail job ran: either way the message ends up showing it.
  const thumb = `${url.replace('/user_uploads/', '/user_uploads/thumbnail/')}/840x560.webp`;
  const content = await eventually(async () => {
    const got = await call('GET', `/messages/${sent.body.id}`, realm.member2);
    return (got.body.message?.content as string | undefined)?.includes(`src="${thumb}"`) ? (got.body.message.content as string) : null;
  });
  expect(content).toBe(
    `<p><a href="${url}">x.png</a></p>\n<div class="message_inline_image"><a href="${url}" title="x.png">` +
      `<img data-original-content-type="image/png" data-original-dimensions="16x12" src="${thumb}"></a></div>`,
  );
  const image = await fetch(`${cluster.url}${thumb}`, { headers: { authorization: basic(realm.member2) } });
  expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/webp']);
  // Someone who cannot read the file does not get its thumbnail either.
  const guest = await fetch(`${cluster.url}${thumb}`, { headers: { authorization: basic(realm.guest) } });
  expect(guest.status).toBe(403);
});

it('keeps a non-image upload a link', async () => {
  const uploaded = await call('POST', '/user_uploads', realm.member, {}, { files: [{ field: 'file', name: 'notes.txt', type: 'text/plain', data: Buffer.from('lines') }] });
  const sent = await call('POST', '/messages', realm.member, { type: 'stream', to: 'gallery', topic: 'pictures', content: `[notes.txt](${uploaded.body.url})` });
  const got = await call('GET', `/messages/${sent.body.id}`, realm.member2);
  expect(got.body.message.content).toBe(`<p><a href="${uploaded.body.url}">notes.txt</a></p>`);
});

it('creates a bot from the web app’s multipart form and stores the avatar sent with it', async () => {
  const res = await call('POST', '/bots', realm.member, { full_name: 'Painted', short_name: 'painted' }, { files: [{ field: 'file-0', name: 'face.png', type: 'image/png', data: PNG }] });
  expect(res.body).toMatchObject({ result: 'success', user_id: expect.any(Number), api_key: expect.any(String) });
  const botId = res.body.user_id as number;
  expect(res.body.avatar_url).toMatch(new RegExp(`/avatar/${botId}\\?version=1$`));
  // The uploads service stores it from the bot's event and bumps the version.
  const bot = await eventually(async () => {
    const bots = (await call('GET', '/bots', realm.member)).body.bots as Array<{ user_id: number; avatar_url: string }>;
    return bots.find((b) => b.user_id === botId && /version=2$/.test(b.avatar_url));
  });
  const redirect = await fetch(`${cluster.url}/avatar/${botId}`, { headers: { authorization: basic(realm.member2) }, redirect: 'manual' });
  expect(redirect.status).toBe(302);
  const file = await fetch(new URL(redirect.headers.get('location')!, cluster.url), { headers: { authorization: basic(realm.member2) } });
  expect([file.status, file.headers.get('content-type')]).toEqual([200, 'image/png']);
  expect(bot.avatar_url).toMatch(/version=2$/);

  // A new avatar through PATCH /bots/{id}, as the family's settings page sends it.
  const changed = await call('PATCH', `/bots/${botId}`, realm.member, {}, { files: [{ field: 'file-0', name: 'other.png', type: 'image/png', data: PNG }] });
  expect(changed.body).toMatchObject({ result: 'success', avatar_url: expect.stringContaining(`/avatar/${botId}?version=`) });
  await eventually(async () => {
    const bots = (await call('GET', '/bots', realm.member)).body.bots as Array<{ user_id: number; avatar_url: string }>;
    return bots.find((b) => b.user_id === botId && /version=3$/.test(b.avatar_url));
  });
  const refused = await call('PATCH', `/bots/${botId}`, realm.member, {}, { files: [{ field: 'file-0', name: 'notes.png', type: 'image/png', data: Buffer.from('not an image at all') }] });
  expect(refused.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
});

it('changes an address once the link mailed to the new one is opened through the gateway', async () => {
  const asked = await call('PATCH', '/settings', realm.member2, { email: 'new-home@elsewhere.test' });
  expect(asked.body).toEqual({ result: 'success', msg: '' });
  expect((await call('GET', '/users/me', realm.member2)).body.delivery_email).toBe(realm.member2.email);
  const link = await eventually(async () => {
    const names = (await readdir(mailDir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml'));
    const bodies = await Promise.all(names.map((n) => readFile(path.join(mailDir, n), 'utf8')));
    const mail = bodies.map((b) => b.replace(/=\r?\n/g, '')).find((b) => /^To: new-home@elsewhere\.test/m.test(b));
    return mail ? /https?:\/\/[^/\s]+(\/accounts\/confirm_new_email\/[A-Za-z0-9]+\/)/.exec(mail)?.[1] : null;
  });
  const page = await fetch(`${cluster.url}${link}`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<h1>Email address changed</h1>');
  // The API address was the real one: the old key-and-address pair gives way to the new address.
  const me = await call('GET', '/users/me', { ...realm.member2, email: 'new-home@elsewhere.test' });
  expect([me.body.delivery_email, me.body.email]).toEqual(['new-home@elsewhere.test', 'new-home@elsewhere.test']);
  expect((await fetch(`${cluster.url}${link}`)).status).toBe(404);
});
