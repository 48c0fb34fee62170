/**
 * Narrowed GET /messages on a table of a million messages: builds the table in a throwaway
 * database with set-based SQL, starts the real messaging service on it, and prints the latency
 * of fetching 1000 messages for each kind of narrow clients use.
 *
 *   node --import tsx bench/messages-narrow.ts
 *   BENCH_MESSAGES=200000 BENCH_ROUNDS=10 node --import tsx bench/messages-narrow.ts
 *
 * BENCH_KEEP=1 keeps the database (its URL is printed) for EXPLAIN sessions, and
 * BENCH_DATABASE_URL=<that url> measures again on it without rebuilding.
 */
import { performance } from 'node:perf_hooks';
import { createDb } from '@chat/db';
import { createTestDatabase } from '@chat/db/testing';
import { flagBit } from '@chat/contracts';
import { identityHeaders, seedRealm, TEST_INTERNAL_SECRET } from '@chat/testing';
import { start } from '../src/app';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const STREAMS = 50;
const TOPICS_PER_STREAM = 40;

const WORDS = ['castle', 'ghost', 'garden', 'poison', 'sword', 'king', 'queen', 'letter', 'ship', 'storm', 'night', 'crown', 'play', 'skull', 'grave', 'court'];

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface Built {
  realmId: number;
  viewer: { id: number; email: string; role: number; isBot: boolean; apiKey: string; fullName: string };
  ownerId: number;
  member2Id: number;
  streamIds: number[];
}

