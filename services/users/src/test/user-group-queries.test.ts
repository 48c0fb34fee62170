import { ROLE } from '@chat/contracts';
import { makeUser, ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
const j = (v: unknown) => JSON.stringify(v);
let systemIds: Map<string, number>;

beforeAll(async () => {
  h = await startHarness();
  const groups = (await h.as(h.realm.member).get('/user_groups')).body.user_groups as Array<{ id: number; name: string }>;
  systemIds = new Map(groups.map((g) => [g.name, g.id]));
});
afterAll(() => h?.close());

async function createGroup(name: string, members: number[], subgroups: number[] = []): Promise<number> {
  const res = await h
    .as(h.realm.owner)
    .post('/user_groups/create')
    .send({ name, description: 'd', members: j(members), subgroups: j(subgroups) });
  expect(res.body.result).toBe('success');
  return res.body.group_id as number;
}

describe('GET /user_groups/{id}/subgroups', () => {
  it('lists direct subgroups, or every group below', async () => {
    const leaf = await createGroup('leaf', [h.realm.member.id]);
    const middle = await createGroup('middle', [], [leaf]);
    const top = await createGroup('top', [h.realm.moderator.id], [middle]);
    const all = await h.as(h.realm.member).get(`/user_groups/${top}/subgroups`);
    expect(all.body).toEqual({ result: 'success', msg: '', subgroups: [leaf, middle] });
    const direct = await h.as(h.realm.member).get(`/user_groups/${top}/subgroups?direct_subgroup_only=true`);
    expect(direct.body.subgroups).toEqual([middle]);
    expect((await h.as(h.realm.member).get(`/user_groups/${leaf}/subgroups`)).body.subgroups).toEqual([]);
  });

  it('follows the system groups nesting', async () => {
    const moderators = systemIds.get('role:moderators')!;
    const res = await h.as(h.realm.member).get(`/user_groups/${moderators}/subgroups`);
    expect(res.body.subgroups).toEqual([systemIds.get('role:administrators'), systemIds.get('role:owners')].sort((a, b) => a! - b!));
  });

  it('answers Invalid user group for an unknown id', async () => {
    const res = await h.as(h.realm.member).get('/user_groups/999999/subgroups');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid user group' });
  });

  it.each(ROLE_NAMES)('as the %s', async (name) => {
    const res = await h.as(userOf(h.realm, name)).get(`/user_groups/${systemIds.get('role:members')}/subgroups`);
    if (name === 'guest') expect(res.body.msg).toBe('Not allowed for guest users');
    else if (name === 'bot') expect(res.body.msg).toBe('This endpoint does not accept bot requests.');
    else expect(res.body.result).toBe('success');
  });
});

describe('GET /user_groups/{id}/members/{user_id}', () => {
  it('says whether a person is in the group, through subgroups unless direct_member_only', async () => {
    const inner = await createGroup('inner', [h.realm.member.id]);
    const outer = await createGroup('outer', [h.realm.moderator.id], [inner]);
    const ask = (user: number, direct = false) =>
      h.as(h.realm.admin).get(`/user_groups/${outer}/members/${user}${direct ? '?direct_member_only=true' : ''}`);
    expect((await ask(h.realm.moderator.id)).body).toEqual({ result: 'success', msg: '', is_user_group_member: true });
    expect((await ask(h.realm.member.id)).body.is_user_group_member).toBe(true);
    expect((await ask(h.realm.member.id, true)).body.is_user_group_member).toBe(false);
    expect((await ask(h.realm.admin.id)).body.is_user_group_member).toBe(false);
  });

  it('answers by role for system groups', async () => {
    const admins = systemIds.get('role:administrators')!;
    const ask = (user: number, direct = false) =>
      h.as(h.realm.member).get(`/user_groups/${admins}/members/${user}${direct ? '?direct_member_only=true' : ''}`);
    expect((await ask(h.realm.owner.id)).body.is_user_group_member).toBe(true);
    expect((await ask(h.realm.owner.id, true)).body.is_user_group_member).toBe(false);
    expect((await ask(h.realm.admin.id, true)).body.is_user_group_member).toBe(true);
    expect((await ask(h.realm.moderator.id)).body.is_user_group_member).toBe(false);
  });

  it('still answers for a deactivated group', async () => {
    const group = await createGroup('to deactivate', [h.realm.member.id]);
    expect((await h.as(h.realm.owner).post(`/user_groups/${group}/deactivate`)).body.result).toBe('success');
    expect((await h.as(h.realm.member).get(`/user_groups/${group}/members/${h.realm.member.id}`)).body.is_user_group_member).toBe(true);
  });

  it('refuses unknown groups and people the way the family does', async () => {
    const members = systemIds.get('role:members')!;
    expect((await h.as(h.realm.member).get(`/user_groups/999999/members/${h.realm.member.id}`)).body.msg).toBe('Invalid user group');
    expect((await h.as(h.realm.member).get(`/user_groups/${members}/members/999999`)).body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'No such user',
    });
    expect((await h.as(h.realm.member).get(`/user_groups/${members}/members/${h.realm.bot.id}`)).body.msg).toBe('No such user');
    const gone = await makeUser(h, ROLE.MEMBER);
    expect((await h.as(h.realm.owner).delete(`/users/${gone.id}`)).body.result).toBe('success');
    expect((await h.as(h.realm.member).get(`/user_groups/${members}/members/${gone.id}`)).body.msg).toBe('User is deactivated');
  });

  it.each(ROLE_NAMES)('as the %s', async (name) => {
    const res = await h.as(userOf(h.realm, name)).get(`/user_groups/${systemIds.get('role:members')}/members/${h.realm.member.id}`);
    if (name === 'guest') expect(res.body.msg).toBe('Not allowed for guest users');
    else if (name === 'bot') expect(res.body.msg).toBe('This endpoint does not accept bot requests.');
    else expect(res.body.is_user_group_member).toBe(true);
  });
});

describe('DELETE /user_groups/{id}', () => {
  it('deactivates the group, as the family\'s legacy removal maps onto deactivation', async () => {
    const group = await createGroup('retired', [h.realm.member.id]);
    const res = await h.as(h.realm.owner).delete(`/user_groups/${group}`);
    expect(res.body).toMatchObject({ result: 'success' });
    expect(await h.db.userGroup.findUnique({ where: { id: group } })).toMatchObject({ deactivated: true });
    expect(await h.db.userGroupMember.count({ where: { groupId: group } })).toBe(1);
  });

  it('refuses people who may not manage the group and unknown groups', async () => {
    const group = await createGroup('guarded', [h.realm.owner.id]);
    const res = await h.as(h.realm.guest).delete(`/user_groups/${group}`);
    expect(res.body.result).toBe('error');
    expect(await h.db.userGroup.findUnique({ where: { id: group } })).toMatchObject({ deactivated: false });
    expect((await h.as(h.realm.owner).delete('/user_groups/999999')).body).toMatchObject({ result: 'error', msg: 'Invalid user group' });
  });
});
