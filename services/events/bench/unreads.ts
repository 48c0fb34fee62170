/**
 * Register's unread_msgs on a realistic table: builds a throwaway database with a million
 * messages (one in twenty direct) and three users who receive them all, then times unread_msgs
 * for a user with more unread messages than the cap and for one with a few hundred, and prints
 * the plan of the query over user_messages.
 *
 *   node --import tsx bench/events-unreads.ts
 *   BENCH_MESSAGES=200000 BENCH_ROUNDS=10 node --import tsx bench/events-unreads.ts
 *
 * BENCH_KEEP=1 keeps the database (its URL is printed); BENCH_DATABASE_URL=<that url> measures
 * again on it without rebuilding.
 */
import { performance } from 'node:perf_hooks';
import { flagBit, TOPIC_VISIBILITY } from '@chat/contracts';
import { createDb, type Db } from '@chat/db';
import { createTestDatabase } from '@chat/db/testing';
import { seedRealm } from '@chat/testing';
import { MAX_UNREAD_MESSAGES, UNREAD_GROUPS_SQL, unreadMsgs } from '../src/state/unreads';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const STREAMS = 50;
const TOPICS_PER_STREAM = 40;

interface Built {
  heavy: number;
  light: number;
}

async function build(db: Db): Promise<Built> {
  const t0 = performance.now();
  const realm = await seedRealm(db);
  const heavy = realm.member;
  const light = realm.member2;
  const users = [realm.owner, heavy, light];
  await db.$executeRawUnsafe(
    `INSERT INTO streams (realm_id, name, name_key) SELECT $1, 'channel ' || g, 'channel ' || g FROM generate_series(1, $2) g`,
    realm.realmId,
    STREAMS,
  );
  const streams = (await db.stream.findMany({ where: { realmId: realm.realmId }, orderBy: { id: 'asc' } })).map((s) => s.id);
  // Everyone subscribes to every channel; the heavy reader has muted five and left two.
  for (const u of users) {
    await db.subscription.createMany({
      data: streams.map((streamId, i) => ({ userId: u.id, streamId, isMuted: u === heavy && i % 10 === 1, active: !(u === heavy && i % 25 === 3) })),
    });
  }
  const ids = users.map((u) => u.id).sort((a, b) => a - b);
  const pair = await db.directConversation.create({ data: { realmId: realm.realmId, memberKey: `${ids[1]},${ids[2]}`, memberIds: [ids[1], ids[2]] } });
  const group = await db.directConversation.create({ data: { realmId: realm.realmId, memberKey: ids.join(','), memberIds: ids } });
  // Topic policies: a hundred muted topics and twenty followed ones (in muted channels too).
  await db.userTopic.createMany({
    data: Array.from({ length: 120 }, (_, i) => ({
      realmId: realm.realmId, userId: heavy.id, streamId: streams[i % STREAMS], topicName: `topic ${i % TOPICS_PER_STREAM}`,
      topicKey: `topic ${i % TOPICS_PER_STREAM}`, visibilityPolicy: i < 100 ? TOPIC_VISIBILITY.MUTED : TOPIC_VISIBILITY.FOLLOWED,
    })),
    skipDuplicates: true,
  });

  console.log(`building ${MESSAGES.toLocaleString()} messages...`);
  const BATCH = 100_000;
  for (let from = 1; from <= MESSAGES; from += BATCH) {
    const to = Math.min(MESSAGES, from + BATCH - 1);
    await db.$executeRawUnsafe(
      `INSERT INTO messages (realm_id, sender_id, recipient_type, stream_id, conversation_id, topic, content, rendered_content)
       SELECT $1, ($2::int[])[1 + g % 3],
              CASE WHEN g % 20 = 0 THEN 'private' ELSE 'stream' END,
              CASE WHEN g % 20 = 0 THEN NULL ELSE ($3::int[])[1 + (g / 7) % ${STREAMS}] END,
              CASE WHEN g % 40 = 0 THEN $4::int WHEN g % 20 = 0 THEN $5::int ELSE NULL END,
              CASE WHEN g % 20 = 0 THEN '' ELSE 'topic ' || (g % ${TOPICS_PER_STREAM}) END,
              'message ' || g, '<p>message ' || g || '</p>'
         FROM generate_series($6::int, $7::int) g`,
      realm.realmId, ids, streams, pair.id, group.id, from, to,
    );
    process.stdout.write(`  messages ${to.toLocaleString()}\r`);
  }
  console.log('');
  // Every user has every message. The heavy reader leaves one in fifteen unread (more than the
  // cap), the light one one in two thousand; some are mentions, some wildcard mentions.
  for (const [u, every] of [[realm.owner, 500], [heavy, 15], [light, 2000]] as const) {
    await db.$executeRawUnsafe(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT $1, m.id,
              (CASE WHEN m.id % $2 = 0 THEN 0 ELSE ${flagBit('read')} END)
            | (CASE WHEN m.id % 97 = 0 THEN ${flagBit('mentioned')} ELSE 0 END)
            | (CASE WHEN m.id % 89 = 0 THEN ${flagBit('stream_wildcard_mentioned')} ELSE 0 END)
            | (CASE WHEN m.conversation_id IS NOT NULL THEN ${flagBit('is_private')} ELSE 0 END)
         FROM messages m WHERE m.realm_id = $3`,
      u.id, every, realm.realmId,
    );
    console.log(`  copies for user ${u.id}`);
  }
  await db.$executeRawUnsafe('ANALYZE');
  console.log(`built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { heavy: heavy.id, light: light.id };
}

async function lookUp(db: Db): Promise<Built> {
  const byEmail = (email: string) => db.user.findFirstOrThrow({ where: { email } });
  const [heavy, light] = await Promise.all([byEmail('hamlet@chat.test'), byEmail('othello@chat.test')]);
  return { heavy: heavy.id, light: light.id };
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const reuse = process.env.BENCH_DATABASE_URL;
  const database = reuse ? { url: reuse, db: createDb(reuse), drop: async () => undefined } : await createTestDatabase({ poolSize: 4 });
  const { db } = database;
  const built = reuse ? await lookUp(db) : await build(db);
  console.log(`\nunread_msgs, ${ROUNDS} rounds (${MESSAGES.toLocaleString()} messages in the table)`);
  console.log('user'.padEnd(28), 'unread'.padStart(7), 'count'.padStart(7), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8), 'max ms'.padStart(8));
  for (const [name, userId] of [['heavy (over the cap)', built.heavy], ['light (a few hundred)', built.light]] as const) {
    const times: number[] = [];
    let result: Awaited<ReturnType<typeof unreadMsgs>> | undefined;
    for (let i = 0; i < ROUNDS + 2; i++) {
      const t = performance.now();
      result = await unreadMsgs(db, userId, false);
      if (i >= 2) times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const listed = [...result!.streams, ...result!.pms, ...result!.huddles].reduce((n, c) => n + c.unread_message_ids.length, 0);
    console.log(name.padEnd(28), String(listed).padStart(7), String(result!.count).padStart(7),
      pct(times, 50).toFixed(1).padStart(8), pct(times, 95).toFixed(1).padStart(8), times[times.length - 1].toFixed(1).padStart(8));
  }
  const plan = await db.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(`EXPLAIN (ANALYZE, BUFFERS) ${UNREAD_GROUPS_SQL}`, built.heavy, MAX_UNREAD_MESSAGES);
  console.log(`\nplan for the heavy reader:\n${plan.map((r) => r['QUERY PLAN']).join('\n')}`);
  await db.$disconnect();
  if (process.env.BENCH_KEEP || reuse) console.log(`\nkept database: ${database.url}`);
  else await database.drop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
