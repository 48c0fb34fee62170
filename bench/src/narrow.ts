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
  /** Fetches measured. */
  samples: number;
  /** p50 of the warm-up fetches, the first of the process's life for the first narrow measured. */
  warmupP50: number;
}

/**
 * A history of at least `copies` user_messages rows, written as sends write them: messages over
 * `streamIds` in turn (40 topics each), from `senders`, each with one copy per active subscriber
 * of its channel, the sender's read and most others read too. Returns the messages written.
 */
export async function loadHistory(db: Db, realmId: number, streamIds: number[], senders: number[], copies: number): Promise<number> {
  const t0 = performance.now();
  const [{ avg }] = await db.$queryRawUnsafe<Array<{ avg: number }>>(
    'SELECT avg(n)::float AS avg FROM (SELECT count(*) AS n FROM subscriptions WHERE active AND stream_id = ANY($1::int[]) GROUP BY stream_id) s', streamIds,
  );
  const count = Math.ceil(copies / avg);
  const batch = Math.max(1, Math.floor(1_000_000 / avg));
  let written = 0;
  for (let from = 1; from <= count; from += batch) {
    const to = Math.min(count, from + batch - 1);
    await db.$executeRawUnsafe(
      `WITH m AS (
         INSERT INTO messages (realm_id, sender_id, recipient_type, stream_id, topic, content, rendered_content, sending_client, date_sent)
         SELECT $1, ($2::int[])[1 + g % cardinality($2::int[])], 'stream', ($3::int[])[1 + g % cardinality($3::int[])],
                'topic ' || (g % ${TOPICS}), 'history message ' || g, '<p>history message ' || g || '</p>', 'bench',
                now() - make_interval(secs => ($5::int - g))
           FROM generate_series($4::int, $5::int) g
         RETURNING id, sender_id, stream_id)
       INSERT INTO user_messages (user_id, message_id, flags)
       SELECT s.user_id, m.id, CASE WHEN s.user_id = m.sender_id OR m.id % 50 <> 0 THEN ${flagBit('read')} ELSE 0 END
         FROM m JOIN subscriptions s ON s.stream_id = m.stream_id AND s.active`,
      realmId, senders, streamIds, from, to,
    );
    written = to;
    process.stdout.write(`  history ${written.toLocaleString()} of ${count.toLocaleString()} messages\r`);
  }
  // A server's history is old rows that vacuum has long since passed over: hint bits set, pages
  // all-visible, and nothing of the load left to flush. Measured straight after a bulk load, the
  // first narrow would share the machine with the checkpoint writing out the load and pay for
  // setting hint bits on every page it reads.
  await db.$executeRawUnsafe('VACUUM (ANALYZE) messages, user_messages');
  // CHECKPOINT needs a superuser or pg_checkpoint; on a site without it the phase still runs.
  await db.$executeRawUnsafe('CHECKPOINT').catch(() => undefined);
  const seconds = (performance.now() - t0) / 1000;
  console.log(`  history of ${count.toLocaleString()} messages (${Math.round(count * avg).toLocaleString()} copies) loaded in ${seconds.toFixed(1)} s`);
  return count;
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
  return { name, returned, samples: times.length, p50: s.p50, p90: s.p90, p99: s.p99, warmupP50: summary(warmup).p50 };
}

/** GET /messages narrowed to one channel, the newest 1,000 (after the warm-up fetches). */
export async function measureChannelNarrow(site: Site, viewer: Account, streamId: number, rounds: number, warmups = WARMUP_ROUNDS): Promise<NarrowFigure> {
  const narrow = [{ operator: 'channel', operand: streamId }];
  const f = await timeRounds('channel', rounds, warmups, async () => {
    const a = await must<{ messages: unknown[] }>(site, viewer.auth, 'GET', '/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow });
    return { ms: a.ms, returned: a.body.messages.length };
  });
  console.log(`  GET /messages channel ${String(f.returned).padStart(5)} messages  p50 ${f.p50} ms  p99 ${f.p99} ms  (warm-up p50 ${f.warmupP50} ms)`);
  return f;
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