async function build(db: ReturnType<typeof createDb>): Promise<Built> {
  const t0 = performance.now();
  const realm = await seedRealm(db);
  const users = [realm.owner, realm.admin, realm.moderator, realm.member, realm.member2, realm.guest];
  const viewer = realm.member;

  // Channels, all public; the viewer and the owner subscribe to every channel, the others to some.
  await db.$executeRawUnsafe(
    `INSERT INTO streams (realm_id, name, name_key, creator_id)
     SELECT $1, 'channel ' || g, 'channel ' || g, $2 FROM generate_series(1, $3) g`,
    realm.realmId,
    realm.owner.id,
    STREAMS,
  );
  const streams = await db.stream.findMany({ where: { realmId: realm.realmId }, orderBy: { id: 'asc' } });
  for (const s of streams) {
    await db.subscription.createMany({ data: [viewer, realm.owner, realm.member2].map((u) => ({ userId: u.id, streamId: s.id })) });
  }
  const conv = await db.directConversation.create({
    data: { realmId: realm.realmId, memberKey: [viewer.id, realm.member2.id].sort((a, b) => a - b).join(','), memberIds: [viewer.id, realm.member2.id].sort((a, b) => a - b) },
  });

  // One message in 20 is a direct message between the viewer and member2; the rest spread over
  // channels and topics, from every user, with a few words for search.
  console.log(`building ${MESSAGES.toLocaleString()} messages...`);
  const words = `ARRAY[${WORDS.map((w) => `'${w}'`).join(',')}]`;
  const BATCH = 100_000;
  for (let from = 1; from <= MESSAGES; from += BATCH) {
    const to = Math.min(MESSAGES, from + BATCH - 1);
    await db.$executeRawUnsafe(
      `INSERT INTO messages (realm_id, sender_id, recipient_type, stream_id, conversation_id, topic, content, rendered_content, date_sent)
       SELECT $1,
              ($2::int[])[1 + g % $3],
              CASE WHEN g % 20 = 0 THEN 'private' ELSE 'stream' END,
              CASE WHEN g % 20 = 0 THEN NULL ELSE ($4::int[])[1 + (g / 7) % $5] END,
              CASE WHEN g % 20 = 0 THEN $6::int ELSE NULL END,
              CASE WHEN g % 20 = 0 THEN '' ELSE 'topic ' || (g % ${TOPICS_PER_STREAM}) END,
              w1 || ' the ' || w2 || ' message ' || g,
              '<p>' || w1 || ' the ' || w2 || ' message ' || g || '</p>',
              now() - make_interval(secs => ($7::int - g))
         FROM generate_series($8::int, $9::int) g,
              LATERAL (SELECT (${words})[1 + (g * 7) % ${WORDS.length}] AS w1, (${words})[1 + (g / ${WORDS.length}) % ${WORDS.length}] AS w2) w`,
      realm.realmId,
      users.map((u) => u.id),
      users.length,
      streams.map((s) => s.id),
      STREAMS,
      conv.id,
      MESSAGES,
      from,
      to,
    );
    process.stdout.write(`  messages ${to.toLocaleString()}\r`);
  }
  console.log('');
  // Copies: the viewer, owner and member2 receive everything in channels (they subscribe to all);
  // direct messages go to their two participants. Mostly read, some unread, a few starred.
  for (const u of [viewer, realm.owner, realm.member2]) {
    await db.$executeRawUnsafe(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT $1, m.id,
              (CASE WHEN m.id % 50 = 0 THEN 0 ELSE ${flagBit('read')} END)
            | (CASE WHEN m.id % 500 = 0 THEN ${flagBit('starred')} ELSE 0 END)
            | (CASE WHEN m.conversation_id IS NOT NULL THEN ${flagBit('is_private')} ELSE 0 END)
         FROM messages m
        WHERE m.realm_id = $2 AND (m.stream_id IS NOT NULL OR $1 = ANY($3::int[]))`,
      u.id,
      realm.realmId,
      [viewer.id, realm.member2.id],
    );
    console.log(`  copies for user ${u.id}`);
  }
  await db.$executeRawUnsafe('ANALYZE');
  console.log(`built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { realmId: realm.realmId, viewer, ownerId: realm.owner.id, member2Id: realm.member2.id, streamIds: streams.map((s) => s.id) };
}

/** The facts of a database built earlier (BENCH_DATABASE_URL). */
async function lookUp(db: ReturnType<typeof createDb>): Promise<Built> {
  const realm = await db.realm.findFirstOrThrow({ orderBy: { id: 'asc' } });
  const byEmail = (email: string) => db.user.findFirstOrThrow({ where: { realmId: realm.id, email } });
  const [viewer, owner, member2] = await Promise.all([byEmail('hamlet@chat.test'), byEmail('desdemona@chat.test'), byEmail('othello@chat.test')]);
  const streams = await db.stream.findMany({ where: { realmId: realm.id }, orderBy: { id: 'asc' } });
  return { realmId: realm.id, viewer, ownerId: owner.id, member2Id: member2.id, streamIds: streams.map((s) => s.id) };
}

async function main() {
  const reuse = process.env.BENCH_DATABASE_URL;
  const database = reuse ? { url: reuse, db: createDb(reuse), drop: async () => undefined } : await createTestDatabase({ poolSize: 10 });
  const { db } = database;
  const built = reuse ? await lookUp(db) : await build(db);
  const { realmId, viewer } = built;
  const realm = { realmId, owner: { id: built.ownerId }, member2: { id: built.member2Id } };

  const service = await start({ DATABASE_URL: database.url, INTERNAL_SECRET: TEST_INTERNAL_SECRET, LOG_LEVEL: 'silent', PORT: '0' });
  const stream = { id: built.streamIds[7] };
  const narrows: Array<[string, unknown[], string?]> = [
    ['own history (no narrow)', []],
    ['channel', [['channel', stream.id]]],
    ['channel + topic', [['channel', stream.id], ['topic', 'topic 5']]],
    ['sender', [['sender', realm.owner.id]]],
    ['dm', [['dm', [realm.member2.id]]]],
    ['is:dm', [['is', 'dm']]],
    ['is:unread', [['is', 'unread']]],
    ['is:starred', [['is', 'starred']]],
    ['channels:public', [['channels', 'public']]],
    ['search', [['search', 'ghost castle']]],
    ['channel + search', [['channel', stream.id], ['search', 'storm']]],
    ['first_unread in channel', [['channel', stream.id]], 'first_unread'],
  ];
  console.log(`\nGET /messages, 1000 messages per request, ${ROUNDS} rounds (${MESSAGES.toLocaleString()} messages in the table)`);
  console.log('narrow'.padEnd(26), 'returned'.padStart(8), 'p50 ms'.padStart(9), 'p95 ms'.padStart(9), 'max ms'.padStart(9));
  for (const [name, narrow, anchor] of narrows) {
    const times: number[] = [];
    let returned = 0;
    for (let i = 0; i < ROUNDS + 2; i++) {
      const url = new URL(`${service.url}/api/v1/messages`);
      url.searchParams.set('anchor', anchor ?? 'newest');
      url.searchParams.set('num_before', anchor ? '500' : '1000');
      url.searchParams.set('num_after', anchor ? '500' : '0');
      url.searchParams.set('narrow', JSON.stringify(narrow));
      const t = performance.now();
      const res = await fetch(url, { headers: identityHeaders(realm.realmId, viewer) });
      const body = (await res.json()) as { result: string; msg: string; messages: unknown[] };
      const ms = performance.now() - t;
      if (body.result !== 'success') throw new Error(`${name}: ${body.msg}`);
      returned = body.messages.length;
      if (i >= 2) times.push(ms); // the first two warm caches and connections
    }
    times.sort((a, b) => a - b);
    console.log(name.padEnd(26), String(returned).padStart(8), pct(times, 50).toFixed(1).padStart(9), pct(times, 95).toFixed(1).padStart(9), times[times.length - 1].toFixed(1).padStart(9));
  }
  await service.stop();
  await db.$disconnect();
  if (process.env.BENCH_KEEP || reuse) console.log(`\nkept database: ${database.url}`);
  else await database.drop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
