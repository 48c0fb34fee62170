/** loadStreamFacts (@chat/wire), as listings and channel events read it: counts and each channel's newest message. */
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { loadStreamFacts } from '@chat/wire';

let env: TestEnv;
let realm: SeededRealm;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
});

afterAll(async () => {
  await env?.close();
});

it('gives each channel its newest message time, subscriber count and four weeks of traffic', async () => {
  const { db } = env;
  const realmId = realm.realmId;
  const day = 86_400_000;
  const busy = await db.stream.create({ data: { realmId, name: 'Busy', nameKey: 'busy', creatorId: realm.owner.id } });
  const quiet = await db.stream.create({ data: { realmId, name: 'Quiet', nameKey: 'quiet', creatorId: realm.owner.id } });
  await db.subscription.create({ data: { userId: realm.member.id, streamId: busy.id, color: '#fff' } });
  // One clock reading for every expected time: the checks must not cross a second the writes did not.
  const now = Date.now();
  const at = (daysAgo: number) => new Date(Math.floor((now - daysAgo * day) / 1000) * 1000);
  for (const daysAgo of [40, 3, 1]) {
    await db.message.create({
      data: { realmId, senderId: realm.member.id, recipientType: 'stream', streamId: busy.id, topic: 't', content: 'x', renderedContent: '<p>x</p>', dateSent: at(daysAgo) },
    });
  }
  const facts = await loadStreamFacts(db, [busy, quiet]);
  expect(facts.get(busy.id)).toMatchObject({ subscriberCount: 1, lastMessageAt: at(1), messagesLastFourWeeks: 2 });
  expect(facts.get(quiet.id)).toMatchObject({ subscriberCount: 0, lastMessageAt: null, messagesLastFourWeeks: 0 });
  // Inside a transaction, as channel events are built.
  expect((await db.$transaction((tx) => loadStreamFacts(tx, [busy]))).get(busy.id)?.lastMessageAt).toEqual(at(1));
});

it('takes traffic from the counts the replica keeps when given the pool, without counting again', async () => {
  const { db } = env;
  const realmId = realm.realmId;
  const kept = await db.stream.create({ data: { realmId, name: 'Kept', nameKey: 'kept', creatorId: realm.owner.id } });
  const send = () => db.message.create({
    data: { realmId, senderId: realm.member.id, recipientType: 'stream', streamId: kept.id, topic: 't', content: 'x', renderedContent: '<p>x</p>' },
  });
  await send();
  const first = await loadStreamFacts(db, [kept], undefined, db);
  expect(first.get(kept.id)?.messagesLastFourWeeks).toBe(1);
  await send();
  // Counted once per realm and replica: the second message shows at the next recount, not now.
  expect((await db.$transaction((tx) => loadStreamFacts(tx, [kept], undefined, db))).get(kept.id)?.messagesLastFourWeeks).toBe(1);
  // Without the pool, the four weeks are counted in the statement.
  expect((await loadStreamFacts(db, [kept])).get(kept.id)?.messagesLastFourWeeks).toBe(2);
});
