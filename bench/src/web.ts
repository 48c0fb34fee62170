/// <reference lib="dom" />
// Parts of this file run in the page (page.evaluate), with the browser's globals.
/**
 * The web app as a person meets it, in headless Chromium through the gateway (production
 * settings, the gateway's compression), on the bench realm of 1,000 people: the bytes the first
 * load of `/` transfers, login form submitted to first messages painted, a click on another
 * channel to its messages painted, and the page's JS heap while a topic of 10,000 messages is
 * scrolled from its start to its end.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '@chat/db';
import { flagBit } from '@chat/contracts';
import type { Page, Request } from 'playwright-core';
import { hashPassword } from '../../services/users/src/lib/passwords';
import { clientFor, summary, type Account, type Site } from './api';
import { firstMessagesAt, heapAfterGc, launchFor, newVisit, probeFirstMessages, switchChannel } from './web-browser';

export interface WebPlan {
  /** Logins timed (each in a fresh browser profile). */
  logins: number;
  /** Channel switches timed, round the phase's channels. */
  switches: number;
  /** Messages in the long topic. */
  longTopic: number;
}

export interface WebFigure {
  firstLoad: { bytesCompressed: number; bytesUncompressed: number; requests: number; encodings: string[]; files: Array<{ path: string; type: string; compressed: number; encoding: string }> };
  /**
   * Login form sent to first messages painted; and, on the way (p50s from the same moment), the
   * shell's last byte, /register's answer and the first message page's answer.
   */
  login: { runs: number[]; p50: number; p95: number; shellP50: number; registerP50: number; messagesP50: number };
  channelSwitch: { runs: number[]; p50: number; p95: number; firstVisitP50: number; revisitP50: number };
  longTopic: {
    messages: number;
    secondsToStart: number;
    secondsToEnd: number;
    heapMb: { opened: number; atStart: number; atEnd: number; max: number };
    nodes: { opened: number; atStart: number; atEnd: number; max: number };
    samples: Array<{ at: string; heapMb: number; nodes: number }>;
  };
}

const PASSWORD = 'bench web login phrase 1000';
const SWITCH_CHANNELS = ['web one', 'web two', 'web three', 'web four'];
const LONG_CHANNEL = 'web long topic';
const LONG_TOPIC = 'ten thousand';
const HISTORY_PER_SWITCH_CHANNEL = 300;

/**
 * `count` messages in one channel and topic from `senders`, each with a read copy for `viewer`;
 * some are long (paragraphs, a list, code) so that rows differ in height as real ones do.
 * `text(g)` is SQL for the text of message g (1-based).
 */
async function insertTopic(db: Db, realmId: number, streamId: number, topic: string, senders: number[], viewer: number, count: number, label: string): Promise<void> {
  const batch = 50_000;
  for (let from = 1; from <= count; from += batch) {
    const to = Math.min(count, from + batch - 1);
    await db.$executeRawUnsafe(
      `WITH m AS (
         INSERT INTO messages (realm_id, sender_id, recipient_type, stream_id, topic, content, rendered_content, date_sent)
         SELECT $1, ($2::int[])[1 + g % cardinality($2::int[])], 'stream', $3, $4,
                $5 || ' ' || lpad(g::text, 5, '0'),
                CASE
                  WHEN g % 7 = 0 THEN '<p>' || $5 || ' ' || lpad(g::text, 5, '0') || '</p><p>A second paragraph, long enough to wrap on a narrow window: the plants by the south wall need water twice a day in this heat.</p><p>And a third one.</p>'
                  WHEN g % 11 = 0 THEN '<p>' || $5 || ' ' || lpad(g::text, 5, '0') || '</p><ul><li>first point</li><li>second point</li><li>third point</li></ul>'
                  WHEN g % 13 = 0 THEN '<p>' || $5 || ' ' || lpad(g::text, 5, '0') || '</p><div class="codehilite"><pre><span></span><code>for (const row of rows) draw(row);\nreturn rows.length;\n</code></pre></div>'
                  ELSE '<p>' || $5 || ' ' || lpad(g::text, 5, '0') || '</p>'
                END,
                now() - make_interval(secs => ($7::int - g + 1) * 5)
           FROM generate_series($6::int, $7::int) g
         RETURNING id)
       INSERT INTO user_messages (user_id, message_id, flags)
       SELECT $8, id, ${flagBit('read')} FROM m`,
      realmId, senders, streamId, topic, label, from, to, viewer,
    );
  }
}

