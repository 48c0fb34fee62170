/**
 * Members who become full members by waiting alone are announced: the action finds who crossed
 * the realm's waiting period between two times, by the one rule of @chat/realm, and the job on
 * the users service's queue announces the time since its last run, once.
 */
import { Queue } from 'bullmq';
import { createBlockingRedis, redisKeys } from '@chat/bus';
import { ROLE } from '@chat/contracts';
import { doAnnounceNewFullMembers } from '../actions/full-members';
import { MAIL_QUEUE } from '../workers/mail';
import { makeUser, startHarness, type Harness } from './support';

const DAY = 86_400_000;
let h: Harness;
let fullMembers = 0;

beforeAll(async () => {
  h = await startHarness();
  fullMembers = (await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:fullmembers' } })).id;
  const realm = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
  await h.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as object), waiting_period_threshold: 10 } } });
});
afterAll(() => h?.close());

const announcements = async (after: bigint) =>
  (await h.eventsSince(after)).filter((e) => e.type === 'user_group').map((e) => ({ ...e.event, to: e.users }) as Record<string, unknown> & { to: number[] | 'realm' });

/** A member whose account is `days` old at `at`. */
async function memberJoined(days: number, at: number, role: number = ROLE.MEMBER): Promise<number> {
  const user = await makeUser(h, role);
  await h.db.user.update({ where: { id: user.id }, data: { dateJoined: new Date(at - days * DAY) } });
  return user.id;
}

it('announces the members whose waiting period ended in the window, to everyone, and no one else', async () => {
  const now = Date.now();
  const crossed = await memberJoined(10.5, now); // full since half a day ago
  const earlier = await memberJoined(12, now); // full since two days ago
  const waiting = await memberJoined(9.5, now); // full in half a day
  const moderator = await memberJoined(10.5, now, ROLE.MODERATOR); // in the group through its subgroups, not directly
  const gone = await memberJoined(10.5, now);
  await h.db.user.update({ where: { id: gone }, data: { isActive: false } });
  const before = await h.lastEventId();
  expect(await doAnnounceNewFullMembers(h.db, new Date(now - DAY), new Date(now))).toBe(1);
  const [event, ...rest] = await announcements(before);
  expect(rest).toEqual([]);
  expect(event).toMatchObject({ type: 'user_group', op: 'add_members', group_id: fullMembers, user_ids: [crossed] });
  const active = await h.db.user.findMany({ where: { realmId: h.realm.realmId, isActive: true }, select: { id: true } });
  expect([...(event!.to as number[])].sort((a, b) => a - b)).toEqual(active.map((u) => u.id).sort((a, b) => a - b));
  // What the API answers agrees with what was announced.
  const listed = (await h.as(h.realm.member).get(`/user_groups/${fullMembers}/members?direct_member_only=true`)).body.members as number[];
  expect(listed).toEqual(expect.arrayContaining([crossed, earlier]));
  expect(listed).not.toEqual(expect.arrayContaining([waiting]));
  expect(listed).not.toContain(moderator);
  // The next window starts where this one ended: nobody twice.
  const after = await h.lastEventId();
  expect(await doAnnounceNewFullMembers(h.db, new Date(now), new Date(now + DAY / 4))).toBe(0);
  expect(await doAnnounceNewFullMembers(h.db, new Date(now + DAY / 4), new Date(now + DAY))).toBe(1);
  expect((await announcements(after)).map((e) => e.user_ids)).toEqual([[waiting]]);
});

it('runs as a job on the queue for the time since its last run', async () => {
  const connection = createBlockingRedis(h.env.redisUrl);
  const queue = new Queue(MAIL_QUEUE, { connection, prefix: redisKeys(h.env.prefix).bullPrefix() });
  try {
    const start = Date.now() + 5 * DAY;
    await h.env.redis.set(redisKeys(h.env.prefix).fullMembersAnnouncedUntil(), new Date(start).toISOString());
    const joined = await memberJoined(10, start + DAY / 2);
    const before = await h.lastEventId();
    await queue.add('full-members-run', { now: new Date(start + DAY).toISOString() });
    const deadline = Date.now() + 20_000;
    let seen: unknown[] = [];
    while (!seen.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      seen = (await announcements(before)).map((e) => e.user_ids);
    }
    expect(seen).toEqual([[joined]]);
    expect(await h.env.redis.get(redisKeys(h.env.prefix).fullMembersAnnouncedUntil())).toBe(new Date(start + DAY).toISOString());
  } finally {
    await queue.close();
    connection.disconnect();
  }
});
