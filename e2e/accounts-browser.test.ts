/**
 * A person's whole account life in a real browser (headless Chromium), through the gateway and
 * every service as its own process: invited by an administrator over the API, signing up from
 * the mailed link with a password and landing in the web app, logging out and back in by a deep
 * link of the app, resetting a forgotten password from the mailed link, and the mobile app's
 * login flow up to its zulip:// redirect, whose key works on the API.
 *
 * The web app here is a stand-in build this test writes (WEB_DIST_DIR): a shell whose script
 * reads /json/users/me with the session cookie and offers the account pages' logout form with
 * the CSRF token the gateway put in the shell, which is all this test needs of the app.
 */
import { readdir, readFile, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type TestEnv } from '@chat/testing';
import { launchBrowser, type Browser } from './lib/browser';

let env: TestEnv;
let realm: SeededRealm;
let cluster: Cluster;
let browser: Browser;
let mailDir: string;
let webDir: string;

const INVITEE = 'browser-person@example.com';
const FIRST_PASSWORD = 'a long walk on the beach 42';
const SECOND_PASSWORD = 'quiet mountain river morning 7';
const PAD = '0f1e2d3c4b5a69788796a5b4c3d2e1f0'.repeat(2);
const DEEP_LINK = '/#narrow/channel/12-general/topic/lunch';

/** The stand-in web app: who is logged in (from /json), and the logout form with the shell's token. */
const APP_SCRIPT = `
const token = document.querySelector('meta[name="csrf-token"]').content;
const me = await (await fetch('/json/users/me')).json();
const nav = document.createElement('nav');
nav.textContent = 'Logged in as ' + (me.delivery_email || me.email) + '. ';
const form = document.createElement('form');
form.method = 'post';
form.action = '/accounts/logout/';
const field = Object.assign(document.createElement('input'), { type: 'hidden', name: 'csrfmiddlewaretoken', value: token });
const button = Object.assign(document.createElement('button'), { type: 'submit', textContent: 'Log out' });
form.append(field, button);
nav.append(form);
const main = document.createElement('main');
main.textContent = new URLSearchParams(location.search).has('welcome') ? 'Welcome, ' + me.full_name + '!' : 'Home';
document.body.append(nav, main);
`;

async function writeWebApp(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(path.join(dir, 'assets', 'app-e2e.js'), APP_SCRIPT);
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Chat</title>' +
    '<meta name="csrf-token" content="__CSRF_TOKEN__"><script type="module" src="/static/app/assets/app-e2e.js"></script></head><body></body></html>');
}

function basic(email: string, key: string): string {
  return `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;
}

/** The first link below `prefix` in the newest message to `to`, as a path (mail links name the configured host). */
async function linkInMail(to: string, prefix: string, nth = 1): Promise<string> {
  const pattern = new RegExp(`https?://[^/\\s]+(${prefix}[^\\s"<]*)`);
  for (let i = 0; i < 150; i++) {
    const names = (await readdir(mailDir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
    const bodies = await Promise.all(names.map((n) => readFile(path.join(mailDir, n), 'utf8')));
    // Soft line breaks and escapes of quoted-printable text.
    const texts = bodies.map((b) => b.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).filter((b) => new RegExp(`^To: ${to}`, 'mi').test(b));
    const match = texts.length >= nth ? pattern.exec(texts[nth - 1]!) : null;
    if (match) return match[1]!;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${prefix} link mailed to ${to}`);
}

beforeAll(async () => {
  mailDir = await mkdtemp(path.join(tmpdir(), 'e2e-mail-'));
  webDir = await mkdtemp(path.join(tmpdir(), 'e2e-web-'));
  await writeWebApp(webDir);
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  // Five processes compile and start at once: on a busy machine that takes longer than usual.
  cluster = await startCluster(env, { env: { EMAIL_LOG_DIR: mailDir, EMAIL_RETRY_BASE_MS: '50', WEB_DIST_DIR: webDir }, readyTimeoutMs: 150_000 });
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await cluster?.stop();
  await env?.close();
  await rm(mailDir, { recursive: true, force: true });
  await rm(webDir, { recursive: true, force: true });
});

it('takes an invited person from the mailed link to a password they can reset', async () => {
  const invited = await fetch(`${cluster.url}/api/v1/invites`, {
    method: 'POST',
    headers: { authorization: basic(realm.admin.email, realm.admin.apiKey) },
    body: new URLSearchParams({ invitee_emails: INVITEE, stream_ids: '[]' }),
  });
  expect(await invited.json()).toMatchObject({ result: 'success' });
  const joinPath = await linkInMail(INVITEE, '/join/');

  const page = await browser.context.newPage();
  await page.goto(`${cluster.url}${joinPath}`);
  expect(await page.inputValue('#id_email')).toBe(INVITEE);
  await page.fill('#id_full_name', 'Browser Person');
  await page.fill('#id_password', FIRST_PASSWORD);
  // The web app's shell, whose script uses the session the sign-up started.
  await Promise.all([page.waitForURL('**/?welcome=1'), page.click('button[type=submit]')]);
  expect(await page.textContent('main')).toBe('Welcome, Browser Person!');
  expect(await page.textContent('nav')).toContain(`Logged in as ${INVITEE}`);

  // Out with the shell's token; a deep link of the app goes to the login page and comes back whole.
  await Promise.all([page.waitForURL('**/login/'), page.click('nav button')]);
  await page.goto(`${cluster.url}${DEEP_LINK}`);
  await page.waitForURL('**/login/?next=*');
  await page.fill('#id_username', INVITEE);
  await page.fill('#id_password', FIRST_PASSWORD);
  await Promise.all([page.waitForURL(`${cluster.url}${DEEP_LINK}`), page.click('main button[type=submit]')]);
  expect(await page.textContent('nav')).toContain(`Logged in as ${INVITEE}`);
  await Promise.all([page.waitForURL('**/login/'), page.click('nav button')]);

  await page.click('text=Forgot your password?');
  await page.fill('#id_email', INVITEE);
  await Promise.all([page.waitForURL('**/accounts/password/reset/done/'), page.click('main button[type=submit]')]);
  const resetPath = await linkInMail(INVITEE, '/accounts/password/reset/', 2);
  await page.goto(`${cluster.url}${resetPath}`);
  await page.fill('#id_new_password1', SECOND_PASSWORD);
  await page.fill('#id_new_password2', SECOND_PASSWORD);
  await Promise.all([page.waitForURL('**/accounts/password/done/'), page.click('main button[type=submit]')]);

  await page.goto(`${cluster.url}/login/`);
  await page.fill('#id_username', INVITEE);
  await page.fill('#id_password', FIRST_PASSWORD);
  await page.click('main button[type=submit]');
  expect(await page.textContent('#id_username_error')).toBe('Your username or password is incorrect');
  await page.fill('#id_password', SECOND_PASSWORD);
  await Promise.all([page.waitForURL(`${cluster.url}/`), page.click('main button[type=submit]')]);
  await page.goto(`${cluster.url}/accounts/api_key/`);
  const apiKey = await page.inputValue('#api-key');

  // The same pair works for the apps' API login.
  const fetched = await fetch(`${cluster.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: INVITEE, password: SECOND_PASSWORD }) });
  expect(await fetched.json()).toMatchObject({ result: 'success', api_key: apiKey, email: INVITEE });
  await page.close();
});

