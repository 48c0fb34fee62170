/**
 * Integrations from the web app, in headless Chromium at a phone's width through the real
 * gateway: a person creates a GitHub incoming-webhook bot with a secret in Settings → Bots,
 * picks a channel, a topic and an event in the URL dialog (axe-clean), copies the URL; the
 * test posts GitHub's push payload, signed with that secret, to the copied URL, and the
 * message appears in the channel in the person's browser. The same URL is reachable again
 * from the bot's card.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { channelHash, createChannel, newPerson, screenshotsAfterEach, setPasswords, signIn, startWebSite, type WebSite } from './lib/web';
import { expectOneMessage, go } from './lib/web-app';
import { axeViolations, describeViolations } from './lib/web-axe';

let site: WebSite;
const PASSWORD = 'quince lantern harbour 47';
const CHANNEL = 'web deploys';
const TOPIC = 'hello world pushes';
const SECRET = 'hush-9f3c';
let channelId: number;

beforeAll(async () => {
  site = await startWebSite();
  const { member, admin } = site.realm;
  await setPasswords(site, [{ email: member.email, password: PASSWORD }]);
  channelId = await createChannel(site, admin, CHANNEL, [member, admin]);
}, 300_000);

afterAll(async () => {
  await site?.close();
});

screenshotsAfterEach(() => site);

it('creates a GitHub bot, copies its URL, and shows what GitHub posts to it in the channel', async () => {
  const context = await newPerson(site);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
  const page = await signIn(context, { email: site.realm.member.email, password: PASSWORD });
  await page.setViewportSize({ width: 390, height: 844 });
  await go(page, '#settings/bots');

  const form = page.getByTestId('add-bot');
  await form.getByLabel('Bot type').selectOption({ label: 'Incoming webhook' });
  await form.getByLabel('Name', { exact: true }).fill('Hello World hooks');
  await form.getByLabel(/^Bot email/).fill('helloworld');
  await form.getByLabel('Search integrations').fill('git');
  const list = form.getByLabel('Integration', { exact: true });
  expect(await list.locator('option').allTextContents()).toContain('GitHub');
  await list.selectOption({ label: 'GitHub' });
  await form.getByLabel('Webhook secret').fill(SECRET);
  await form.getByRole('button', { name: 'Create bot' }).click();

  const dialog = page.getByRole('dialog', { name: 'URL to paste for Hello World hooks' });
  await dialog.waitFor();
  await dialog.getByLabel('Channel to post to').selectOption({ label: CHANNEL });
  await dialog.getByLabel('Topic (optional)').fill(TOPIC);
  await dialog.getByRole('group', { name: 'Events to post' }).getByLabel('push', { exact: true }).check();
  await expectNoAxeViolations(page);
  // Usable at a phone's width: nothing pushes the page sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  await dialog.getByRole('button', { name: 'Copy URL' }).click();
  await dialog.getByText('Copied').waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const url = new URL(copied);
  expect(url.pathname).toBe('/api/v1/external/github');
  expect(url.searchParams.get('stream')).toBe(String(channelId));
  expect(url.searchParams.get('topic')).toBe(TOPIC);
  expect(JSON.parse(url.searchParams.get('only_events')!)).toEqual(['push']);
  const key = url.searchParams.get('api_key')!;
  expect(key).toMatch(/^\w{20,}$/);

  // The URL names the organization's address; the test reaches the same gateway by its own.
  const target = `${site.url}${url.pathname}${url.search}`;
  const body = readFileSync(path.join(__dirname, 'webhooks/fixtures/github/push__1_commit.json'));
  const post = (signature: string) => fetch(target, {
    method: 'POST', body,
    headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': signature },
  });
  // The secret typed in the form is the bot's: a payload signed otherwise is refused.
  const forged = await post(`sha256=${createHmac('sha256', 'not-the-secret').update(body).digest('hex')}`);
  expect((await forged.json()).msg).toBe('Webhook signature verification failed.');
  const sent = await post(`sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`);
  expect(await sent.json()).toMatchObject({ result: 'success' });

  await dialog.getByRole('button', { name: 'Done' }).click();
  await go(page, channelHash(channelId, CHANNEL, TOPIC));
  await expectOneMessage(page, 'pushed 1 commit to branch master');

  // Later, the bot's card opens the URL again (the integration chosen in the dialog).
  await go(page, '#settings/bots');
  await page.getByRole('button', { name: 'URL to paste for Hello World hooks' }).click();
  const again = page.getByRole('dialog', { name: 'URL to paste for Hello World hooks' });
  await again.getByLabel('Integration', { exact: true }).selectOption({ label: 'GitHub' });
  await again.getByLabel('Channel to post to').selectOption({ label: CHANNEL });
  const text = again.getByLabel('URL', { exact: true });
  await page.waitForFunction((k) => (document.querySelector('[data-testid="webhook-url-text"]') as HTMLTextAreaElement | null)?.value.includes(k), key);
  const reopened = new URL(await text.inputValue());
  expect(reopened.pathname).toBe('/api/v1/external/github');
  expect(reopened.searchParams.get('stream')).toBe(String(channelId));
  await context.close();
});

async function expectNoAxeViolations(page: Page): Promise<void> {
  const violations = await axeViolations(page, ['serious', 'critical']);
  if (violations.length) throw new Error(describeViolations(violations));
}
