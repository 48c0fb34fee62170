/**
 * Headless Chromium for browser tests: Debian's `chromium` package driven by playwright-core
 * (whose own browser downloads cannot be used here). A machine without it gets it installed
 * once, through apt, when the test runs as root; otherwise the test says what to install.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium)`);
  const apt = (args: string[]) => execFileSync('apt-get', args, { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeout: 600_000 });
  try {
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
  } catch {
    // A fresh machine may not have package lists yet.
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', 'chromium']);
  }
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A fresh browser profile (its own user-data-dir), headless and quiet on the network. */
export async function launchBrowser(): Promise<Browser> {
  ensureChromium();
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'e2e-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
