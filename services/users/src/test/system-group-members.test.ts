/**
 * Who the API says is in each role-based system group (GET /user_groups and the members
 * endpoints): by role, and for "role:fullmembers" by role and account age against the realm's
 * waiting period, with no rows to keep; and the one checker of a group-setting value, as the
 * family answers for realm and user group settings (deactivated groups and users, settings
 * limited to some system groups).
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

const j = (v: unknown) => JSON.stringify(v);
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

describe('one checker of a group-setting value', () => {
  let gone = 0;
  let team = 0;
  let leaver = 0;
  beforeAll(async () => {
    gone = (await h.db.userGroup.create({ data: { realmId: h.realm.realmId, name: 'gone', deactivated: true } })).id;
    team = (await h.db.userGroup.create({ data: { realmId: h.realm.realmId, name: 'team' } })).id;
    leaver = (await makeUser(h, ROLE.MEMBER)).id;
    await h.db.user.update({ where: { id: leaver }, data: { isActive: false } });
  });

  const realmMsg = async (setting: string, value: unknown) =>
    (await h.as(h.realm.owner).patch('/realm').send({ [setting]: j({ new: value }) })).body.msg as string | undefined;
  const groupMsg = async (setting: string, value: unknown) =>
    (await h.as(h.realm.member).post('/user_groups/create').send({ name: `g${Math.random()}`, description: '', members: '[]', [setting]: j(value) })).body
      .msg as string | undefined;

  it.each([
    ['a deactivated group', () => gone, 'User group is deactivated.'],
    ['an anonymous group with a deactivated subgroup', () => ({ direct_members: [h.realm.member.id], direct_subgroups: [gone] }), 'User group is deactivated.'],
    ['a deactivated user', () => ({ direct_members: [leaver], direct_subgroups: [] }), `Invalid user ID: LEAVER`],
    ['an unknown group', () => 999999, 'Invalid user group'],
    ['an unknown subgroup', () => ({ direct_members: [h.realm.member.id], direct_subgroups: [999999] }), 'Invalid user group ID: 999999'],
  ])('refuses %s alike for realm and user group settings', async (_what, value, msg) => {
    const expected = msg.replace('LEAVER', String(leaver));
    expect(await realmMsg('can_add_custom_emoji_group', value())).toBe(expected);
    expect(await groupMsg('can_mention_group', value())).toBe(expected);
  });

  it('limits realm settings as the family does', async () => {
    expect(await realmMsg('can_access_all_users_group', team)).toBe("'can_access_all_users_group' must be a system user group.");
    expect(await realmMsg('can_access_all_users_group', { direct_members: [h.realm.member.id], direct_subgroups: [] })).toBe(
      "'can_access_all_users_group' must be a system user group.",
    );
    expect(await realmMsg('can_access_all_users_group', sys['role:moderators'])).toBe(
      "'can_access_all_users_group' setting cannot be set to 'role:moderators' group.",
    );
    expect(await realmMsg('can_manage_all_groups', sys['role:nobody'])).toBe("'can_manage_all_groups' setting cannot be set to 'role:nobody' group.");
    expect(await realmMsg('can_invite_users_group', sys['role:everyone'])).toBe("'can_invite_users_group' setting cannot be set to 'role:everyone' group.");
    expect(await realmMsg('can_resolve_topics_group', sys['role:internet'])).toBe("'can_resolve_topics_group' setting cannot be set to 'role:internet' group.");
    expect(await realmMsg('can_create_web_public_channel_group', sys['role:members'])).toBe(
      "'can_create_web_public_channel_group' setting cannot be set to 'role:members' group.",
    );
    expect(await realmMsg('can_resolve_topics_group', sys['role:everyone'])).toBe('');
  });

  it('limits user group settings as the family does', async () => {
    expect(await groupMsg('can_join_group', sys['role:everyone'])).toBe("'can_join_group' setting cannot be set to 'role:everyone' group.");
    expect(await groupMsg('can_add_members_group', sys['role:internet'])).toBe("'can_add_members_group' setting cannot be set to 'role:internet' group.");
    expect(await groupMsg('can_leave_group', sys['role:everyone'])).toBe('');
  });

  it('stores an anonymous realm setting sorted and an anonymous group of one group as that group', async () => {
    const { member, member2 } = h.realm;
    expect(await realmMsg('can_add_custom_emoji_group', { direct_members: [member2.id, member.id], direct_subgroups: [] })).toBe('');
    const stored = async () => ((await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } })).settings as Record<string, unknown>).can_add_custom_emoji_group;
    expect(await stored()).toEqual({ direct_members: [member.id, member2.id].sort((a, b) => a - b), direct_subgroups: [] });
    expect(await realmMsg('can_add_custom_emoji_group', { direct_members: [], direct_subgroups: [team] })).toBe('');
    expect(await stored()).toBe(team);
  });
});
