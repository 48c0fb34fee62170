import { ROLE } from '@chat/contracts';
import { ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('user groups', () => {
  it.each(ROLE_NAMES)('GET /user_groups as the %s lists the system groups with their members', async (name) => {
    const res = await h.as(userOf(h.realm, name)).get('/user_groups');
    const byName = new Map((res.body.user_groups as Array<{ name: string; members: number[]; direct_subgroup_ids: number[] }>).map((g) => [g.name, g]));
    expect(byName.get('role:owners')!.members).toEqual([h.realm.owner.id]);
    const owners = (res.body.user_groups as Array<{ id: number; name: string }>).find((g) => g.name === 'role:owners')!.id;
    expect(byName.get('role:administrators')!.direct_subgroup_ids).toEqual([owners]);
  });

  it('resolves members through subgroups, and by role for system groups', async () => {
    const groups = (await h.as(h.realm.member).get('/user_groups')).body.user_groups as Array<{ id: number; name: string }>;
    const moderators = groups.find((g) => g.name === 'role:moderators')!.id;
    const all = await h.as(h.realm.member).get(`/user_groups/${moderators}/members`);
    expect(all.body.members).toEqual([h.realm.owner.id, h.realm.admin.id, h.realm.moderator.id]);
    const direct = await h.as(h.realm.member).get(`/user_groups/${moderators}/members?direct_member_only=true`);
    expect(direct.body.members).toEqual([h.realm.moderator.id]);
    expect((await h.as(h.realm.member).get('/user_groups/999999/members')).body.msg).toBe('Invalid user group');
  });

  it('gives every group its settings, as register does: nobody may change a system group', async () => {
    const groups = (await h.as(h.realm.member).get('/user_groups')).body.user_groups as Array<Record<string, unknown>>;
    const nobody = groups.find((g) => g.name === 'role:nobody')!.id;
    for (const g of groups.filter((x) => x.is_system_group)) {
      expect(g).toMatchObject({ can_join_group: nobody, can_manage_group: nobody, can_mention_group: nobody, date_created: null });
    }
  });

  it('follows role changes', async () => {
    await h.as(h.realm.owner).patch(`/users/${h.realm.member2.id}`).send({ role: ROLE.MODERATOR });
    const groups = (await h.as(h.realm.member).get('/user_groups')).body.user_groups as Array<{ name: string; members: number[] }>;
    expect(groups.find((g) => g.name === 'role:moderators')!.members).toEqual([h.realm.moderator.id, h.realm.member2.id]);
  });
});
