/**
 * Narrowed GET /messages on a long history: the history is bulk-loaded with set-based SQL
 * (generate_series), then fetched through the gateway as a client scrolls back.
 */
import { flagBit } from '@chat/contracts';
import type { Db } from '@chat/db';
import { must, summary, type Account, type Site } from './api';

const TOPICS = 40;

export interface NarrowFigure {
  name: string;
  returned: number;
  p50: number;
  p90: number;
  p99: number;
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
  await db.$executeRawUnsafe('ANALYZE messages');
  await db.$executeRawUnsafe('ANALYZE user_messages');
  const seconds = (performance.now() - t0) / 1000;
  console.log(`  history of ${count.toLocaleString()} messages loaded in ${seconds.toFixed(1)} s`);
  return seconds;
}

export async function measureNarrow(site: Site, viewer: Account, streamId: number, rounds: number): Promise<NarrowFigure[]> {
  const narrows: Array<[string, unknown[]]> = [
    ['channel', [{ operator: 'channel', operand: streamId }]],
    ['channel_topic', [{ operator: 'channel', operand: streamId }, { operator: 'topic', operand: 'topic 5' }]],
    ['all', []],
  ];
  const out: NarrowFigure[] = [];
  for (const [name, narrow] of narrows) {
    const times: number[] = [];
    let returned = 0;
    for (let i = 0; i < rounds + 2; i++) {
      const a = await must<{ messages: unknown[] }>(site, viewer.auth, 'GET', '/messages', {
        anchor: 'newest', num_before: 1000, num_after: 0, narrow,
      });
      returned = a.body.messages.length;
      if (i >= 2) times.push(a.ms);
    }
    const s = summary(times);
    out.push({ name, returned, p50: s.p50, p90: s.p90, p99: s.p99 });
    console.log(`  GET /messages ${name.padEnd(14)} ${String(returned).padStart(5)} messages  p50 ${s.p50} ms  p99 ${s.p99} ms`);
  }
  return out;
}
