/// <reference lib="dom" />
// Parts of this file run in the page (page.evaluate), with the browser's globals.
/**
 * The browser the web phase measures with: Debian's Chromium driven by playwright-core, with the
 * bench realm's host name (`<realm>.<external host>`) resolved to the gateway, so the app is
 * reached by its realm's own name as a person's browser would reach it, and in-page probes that
 * time what a person sees (the first messages painted, a channel's messages after a click).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Chromium is a Debian package here (playwright's own downloads cannot be used): installed once when missing, as root. */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium)`);
  const apt = (args: string[]) => execFileSync('apt-get', args, { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeout: 600_000 });
  try {
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
  } catch {
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
  }
}

/**
 * Chromium whose name lookups for `host` go to the gateway at `gatewayUrl`. Its Host header is
 * then `host` itself, which is how the gateway picks the realm.
 */
export async function launchFor(host: string, gatewayUrl: string): Promise<Browser> {
  ensureChromium();
  const target = new URL(gatewayUrl);
  const name = host.replace(/:\d+$/, '');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-dev-shm-usage',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--enable-precise-memory-info',
      `--host-resolver-rules=MAP ${name} ${target.hostname}:${target.port || 80}`,
    ],
  });
}

/**
 * A context for one visit. The bench runs under tsx, whose compiler names functions through a
 * `__name` helper; functions handed to the page carry those calls, so the page gets the helper.
 */
export async function newVisit(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript('globalThis.__name = (fn) => fn;');
  return context;
}

/**
 * Records, in every document of the context, when the first message row is painted (epoch
 * milliseconds, on `window.__firstMessagesAt`): the row's appearance, then the frame that
 * draws it (a task posted from requestAnimationFrame runs once that frame is committed).
 */
export async function probeFirstMessages(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __firstMessagesAt?: number };
    const observer = new MutationObserver(() => {
      if (!document.querySelector('[data-testid="message-list"] article[data-message-id]')) return;
      observer.disconnect();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => (w.__firstMessagesAt = performance.timeOrigin + performance.now());
        channel.port2.postMessage(0);
      });
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}

export async function firstMessagesAt(page: Page, timeoutMs = 60_000): Promise<number> {
  try {
    const handle = await page.waitForFunction(() => (window as unknown as { __firstMessagesAt?: number }).__firstMessagesAt, undefined, { timeout: timeoutMs, polling: 50 });
    return (await handle.jsonValue()) as number;
  } catch (err) {
    throw new Error(`no messages painted at ${page.url()}: ${(await page.locator('body').innerText().catch(() => '')).slice(0, 500)}\n${(err as Error).message}`);
  }
}

/**
 * Clicks a channel's link in the sidebar and resolves with the milliseconds until a message
 * containing `marker` is painted in the message list.
 */
export async function switchChannel(page: Page, channel: string, marker: string, timeoutMs = 30_000): Promise<number> {
  return page.evaluate(([name, text, timeout]) => new Promise<number>((resolve, reject) => {
    const links = Array.from(document.querySelectorAll<HTMLAnchorElement>('nav a'));
    const link = links.find((a) => (a.textContent ?? '').trim().replace(/^[^\p{L}\p{N}]+/u, '') === name);
    if (!link) return reject(new Error(`no link to ${name} in the sidebar`));
    const shown = () => Array.from(document.querySelectorAll('[data-testid="message-list"] article[data-message-id]')).some((a) => (a.textContent ?? '').includes(text));
    const started = performance.now();
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`${name}: no message with "${text}" after ${timeout} ms`));
    }, timeout);
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => resolve(performance.now() - started);
        ch.port2.postMessage(0);
      });
    };
    const observer = new MutationObserver(() => {
      if (shown()) done();
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    link.click();
  }), [channel, marker, timeoutMs] as const);
}

/** The page's JS heap after a full collection, in MB, and its DOM node count (CDP Performance metrics). */
export async function heapAfterGc(cdp: CDPSession): Promise<{ heapMb: number; nodes: number }> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const get = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  return { heapMb: Math.round((get('JSHeapUsedSize') / 1048576) * 10) / 10, nodes: get('Nodes') };
}
