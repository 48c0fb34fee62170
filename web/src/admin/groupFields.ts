/** A user group's settings as forms (PATCH /user_groups/{id}) and who may change what. */
import type { UserGroup } from '@chat/client';
import type { StringKey } from '../i18n';
import type { FieldDef } from './formModel';
import { settingIncludes, type GroupSettingValue } from './groupSetting';

export const GENERAL_FIELDS: readonly FieldDef[] = [
  { name: 'name', kind: 'text', label: 'admin.groups.name' },
  { name: 'description', kind: 'textarea', label: 'admin.groups.description' },
];

const GROUP_SETTINGS = ['can_manage_group', 'can_mention_group', 'can_add_members_group', 'can_remove_members_group', 'can_join_group', 'can_leave_group'] as const;

export const GROUP_PERMISSION_FIELDS: readonly FieldDef[] = GROUP_SETTINGS.map((name) => ({ name, kind: 'group', label: `admin.groups.${name}` as StringKey, permissionKind: 'group' }));

export interface GroupRights {
  manage: boolean;
  addMembers: boolean;
  removeMembers: boolean;
}

/** What a person may do to a group: administrators and those granted can_manage_all_groups manage every group. */
export function groupRights(group: UserGroup, userId: number, isAdmin: boolean, realmManageAll: GroupSettingValue | undefined, groups: Map<number, UserGroup>): GroupRights {
  if (group.is_system_group) return { manage: false, addMembers: false, removeMembers: false };
  const has = (name: string) => settingIncludes(group[name] as GroupSettingValue | undefined, userId, groups);
  const manage = isAdmin || settingIncludes(realmManageAll, userId, groups) || has('can_manage_group');
  return { manage, addMembers: manage || has('can_add_members_group'), removeMembers: manage || has('can_remove_members_group') };
}

/** Groups that may be made subgroups of `group`: not itself, not already in it, not one that contains it (no cycles). */
export function subgroupCandidates(group: UserGroup, all: readonly UserGroup[]): UserGroup[] {
  const byId = new Map(all.map((g) => [g.id, g]));
  const containsGroup = (candidate: UserGroup, seen = new Set<number>()): boolean => {
    if (candidate.id === group.id) return true;
    if (seen.has(candidate.id)) return false;
    seen.add(candidate.id);
    return candidate.direct_subgroup_ids.some((id) => {
      const sub = byId.get(id);
      return sub ? containsGroup(sub, seen) : false;
    });
  };
  return all.filter((g) => !g.deactivated && g.name !== 'role:internet' && g.name !== 'role:nobody' && !group.direct_subgroup_ids.includes(g.id) && !containsGroup(g));
}