async function channelIdOf(db: Db, realmId: number, name: string): Promise<number> {
  return (await db.stream.findFirstOrThrow({ where: { realmId, name } })).id;
}

/** The phase's channels (the viewer and a few others in each) and their history. */
async function prepare(db: Db, site: Site, realmId: number, owner: Account, viewer: Account, others: Account[], plan: WebPlan): Promise<void> {
  const principals = [viewer, ...others].map((u) => u.id);
  for (const name of [...SWITCH_CHANNELS, LONG_CHANNEL]) {
    await clientFor(site, owner).call('POST', '/users/me/subscriptions', { subscriptions: [{ name, description: 'the web phase' }], principals });
  }
  const senders = others.map((u) => u.id);
  for (const name of SWITCH_CHANNELS) {
    await insertTopic(db, realmId, await channelIdOf(db, realmId, name), 'switching', senders, viewer.id, HISTORY_PER_SWITCH_CHANNEL, `${name} message`);
  }
  await insertTopic(db, realmId, await channelIdOf(db, realmId, LONG_CHANNEL), LONG_TOPIC, senders, viewer.id, plan.longTopic, 'long topic message');
  await db.$executeRawUnsafe('VACUUM (ANALYZE) messages, user_messages');
  // A password as `npm run manage -- set-password` stores it (the bench's people have none).
  await db.user.update({ where: { id: viewer.id }, data: { passwordHash: await hashPassword(PASSWORD) } });
}

const round = (v: number) => Math.round(v * 10) / 10;

/** The page's requests, from the moment the login form was sent, and the first messages painted: where the time goes. */
async function timelineOf(page: Page, submitted: number, painted: number): Promise<string> {
  const rows = await page.evaluate(() => [
    ...performance.getEntriesByType('navigation'),
    ...performance.getEntriesByType('resource'),
  ].map((e) => ({ name: e.name, start: performance.timeOrigin + e.startTime, end: performance.timeOrigin + (e as PerformanceResourceTiming).responseEnd })));
  const line = (start: number, end: number, what: string) => `    ${String(Math.round(start - submitted)).padStart(6)} ${String(Math.round(end - submitted)).padStart(6)}  ${what}`;
  // Avatars (one per person shown) on one line.
  const avatars = rows.filter((r) => new URL(r.name).pathname.startsWith('/avatar/'));
  const lines = rows.filter((r) => !avatars.includes(r)).map((r) => line(r.start, r.end, new URL(r.name).pathname.slice(0, 60)));
  if (avatars.length) lines.push(line(Math.min(...avatars.map((r) => r.start)), Math.max(...avatars.map((r) => r.end)), `${avatars.length} avatars`));
  lines.push(`    ${String(Math.round(painted - submitted)).padStart(13)}  first messages painted`);
  return lines.join('\n');
}

