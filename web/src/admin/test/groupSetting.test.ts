import { allowedGroups, encodeSetting, groupMembers, sameSetting, settingIncludes, settingItems, settingUpdate, systemGroupId } from '../groupSetting';

const NOBODY = 1;
const group = (id: number, name: string, members: number[] = [], subs: number[] = [], system = false) => ({ id, name, description: '', members, direct_subgroup_ids: subs, is_system_group: system });
const groups = [
  group(1, 'role:nobody', [], [], true),
  group(2, 'role:owners', [10], [], true),
  group(3, 'role:administrators', [11], [2], true),
  group(4, 'role:members', [12, 13], [3], true),
  group(5, 'role:everyone', [14], [4], true),
  group(6, 'role:internet', [], [5], true),
  group(20, 'design', [12]),
  group(21, 'all-design', [13], [20]),
];
const byId = new Map(groups.map((g) => [g.id, g]));

describe('group setting values', () => {
  test('nothing picked is the nobody group', () => {
    expect(encodeSetting({ subgroups: [], members: [] }, NOBODY)).toBe(NOBODY);
  });

  test('one group alone is its id', () => {
    expect(encodeSetting({ subgroups: [3], members: [] }, NOBODY)).toBe(3);
  });

  test('people, or several groups, make an anonymous group, sorted and without repeats', () => {
    expect(encodeSetting({ subgroups: [20, 3, 20], members: [13, 12] }, NOBODY)).toEqual({ direct_members: [12, 13], direct_subgroups: [3, 20] });
    expect(encodeSetting({ subgroups: [], members: [12] }, NOBODY)).toEqual({ direct_members: [12], direct_subgroups: [] });
  });

  test('the picker shows a value back as groups and people; nobody shows as empty', () => {
    expect(settingItems(3, NOBODY)).toEqual({ subgroups: [3], members: [] });
    expect(settingItems(NOBODY, NOBODY)).toEqual({ subgroups: [], members: [] });
    expect(settingItems({ direct_members: [12], direct_subgroups: [20] }, NOBODY)).toEqual({ subgroups: [20], members: [12] });
    expect(settingItems(undefined)).toEqual({ subgroups: [], members: [] });
  });

  test('values naming the same groups and people in another order are the same', () => {
    expect(sameSetting({ direct_members: [13, 12], direct_subgroups: [] }, { direct_members: [12, 13], direct_subgroups: [] })).toBe(true);
    expect(sameSetting({ direct_members: [], direct_subgroups: [3] }, 3)).toBe(true);
    expect(sameSetting(3, 4)).toBe(false);
  });

  test('an update is sent as {new}', () => {
    expect(settingUpdate(3)).toEqual({ new: 3 });
    expect(JSON.stringify(settingUpdate({ direct_members: [1], direct_subgroups: [] }))).toBe('{"new":{"direct_members":[1],"direct_subgroups":[]}}');
  });

  test('membership goes through subgroups, and cycles end', () => {
    expect([...groupMembers(4, byId)].sort()).toEqual([10, 11, 12, 13]);
    const cyclic = new Map([
      [1, group(1, 'a', [1], [2])],
      [2, group(2, 'b', [2], [1])],
    ]);
    expect([...groupMembers(1, cyclic)].sort()).toEqual([1, 2]);
  });

  test('whether a person is granted a setting', () => {
    expect(settingIncludes(3, 10, byId)).toBe(true);
    expect(settingIncludes(3, 12, byId)).toBe(false);
    expect(settingIncludes({ direct_members: [14], direct_subgroups: [21] }, 12, byId)).toBe(true);
    expect(settingIncludes({ direct_members: [14], direct_subgroups: [] }, 14, byId)).toBe(true);
    expect(settingIncludes(undefined, 10, byId)).toBe(false);
  });

  test('the groups offered follow what the setting accepts', () => {
    const base = { require_system_group: false, allow_internet_group: false, allow_nobody_group: true, allow_everyone_group: false, allowed_system_groups: [] };
    expect(allowedGroups(groups, base).map((g) => g.name)).toEqual(['role:nobody', 'role:owners', 'role:administrators', 'role:members', 'all-design', 'design']);
    expect(allowedGroups(groups, { ...base, require_system_group: true, allowed_system_groups: ['role:everyone', 'role:members'] }).map((g) => g.name)).toEqual(['role:members', 'role:everyone']);
    expect(allowedGroups(groups, undefined).map((g) => g.name)).not.toContain('role:internet');
    expect(allowedGroups([...groups, { ...group(30, 'old'), deactivated: true }], base).map((g) => g.name)).not.toContain('old');
  });

  test('system groups are found by name', () => {
    expect(systemGroupId(groups, 'role:nobody')).toBe(1);
    expect(systemGroupId(groups, 'design')).toBe(-1);
  });
});
