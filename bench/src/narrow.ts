/**
 * Narrowed GET /messages on a long history: the history is bulk-loaded with set-based SQL
 * (generate_series), then fetched through the gateway as a client scrolls back.
 */
import { flagBit } from '@chat/contracts';
import type { Db } from '@chat/db';
import { must, summary, type Account, type Site } from './api';

const TOPICS = 40;
/**
 * Fetches of each narrow before the measured ones. A server answers fetches for days on code the
 * JIT has long compiled; a process's first few dozen fetches run partly interpreted (about a
 * third slower on the development machine), and the first of each narrow reads its pages into
 * the cache. Their p50 is reported apart (`warmupP50`).
 */
export const WARMUP_ROUNDS = 30;

export interface NarrowFigure {
  name: string;
  returned: number;
  p50: number;
  p90: number;
  p99: number;
  /** p50 of the warm-up fetches, the first of the process's life for the first narrow measured. */
  warmupP50: number;
}

/**
 * `count` messages spread over `streamIds` (and their 40 topics) from `senders`, every one with
 * a copy for `viewer`, mostly read. Returns seconds taken.
 */
export async function loadHistory(db: Db, realmId: number, streamIds: number[], senders: number[], viewer: number, count: number): Promise<number> {
  const t0 = performance.now();
  const batch = 250_000;
  for (let from = 1; from <= count; from += batch) {
    const to = Math.min(count, from + batch - 1);
    await db.$executeRawUnsafe(
      `WITH m AS (
         INSERT INTO messages (realm_id, sender_id, recipient_type, stream_id, topic, content, rendered_content, date_sent)
         SELECT $1, ($2::int[])[1 + g % cardinality($2::int[])], 'stream', ($3::int[])[1 + (g / 7) % cardinality($3::int[])],
                'topic ' || (g % ${TOPICS}), 'history message ' || g, '<p>history message ' || g || '</p>',
                now() - make_interval(secs => ($5::int - g))
           FROM generate_series($4::int, $5::int) g
         RETURNING id)
       INSERT INTO user_messages (user_id, message_id, flags)
       SELECT $6, id, CASE WHEN id % 50 = 0 THEN 0 ELSE ${flagBit('read')} END FROM m`,
      realmId, senders, streamIds, from, to, viewer,
    );
    process.stdout.write(`  history ${to.toLocaleString()} messages\r`);
  }
  // A server's history is old rows that vacuum has long since passed over: hint bits set, pages
  // all-visible, and nothing of the load left to flush. Measured straight after a bulk load, the
  // first narrow would share the machine with the checkpoint writing out the load and pay for
  // setting hint bits on every page it reads.
  await db.$executeRawUnsafe('VACUUM (ANALYZE) messages, user_messages');
  // CHECKPOINT needs a superuser or pg_checkpoint; on a site without it the phase still runs.
  await db.$executeRawUnsafe('CHECKPOINT').catch(() => undefined);
  const seconds = (performance.now() - t0) / 1000;
  console.log(`  history of ${count.toLocaleString()} messages loaded in ${seconds.toFixed(1)} s`);
  return seconds;
}

/** `warmups` then `rounds` of one request, in turn: the measured figure, and the warm-up's p50. */
async function timeRounds(name: string, rounds: number, warmups: number, request: () => Promise<{ ms: number; returned: number }>): Promise<NarrowFigure> {
  const times: number[] = [];
  const warmup: number[] = [];
  let returned = 0;
  for (let i = 0; i < rounds + warmups; i++) {
    const a = await request();
    returned = a.returned;
    (i >= warmups ? times : warmup).push(a.ms);
  }
  const s = summary(times);
  return { name, returned, p50: s.p50, p90: s.p90, p99: s.p99, warmupP50: summary(warmup).p50 };
}

export async function measureNarrow(site: Site, viewer: Account, streamId: number, rounds: number): Promise<NarrowFigure[]> {
  const narrows: Array<[string, unknown[]]> = [
    ['channel', [{ operator: 'channel', operand: streamId }]],
    ['channel_topic', [{ operator: 'channel', operand: streamId }, { operator: 'topic', operand: 'topic 5' }]],
    ['all', []],
  ];
  const out: NarrowFigure[] = [];
  for (const [name, narrow] of narrows) {
    const f = await timeRounds(name, rounds, WARMUP_ROUNDS, async () => {
      const a = await must<{ messages: unknown[] }>(site, viewer.auth, 'GET', '/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow });
      return { ms: a.ms, returned: a.body.messages.length };
    });
    out.push(f);
    console.log(`  GET /messages ${name.padEnd(14)} ${String(f.returned).padStart(5)} messages  p50 ${f.p50} ms  p99 ${f.p99} ms  (warm-up p50 ${f.warmupP50} ms)`);
  }
  return out;
}

/**
 * Channel listings on the same long history: each channel object carries its weekly traffic,
 * which counting afresh would read every message of the last four weeks (wire's traffic.ts).
 */
export async function measureListings(site: Site, viewer: Account, rounds: number): Promise<NarrowFigure[]> {
  const out: NarrowFigure[] = [];
  for (const [name, path] of [['streams', '/streams'], ['subscriptions', '/users/me/subscriptions']] as const) {
    const f = await timeRounds(name, rounds, 3, async () => {
      const a = await must<{ streams?: unknown[]; subscriptions?: unknown[] }>(site, viewer.auth, 'GET', path);
      return { ms: a.ms, returned: (a.body.streams ?? a.body.subscriptions ?? []).length };
    });
    out.push(f);
    console.log(`  GET ${path.padEnd(24)} ${String(f.returned).padStart(5)} channels  p50 ${f.p50} ms  p99 ${f.p99} ms`);
  }
  return out;
}
