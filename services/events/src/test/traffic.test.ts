/** Channel traffic is counted once per realm and replica and recounted in the background (@chat/wire traffic.ts), as register reads it. */
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { channelTraffic } from '@chat/wire';

let env: TestEnv;
let realm: SeededRealm;
let streamId: number;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  streamId = (await env.db.stream.create({ data: { realmId: realm.realmId, name: 'Busy', nameKey: 'busy', creatorId: realm.owner.id } })).id;
});

afterAll(async () => {
  await env?.close();
});

const send = (daysAgo = 0) =>
  env.db.message.create({
    data: {
      realmId: realm.realmId, senderId: realm.member.id, recipientType: 'stream', streamId, topic: 't', content: 'x', renderedContent: '<p>x</p>',
      dateSent: new Date(Date.now() - daysAgo * 86_400_000),
    },
  });

it('counts the last four weeks at first, keeps the count, and recounts in the background once it is old', async () => {
  await send();
  await send();
  await send(40);
  expect(await channelTraffic(env.db, realm.realmId)).toEqual(new Map([[streamId, 2]]));

  await send();
  // Still the kept count: a register does not count again.
  expect((await channelTraffic(env.db, realm.realmId))?.get(streamId)).toBe(2);
  // Too old: this register still gets the kept count, and a recount starts behind it.
  expect((await channelTraffic(env.db, realm.realmId, 0))?.get(streamId)).toBe(2);
  let now = 2;
  for (let i = 0; i < 50 && now === 2; i++) {
    await new Promise((r) => setTimeout(r, 20));
    now = (await channelTraffic(env.db, realm.realmId))?.get(streamId) ?? 0;
  }
  expect(now).toBe(3);
});

it('has no figure for a realm whose first count is not in within the wait', async () => {
  const other = await seedRealm(env.db, 'slow');
  // The first count waits on a lock another transaction holds, longer than a register waits.
  await env.db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe('LOCK TABLE messages IN ACCESS EXCLUSIVE MODE');
    expect(await channelTraffic(env.db, other.realmId)).toBeNull();
  }, { timeout: 10_000 });
  let counts: Map<number, number> | null = null;
  for (let i = 0; i < 50 && counts === null; i++) {
    await new Promise((r) => setTimeout(r, 20));
    counts = await channelTraffic(env.db, other.realmId);
  }
  expect(counts).toEqual(new Map());
});
