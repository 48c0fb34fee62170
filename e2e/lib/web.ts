/**
 * The web app's end-to-end harness: a cluster of the real services on a test database (mail
 * written to a folder), headless Debian Chromium with one browser context per person (separate
 * cookies, as two people on two machines), passwords stored as the administrator's command
 * line stores them, and sign-in through the real login page. The app is found by roles and
 * accessible names (web-app.ts), which it must have anyway for accessibility.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ChatClient, type Narrow } from '@chat/client';
import { seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import { hashPassword } from '../../services/users/src/lib/passwords';
import { CHROMIUM, ensureChromium } from './browser';
import { waitForApp } from './web-app';

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-dev-shm-usage',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  // Two people's pages share one browser: neither is throttled for being in the background.
  '--disable-background-timer-throttling', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows',
];

export interface WebSite {
  env: TestEnv;
  realm: SeededRealm;
  cluster: Cluster;
  browser: Browser;
  mailDir: string;
  /** The gateway as the browser reaches it. */
  readonly url: string;
  /** Everything started, stopped. */
  close(): Promise<void>;
}

/**
 * A cluster on its own database with the test realm (one person of each role), mail written
 * to a folder, and one Chromium for every person of the file.
 */
export async function startWebSite(opts: { env?: Record<string, string> } = {}): Promise<WebSite> {
  ensureChromium();
  const mailDir = await mkdtemp(path.join(tmpdir(), 'e2e-web-mail-'));
  const env = await setupTestEnv();
  const realm = await seedRealm(env.db);
  // Five processes compile and start at once: on a busy machine that takes longer than usual.
  const cluster = await startCluster(env, {
    env: { EMAIL_LOG_DIR: mailDir, EMAIL_RETRY_BASE_MS: '50', ...opts.env },
    readyTimeoutMs: 150_000,
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return {
    env, realm, cluster, browser, mailDir,
    get url() {
      return cluster.url;
    },
    async close() {
      await browser.close().catch(() => undefined);
      await cluster.stop();
      await env.close();
      await rm(mailDir, { recursive: true, force: true });
    },
  };
}

/**
 * Gives people login passwords as `npm run manage -- set-password` stores them (the users
 * service's own hash), written in this process: the command line's start-up (compiling, then
 * checking migrations) took about ten seconds a person on a loaded machine.
 */
export async function setPasswords(site: WebSite, people: Array<{ email: string; password: string }>): Promise<void> {
  for (const { email, password } of people) {
    const { count } = await site.env.db.user.updateMany({ where: { realmId: site.realm.realmId, email }, data: { passwordHash: await hashPassword(password) } });
    if (count !== 1) throw new Error(`no one with the address ${email} to give a password`);
  }
}

/**
 * With WEB_E2E_SHOTS=<folder>, a screenshot of every open page after each test (named by the
 * test), to see what the app showed when one failed.
 */
export function screenshotsAfterEach(site: () => WebSite | undefined): void {
  const dir = process.env.WEB_E2E_SHOTS;
  if (!dir) return;
  afterEach(async () => {
    const name = (expect.getState().currentTestName ?? 'test').replace(/[^\w-]+/g, '-').slice(0, 80);
    const pages = site()?.browser.contexts().flatMap((c) => c.pages()) ?? [];
    await Promise.all(pages.map((p, i) => p.screenshot({ path: path.join(dir, `${name}-${i}.png`) }).catch(() => undefined)));
  });
}

/** A person's own browser: a context of its own (cookies, storage), as on another machine. */
export async function newPerson(site: WebSite): Promise<BrowserContext> {
  const context = await site.browser.newContext({ baseURL: site.url, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(20_000);
  return context;
}

/**
 * Signs in through the login page (at `path`, which the site may send to the login page on its
 * own) and waits for the app to show the person's state. Returns the page on the app.
 */
export async function signIn(context: BrowserContext, who: { email: string; password: string }, opts: { page?: Page; path?: string } = {}): Promise<Page> {
  const page = opts.page ?? (await context.newPage());
  await page.goto(opts.path ?? '/login/');
  await page.waitForURL(/\/login\//);
  await page.fill('#id_username', who.email);
  await page.fill('#id_password', who.password);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/login') && !u.pathname.startsWith('/accounts/login')), page.click('main button[type=submit]')]);
  await waitForApp(page);
  return page;
}

export function basic(email: string, key: string): string {
  return `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;
}

/** The shared API client (packages/client) as `user`, with the user's API key. */
export function clientFor(site: WebSite, user: SeededUser): ChatClient {
  return new ChatClient({ baseUrl: site.url, auth: { kind: 'basic', email: user.email, apiKey: user.apiKey } });
}

/** An API call as `user` through the shared client; throws (ApiError) unless it succeeds. */
export function api<T = any>(site: WebSite, user: SeededUser, method: string, urlPath: string, params: Record<string, unknown> = {}): Promise<T> {
  return clientFor(site, user).call<T>(method, urlPath, params);
}

/** A public channel with these subscribers, made by `by`; resolves with its id. */
export async function createChannel(site: WebSite, by: SeededUser, name: string, members: SeededUser[], description = ''): Promise<number> {
  const client = clientFor(site, by);
  await client.call('POST', '/users/me/subscriptions', { subscriptions: [{ name, description }], principals: members.map((m) => m.id) });
  const { stream_id } = await client.call<{ stream_id: number }>('GET', '/get_stream_id', { stream: name });
  return stream_id;
}

/** The messages of a narrow as the API has them (for counting what the server stored). */
export async function serverMessages(site: WebSite, user: SeededUser, narrow: Narrow): Promise<Array<{ id: number; content: string }>> {
  const { messages } = await clientFor(site, user).getMessages({ anchor: 'newest', num_before: 1000, num_after: 0, narrow, apply_markdown: false });
  return messages;
}

/** The first link below `prefix` in the nth newest message to `to`, as a path (mail links name the configured host). */
export async function linkInMail(site: WebSite, to: string, prefix: string, nth = 1): Promise<string> {
  const pattern = new RegExp(`https?://[^/\\s]+(${prefix}[^\\s"<]*)`);
  for (let i = 0; i < 300; i++) {
    const names = (await readdir(site.mailDir).catch(() => [] as string[])).filter((n) => n.endsWith('.eml')).sort();
    const bodies = await Promise.all(names.map((n) => readFile(path.join(site.mailDir, n), 'utf8')));
    // Soft line breaks and escapes of quoted-printable text.
    const texts = bodies.map((b) => b.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).filter((b) => new RegExp(`^To: ${to}`, 'mi').test(b));
    const match = texts.length >= nth ? pattern.exec(texts[nth - 1]!) : null;
    if (match) return match[1]!;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${prefix} link mailed to ${to}`);
}

/** The family's hash encoding of one component (`.` for `%`), as the app's links use it. */
export function hashComponent(text: string): string {
  return encodeURIComponent(text).replace(/[%().]/g, (c) => ({ '%': '.', '(': '.28', ')': '.29', '.': '.2E' })[c]!);
}

export function channelHash(id: number, name: string, topic?: string): string {
  return `#narrow/channel/${id}-${hashComponent(name.replace(/ /g, '-'))}${topic === undefined ? '' : `/topic/${hashComponent(topic)}`}`;
}

export function dmHash(ids: number[]): string {
  return `#narrow/dm/${[...ids].sort((a, b) => a - b).join(',')}-dm`;
}
