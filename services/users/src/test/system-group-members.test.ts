/**
 * Who the API says is in each role-based system group (GET /user_groups and the members
 * endpoints): by role, and for "role:fullmembers" by role and account age against the realm's
 * waiting period, with no rows to keep, as the family answers.
 */
import { ROLE } from '@chat/contracts';
import { makeUser, startHarness, type Harness } from './support';

let h: Harness;
let sys: Record<string, number>;
beforeAll(async () => {
  h = await startHarness();
  const groups = await h.db.userGroup.findMany({ where: { realmId: h.realm.realmId, isSystemGroup: true } });
  sys = Object.fromEntries(groups.map((g) => [g.name, g.id]));
});
afterAll(() => h?.close());

const DAY = 86_400_000;

async function setWaitingPeriod(days: number) {
  const realm = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
  await h.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as object), waiting_period_threshold: days } } });
}

async function listed(): Promise<Map<string, number[]>> {
  const res = await h.as(h.realm.member).get('/user_groups');
  return new Map((res.body.user_groups as Array<{ name: string; members: number[] }>).map((g) => [g.name, g.members]));
}

const members = async (group: string, direct: boolean) =>
  (await h.as(h.realm.member).get(`/user_groups/${sys[group]}/members${direct ? '?direct_member_only=true' : ''}`)).body.members as number[];
const isMember = async (group: string, userId: number, direct: boolean) =>
  (await h.as(h.realm.member).get(`/user_groups/${sys[group]}/members/${userId}${direct ? '?direct_member_only=true' : ''}`)).body
    .is_user_group_member as boolean;

describe('role-based system groups', () => {
  let veteran: number;
  let newcomer: number;
  let departed: number;
  beforeAll(async () => {
    veteran = (await makeUser(h, ROLE.MEMBER)).id;
    newcomer = (await makeUser(h, ROLE.MEMBER)).id;
    departed = (await makeUser(h, ROLE.MEMBER)).id;
    await h.db.user.update({ where: { id: veteran }, data: { dateJoined: new Date(Date.now() - 30 * DAY) } });
    await h.db.user.update({ where: { id: newcomer }, data: { dateJoined: new Date(Date.now() - 2 * DAY) } });
    await h.db.user.update({ where: { id: departed }, data: { dateJoined: new Date(Date.now() - 30 * DAY), isActive: false } });
    await setWaitingPeriod(10);
  });

  it('lists a veteran member in role:fullmembers and a newcomer only in role:members', async () => {
    const groups = await listed();
    expect(groups.get('role:fullmembers')).toContain(veteran);
    expect(groups.get('role:fullmembers')).not.toContain(newcomer);
    expect(groups.get('role:members')).toEqual(expect.arrayContaining([veteran, newcomer]));
    // Direct members only: higher roles are in through subgroups.
    expect(groups.get('role:fullmembers')).not.toContain(h.realm.moderator.id);
    expect(groups.get('role:moderators')).toEqual([h.realm.moderator.id]);
    expect(groups.get('role:owners')).toEqual([h.realm.owner.id]);
    expect(groups.get('role:everyone')).toEqual([h.realm.guest.id]);
    expect(groups.get('role:internet')).toEqual([]);
    expect(groups.get('role:nobody')).toEqual([]);
    for (const ids of groups.values()) expect(ids).not.toContain(departed);
  });

  it('answers GET /user_groups/{id}/members the same way, directly and through subgroups', async () => {
    const direct = await members('role:fullmembers', true);
    expect(direct).toContain(veteran);
    expect(direct).not.toContain(newcomer);
    expect(direct).not.toContain(h.realm.moderator.id);
    const all = await members('role:fullmembers', false);
    expect(all).toEqual(expect.arrayContaining([veteran, h.realm.moderator.id, h.realm.admin.id, h.realm.owner.id]));
    expect(all).not.toContain(newcomer);
    expect(all).not.toContain(h.realm.guest.id);
    expect(all).not.toContain(departed);
    expect(await members('role:everyone', false)).toEqual(expect.arrayContaining([h.realm.guest.id, veteran, newcomer, h.realm.owner.id]));
  });

  it('answers GET /user_groups/{id}/members/{user_id} the same way', async () => {
    expect(await isMember('role:fullmembers', veteran, true)).toBe(true);
    expect(await isMember('role:fullmembers', newcomer, false)).toBe(false);
    expect(await isMember('role:fullmembers', h.realm.moderator.id, true)).toBe(false);
    expect(await isMember('role:fullmembers', h.realm.moderator.id, false)).toBe(true);
    expect(await isMember('role:members', h.realm.guest.id, false)).toBe(false);
    expect(await isMember('role:everyone', h.realm.guest.id, true)).toBe(true);
  });

  it('follows the waiting period as it changes, with nothing written to the groups', async () => {
    await setWaitingPeriod(0);
    expect(await members('role:fullmembers', true)).toContain(newcomer);
    expect(await isMember('role:fullmembers', newcomer, true)).toBe(true);
    await setWaitingPeriod(10);
    expect(await isMember('role:fullmembers', newcomer, true)).toBe(false);
  });

  it('announces who a change of the waiting period makes or unmakes a full member', async () => {
    const owner = h.as(h.realm.owner);
    let before = await h.lastEventId();
    expect((await owner.patch('/realm').send({ waiting_period_threshold: '0' })).body.result).toBe('success');
    const groupEvents = async () => (await h.eventsSince(before)).filter((e) => e.type === 'user_group').map((e) => e.event);
    // The seeded members joined moments ago, so they move with the newcomer; the veteran stays.
    const moved = [h.realm.member.id, h.realm.member2.id, h.realm.bot.id, newcomer].sort((a, b) => a - b);
    expect(await groupEvents()).toEqual([{ type: 'user_group', op: 'add_members', group_id: sys['role:fullmembers'], user_ids: moved }]);
    before = await h.lastEventId();
    expect((await owner.patch('/realm').send({ waiting_period_threshold: '10' })).body.result).toBe('success');
    expect(await groupEvents()).toEqual([{ type: 'user_group', op: 'remove_members', group_id: sys['role:fullmembers'], user_ids: moved }]);
  });

  it('announces a new member past the waiting period in both groups', async () => {
    await setWaitingPeriod(0);
    const before = await h.lastEventId();
    const fresh = await makeUser(h, ROLE.MEMBER);
    const added = (await h.eventsSince(before)).filter((e) => e.type === 'user_group').map((e) => [e.event.op, e.event.group_id, e.event.user_ids]);
    expect(added).toEqual([
      ['add_members', sys['role:members'], [fresh.id]],
      ['add_members', sys['role:fullmembers'], [fresh.id]],
    ]);
    await setWaitingPeriod(10);
  });
});