export async function measureWeb(db: Db, site: Site, gatewayUrl: string, realmId: number, owner: Account, users: Account[], plan: WebPlan): Promise<WebFigure> {
  const viewer = users[1]!;
  await prepare(db, site, realmId, owner, viewer, users.slice(2, 12), plan);
  const origin = `http://${site.host}`;
  const browser = await launchFor(site.host, gatewayUrl);
  try {
    const longId = await channelIdOf(db, realmId, LONG_CHANNEL);
    const landing = `/#narrow/channel/${await channelIdOf(db, realmId, SWITCH_CHANNELS[0]!)}-web-one`;

    // Logins, each in a fresh profile (nothing cached, as on a first visit). The first is not
    // timed: the gateway compresses each of the app's files when it is first asked for (its
    // best compression ready only after that), once for its life. The last visit's transfers
    // are the first load's bytes.
    const logins: number[] = [];
    const shells: number[] = [];
    const registers: number[] = [];
    const fetches: number[] = [];
    let firstLoad: WebFigure['firstLoad'] | undefined;
    for (let i = 0; i <= plan.logins; i++) {
      const context = await newVisit(browser);
      await probeFirstMessages(context);
      const page = await context.newPage();
      await page.goto(`${origin}/login/?next=${encodeURIComponent(landing)}`);
      await page.fill('#id_username', viewer.email);
      await page.fill('#id_password', PASSWORD);
      const transfers: Request[] = [];
      page.on('requestfinished', (r) => transfers.push(r));
      const last = i === plan.logins;
      const cdp = last && process.env.BENCH_PROFILE_DIR ? await context.newCDPSession(page) : null;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      const submitted = Date.now();
      await page.click('main button[type=submit]');
      const painted = await firstMessagesAt(page, i === 0 ? 180_000 : 60_000);
      if (cdp) {
        const { profile } = await cdp.send('Profiler.stop');
        writeFileSync(path.join(process.env.BENCH_PROFILE_DIR!, 'web-login.cpuprofile'), JSON.stringify(profile));
      }
      if (last) console.log(`  the last login's requests (ms from the form sent to start, to last byte):\n${await timelineOf(page, submitted, painted)}`);
      if (i > 0) {
        logins.push(painted - submitted);
        const marks = await page.evaluate(() => {
          const at = (entry: PerformanceEntry | undefined) => (entry ? performance.timeOrigin + (entry as PerformanceResourceTiming).responseEnd : NaN);
          const resources = performance.getEntriesByType('resource');
          return {
            shell: at(performance.getEntriesByType('navigation')[0]),
            register: at(resources.find((e) => e.name.includes('/json/register'))),
            messages: at(resources.find((e) => e.name.includes('/json/messages'))),
          };
        });
        shells.push(marks.shell - submitted);
        registers.push(marks.register - submitted);
        fetches.push(marks.messages - submitted);
      }
      if (i === plan.logins) {
        // What loads right after the first paint (lazily loaded parts the view asks for) counts too.
        await page.waitForTimeout(2000);
        firstLoad = await firstLoadOf(transfers);
      }
      await context.close();
    }
    const l = summary(logins);
    console.log(`  first load ${firstLoad!.bytesCompressed} bytes compressed (${firstLoad!.encodings.join(', ')}), login to first messages p50 ${l.p50} ms`);

    // Channel switches: round the phase's channels, the first visit of each fetching its page.
    const context = await newVisit(browser);
    const page = await context.newPage();
    await page.goto(`${origin}/login/?next=${encodeURIComponent(landing)}`);
    await page.fill('#id_username', viewer.email);
    await page.fill('#id_password', PASSWORD);
    await page.click('main button[type=submit]');
    await page.locator('[data-testid="message-list"] article[data-message-id]').first().waitFor({ timeout: 60_000 });
    const switches: number[] = [];
    const firstVisits: number[] = [];
    const revisits: number[] = [];
    for (let i = 0; i < plan.switches; i++) {
      const name = SWITCH_CHANNELS[(i + 1) % SWITCH_CHANNELS.length]!;
      const ms = round(await switchChannel(page, name, `${name} message`));
      switches.push(ms);
      (i < SWITCH_CHANNELS.length ? firstVisits : revisits).push(ms);
    }
    const s = summary(switches);
    console.log(`  channel switch p50 ${s.p50} ms p95 ${p95(switches)} ms (first visits p50 ${summary(firstVisits).p50} ms)`);

    const longTopic = await scrollLongTopic(page, longId, plan.longTopic);
    await context.close();
    return {
      firstLoad: firstLoad!,
      login: { runs: logins, p50: l.p50, p95: p95(logins), shellP50: summary(shells).p50, registerP50: summary(registers).p50, messagesP50: summary(fetches).p50 },
      channelSwitch: { runs: switches, p50: s.p50, p95: p95(switches), firstVisitP50: summary(firstVisits).p50, revisitP50: summary(revisits).p50 },
      longTopic,
    };
  } finally {
    await browser.close();
  }
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? round(sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!) : NaN;
}

