import { SYSTEM_GROUPS } from '@chat/contracts';
import { groupSettingDefaults, userGroupObject, userGroupObjects, type UserGroupRow } from '..';

const created = new Date('2024-05-01T09:30:45Z');

function group(id: number, name: string, extra: Partial<UserGroupRow> = {}): UserGroupRow {
  return {
    id, realmId: 1, name, description: '', isSystemGroup: false, deactivated: false, dateCreated: created, creatorId: null,
    members: [], subgroups: [], ...extra,
  };
}

const nobody = group(1, SYSTEM_GROUPS.nobody, { isSystemGroup: true });
const admins = group(2, SYSTEM_GROUPS.administrators, { isSystemGroup: true, members: [{ userId: 12 }, { userId: 4 }] });
const everyone = group(3, SYSTEM_GROUPS.everyone, { isSystemGroup: true, subgroups: [{ subgroupId: 9 }, { subgroupId: 2 }] });
const team = group(20, 'team', { description: 'The team', creatorId: 4, members: [{ userId: 30 }, { userId: 5 }] });

it('takes the setting defaults from the system groups in the list', () => {
  expect(groupSettingDefaults([nobody, admins, everyone, team])).toEqual({ nobody: 1, everyone: 3, administrators: 2 });
  // A user-made group that happens to carry a system name does not count.
  expect(groupSettingDefaults([group(40, SYSTEM_GROUPS.nobody)])).toEqual({ nobody: null, everyone: null, administrators: null });
});

it('sorts members and subgroups, and gives system groups no creation time', () => {
  const defaults = groupSettingDefaults([nobody, admins, everyone]);
  expect(userGroupObject(admins, defaults)).toMatchObject({ id: 2, members: [4, 12], is_system_group: true, date_created: null });
  expect(userGroupObject(everyone, defaults).direct_subgroup_ids).toEqual([2, 9]);
});

it('builds a user-made group with the organization defaults for its settings', () => {
  const [, , , out] = userGroupObjects([nobody, admins, everyone, team]);
  expect(out).toEqual({
    id: 20,
    name: 'team',
    description: 'The team',
    members: [5, 30],
    direct_subgroup_ids: [],
    is_system_group: false,
    date_created: Math.floor(created.getTime() / 1000),
    creator_id: 4,
    deactivated: false,
    can_add_members_group: 2,
    can_join_group: 1,
    can_leave_group: 3,
    can_manage_group: 2,
    can_mention_group: 3,
    can_remove_members_group: 2,
  });
});

it('lets nobody change a system group', () => {
  const out = userGroupObjects([nobody, admins, everyone])[1]!;
  for (const key of ['can_add_members_group', 'can_join_group', 'can_leave_group', 'can_manage_group', 'can_mention_group', 'can_remove_members_group'] as const) {
    expect(out[key]).toBe(1);
  }
});