it('completes the mobile flow with a zulip:// redirect whose key works on the API', async () => {
  await browser.context.clearCookies();
  const password = await setMemberPassword();
  const page = await browser.context.newPage();
  await page.goto(`${cluster.url}/login/?mobile_flow_otp=${PAD}`);
  await page.fill('#id_username', realm.member.email);
  await page.fill('#id_password', password);
  // Chromium cannot follow zulip://: the form's own request is sent on unchanged and the
  // redirect it answers, what the app would receive, is kept before the browser sees it.
  let settle!: (answer: { status: number; location: string } | Error) => void;
  const answered = new Promise<{ status: number; location: string } | Error>((resolve) => (settle = resolve));
  await page.route('**/accounts/login/', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    try {
      const response = await route.fetch({ maxRedirects: 0 });
      settle({ status: response.status(), location: response.headers().location ?? '' });
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'Handed to the app.' });
    } catch (err) {
      settle(err as Error);
    }
  });
  await page.click('main button[type=submit]');
  const response = await answered;
  if (response instanceof Error) throw response;
  expect(response.status).toBe(302);
  const location = new URL(response.location);
  expect(`${location.protocol}//${location.host}`).toBe('zulip://login');
  expect(location.searchParams.get('email')).toBe(realm.member.email);
  expect(location.searchParams.get('user_id')).toBe(String(realm.member.id));
  const encrypted = location.searchParams.get('otp_encrypted_api_key')!;
  let hex = '';
  for (let i = 0; i < PAD.length; i++) hex += (parseInt(encrypted[i]!, 16) ^ parseInt(PAD[i]!, 16)).toString(16);
  const apiKey = Buffer.from(hex, 'hex').toString('latin1');
  const me = await fetch(`${cluster.url}/api/v1/users/me`, { headers: { authorization: basic(realm.member.email, apiKey) } });
  expect(await me.json()).toMatchObject({ result: 'success', user_id: realm.member.id });
  await page.close();
});

/** Gives the seeded member a password as a person would: through the reset mail. */
async function setMemberPassword(): Promise<string> {
  const password = 'member mobile login phrase 9';
  const page = await browser.context.newPage();
  await page.goto(`${cluster.url}/accounts/password/reset/`);
  await page.fill('#id_email', realm.member.email);
  await Promise.all([page.waitForURL('**/accounts/password/reset/done/'), page.click('main button[type=submit]')]);
  await page.goto(`${cluster.url}${await linkInMail(realm.member.email, '/accounts/password/reset/')}`);
  await page.fill('#id_new_password1', password);
  await page.fill('#id_new_password2', password);
  await Promise.all([page.waitForURL('**/accounts/password/done/'), page.click('main button[type=submit]')]);
  await page.close();
  return password;
}