/** The app's HTML, scripts and styles as transferred (compressed bodies) for the load of `/`. */
async function firstLoadOf(transfers: Request[]): Promise<WebFigure['firstLoad']> {
  const files: WebFigure['firstLoad']['files'] = [];
  let uncompressed = 0;
  for (const r of transfers) {
    const url = new URL(r.url());
    const type = r.resourceType();
    const app = url.pathname === '/' || url.pathname.startsWith('/static/app/');
    if (!app || !['document', 'script', 'stylesheet'].includes(type)) continue;
    const response = await r.response();
    if (!response || response.status() !== 200) continue;
    const sizes = await r.sizes();
    files.push({ path: url.pathname, type, compressed: sizes.responseBodySize, encoding: (await response.headerValue('content-encoding')) ?? 'identity' });
    uncompressed += (await response.body()).length;
  }
  return {
    bytesCompressed: files.reduce((a, f) => a + f.compressed, 0),
    bytesUncompressed: uncompressed,
    requests: files.length,
    encodings: [...new Set(files.map((f) => f.encoding))],
    files,
  };
}

/**
 * Opens the long topic (its newest page), scrolls up until its first message shows (each page
 * older fetched as the top is reached), then down to its last, sampling the heap after a full
 * collection every tenth of the way.
 */
async function scrollLongTopic(page: Page, channelId: number, count: number): Promise<WebFigure['longTopic']> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const samples: WebFigure['longTopic']['samples'] = [];
  const sample = async (at: string) => {
    const m = await heapAfterGc(cdp);
    samples.push({ at, ...m });
    return m;
  };
  await page.evaluate((hash) => (location.hash = hash), `#narrow/channel/${channelId}-web-long-topic/topic/ten.20thousand`);
  const log = page.getByTestId('message-list');
  await log.locator('article[data-message-id]', { hasText: `long topic message ${String(count).padStart(5, '0')}` }).waitFor({ timeout: 60_000 });
  const opened = await sample('opened');
  const first = `long topic message ${'1'.padStart(5, '0')}`;
  const t0 = performance.now();
  for (let steps = 1; ; steps++) {
    // A scroll event each time (the app loads older messages on one near the top): at the top
    // already, one pixel down and back up again.
    const top = await log.evaluate((el, text) => {
      el.scrollTop = el.scrollTop === 0 ? 1 : 0;
      return Array.from(el.querySelectorAll('article[data-message-id]')).some((a) => (a.textContent ?? '').includes(text));
    }, first);
    if (top) break;
    if (performance.now() - t0 > 600_000) throw new Error('the long topic\'s first message never showed');
    await page.waitForTimeout(30);
    if (steps % 100 === 0) await sample(`up ${steps}`);
  }
  const secondsToStart = round((performance.now() - t0) / 1000);
  const atStart = await sample('start');
  const t1 = performance.now();
  // Down in steps of 600 pixels, as a reader's wheel would move, each drawn before the next;
  // about ten samples on the way.
  const height = await log.evaluate((el) => el.scrollHeight);
  const every = Math.max(1, Math.round(height / 600 / 10));
  for (let step = 1; ; step++) {
    const end = await log.evaluate(async (el) => {
      el.scrollTop += 600;
      await new Promise((r) => requestAnimationFrame(r));
      return el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
    });
    if (end) break;
    if (performance.now() - t1 > 600_000) throw new Error('the long topic\'s end was never reached');
    if (step % every === 0) await sample(`down ${step}`);
  }
  await log.locator('article[data-message-id]', { hasText: `long topic message ${String(count).padStart(5, '0')}` }).waitFor();
  const secondsToEnd = round((performance.now() - t1) / 1000);
  const atEnd = await sample('end');
  const heaps = samples.map((x) => x.heapMb);
  const nodes = samples.map((x) => x.nodes);
  console.log(`  long topic: heap ${opened.heapMb} MB opened, ${atStart.heapMb} MB at its start (${secondsToStart} s), ${atEnd.heapMb} MB at its end; DOM nodes ${opened.nodes} / ${atStart.nodes} / ${atEnd.nodes}`);
  return {
    messages: count, secondsToStart, secondsToEnd,
    heapMb: { opened: opened.heapMb, atStart: atStart.heapMb, atEnd: atEnd.heapMb, max: Math.max(...heaps) },
    nodes: { opened: opened.nodes, atStart: atStart.nodes, atEnd: atEnd.nodes, max: Math.max(...nodes) },
    samples,
  };
}
