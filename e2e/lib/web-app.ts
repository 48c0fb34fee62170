/**
 * The web app as a person sees it, found by roles and accessible names: the sidebar's channels
 * and their unread counts, the message log, the compose box. Kept in one place so the tests read
 * as steps and a renamed control is changed once.
 */
import { deflateSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';

/** Until the app has the person's state: the main navigation is drawn. */
export async function waitForApp(page: Page, timeout = 30_000): Promise<void> {
  await nav(page).waitFor({ state: 'visible', timeout });
}

export function nav(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main navigation' });
}

/** A channel's link in the sidebar (its name shown as `# name`). */
export function channelLink(page: Page, name: string): Locator {
  return nav(page).getByRole('link', channelName(name));
}

const channelName = (name: string) => ({ name: new RegExp(`^\\W*${escapeRegExp(name)}$`) });

/** The unread count shown beside a channel in the sidebar (0 when none is shown). */
export async function channelUnread(page: Page, name: string): Promise<number> {
  const item = nav(page).getByRole('listitem').filter({ has: page.getByRole('link', channelName(name)) });
  const label = await item.getByLabel(/\d+ unread/).first().getAttribute('aria-label', { timeout: 500 }).catch(() => null);
  return label ? Number(/(\d+)/.exec(label)![1]) : 0;
}

/** Waits until the channel's unread count is `n`. */
export async function expectChannelUnread(page: Page, name: string, n: number, timeout = 15_000): Promise<void> {
  await until(() => channelUnread(page, name), (v) => v === n, timeout, `unread count of #${name}`);
}

/**
 * The message list of the view (articles, one per message). By its test id: its role has
 * moved (log, feed, region) as the list's accessibility was worked out.
 */
export function messageLog(page: Page): Locator {
  return page.getByTestId('message-list');
}

/** The messages (sent, not pending) whose text contains `text`. */
export function messages(page: Page, text: string | RegExp): Locator {
  return messageLog(page).locator('article[data-message-id]').filter({ hasText: text });
}

/** Waits for exactly one stored message with `text` (and none still being sent) in the view. */
export async function expectOneMessage(page: Page, text: string, timeout = 15_000): Promise<Locator> {
  const row = messages(page, text);
  await row.first().waitFor({ state: 'visible', timeout });
  await until(async () => [await row.count(), await messageLog(page).locator('article[aria-busy="true"]').filter({ hasText: text }).count()], ([sent, pending]) => sent === 1 && pending === 0, timeout, `one message "${text}"`);
  return row.first();
}

/** The open compose box (a form), once opened. */
export function composeForm(page: Page): Locator {
  return page.getByRole('form', { name: 'Compose message' });
}

export function composeBox(page: Page): Locator {
  return composeForm(page).getByRole('textbox', { name: 'Message', exact: true });
}

/** Opens the compose box to the view's conversation (the bar's "Message #channel > topic" button), unless open. */
export async function openCompose(page: Page): Promise<void> {
  if (await composeForm(page).isVisible()) return;
  await page.getByRole('button', { name: /^Message / }).click();
  await composeBox(page).waitFor();
}

/** Writes a message in the compose box to the view's conversation and sends it with the Send button. */
export async function send(page: Page, text: string): Promise<void> {
  await openCompose(page);
  await composeBox(page).fill(text);
  await composeForm(page).getByRole('button', { name: 'Send', exact: true }).click();
}

/** Goes to a view by its hash (`#narrow/...`, `#inbox`, `#settings/...`), as a link would. */
export async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    location.hash = h;
  }, hash);
}

/** Polls `read` until `ok` holds; fails with the last value after `timeout`. */
export async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeout: number, what: string): Promise<T> {
  const deadline = Date.now() + timeout;
  let last: T;
  for (;;) {
    last = await read();
    if (ok(last)) return last;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(last)} after ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Searches with the header's search box, as typed and entered. */
export async function searchFor(page: Page, words: string): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Search messages' });
  await box.click();
  await box.fill(words);
  await box.press('Enter');
}

/** A real 48×32 PNG (a red and green field), for uploads whose preview must load. */
export function tinyPng(): Buffer {
  const width = 48;
  const height = 32;
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const at = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) rows.set(y < height / 2 ? [200, 40, 30] : [40, 160, 60], at + 1 + x * 3);
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
