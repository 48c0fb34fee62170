/** User groups as GET /user_groups, user_group events and register's realm_user_groups give them. */
import type { UserGroup } from '@chat/db';
import { SYSTEM_GROUPS } from '@chat/contracts';
import { unixSeconds } from './time';

/** A group row with its direct members and direct subgroups. */
type SettingColumn = 'canAddMembersGroup' | 'canJoinGroup' | 'canLeaveGroup' | 'canManageGroup' | 'canMentionGroup' | 'canRemoveMembersGroup';
export type UserGroupRow = Omit<UserGroup, SettingColumn> & Partial<Pick<UserGroup, SettingColumn>> & { members: Array<{ userId: number }>; subgroups: Array<{ subgroupId: number }> };

/** Ids of the system groups that the groups' own settings default to. */
export interface GroupSettingDefaults {
  nobody: number | null;
  everyone: number | null;
  administrators: number | null;
}

/** The defaults, from a list of a realm's groups that holds its system groups. */
export function groupSettingDefaults(groups: Array<Pick<UserGroup, 'id' | 'name' | 'isSystemGroup'>>): GroupSettingDefaults {
  const byName = new Map(groups.filter((g) => g.isSystemGroup).map((g) => [g.name, g.id]));
  return {
    nobody: byName.get(SYSTEM_GROUPS.nobody) ?? null,
    everyone: byName.get(SYSTEM_GROUPS.everyone) ?? null,
    administrators: byName.get(SYSTEM_GROUPS.administrators) ?? null,
  };
}

/** The settings a group has of its own, by API name and column. */
export const USER_GROUP_SETTINGS = {
  can_add_members_group: 'canAddMembersGroup',
  can_join_group: 'canJoinGroup',
  can_leave_group: 'canLeaveGroup',
  can_manage_group: 'canManageGroup',
  can_mention_group: 'canMentionGroup',
  can_remove_members_group: 'canRemoveMembersGroup',
} as const;

export type UserGroupSettingName = keyof typeof USER_GROUP_SETTINGS;

/**
 * One group. A stored setting is given as saved; an unset one (system groups, and groups made
 * before groups had settings of their own) reads as the fallback below: nobody for system
 * groups, which cannot be changed by anyone.
 */
export function userGroupObject(g: UserGroupRow, defaults: GroupSettingDefaults) {
  const { nobody, everyone, administrators } = defaults;
  const fallback: Record<UserGroupSettingName, number | null> = {
    can_add_members_group: g.isSystemGroup ? nobody : administrators,
    can_join_group: nobody,
    can_leave_group: g.isSystemGroup ? nobody : everyone,
    can_manage_group: g.isSystemGroup ? nobody : administrators,
    can_mention_group: g.isSystemGroup ? nobody : everyone,
    can_remove_members_group: g.isSystemGroup ? nobody : administrators,
  };
  const setting = (name: UserGroupSettingName) => {
    const stored = g[USER_GROUP_SETTINGS[name]];
    return stored === null || stored === undefined ? fallback[name] : (stored as number | { direct_members: number[]; direct_subgroups: number[] });
  };
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    members: g.members.map((m) => m.userId).sort((a, b) => a - b),
    direct_subgroup_ids: g.subgroups.map((s) => s.subgroupId).sort((a, b) => a - b),
    is_system_group: g.isSystemGroup,
    date_created: g.isSystemGroup ? null : unixSeconds(g.dateCreated),
    creator_id: g.creatorId,
    deactivated: g.deactivated,
    can_add_members_group: setting('can_add_members_group'),
    can_join_group: setting('can_join_group'),
    can_leave_group: setting('can_leave_group'),
    can_manage_group: setting('can_manage_group'),
    can_mention_group: setting('can_mention_group'),
    can_remove_members_group: setting('can_remove_members_group'),
  };
}

/** Every group of a list, with the defaults taken from the system groups in that list. */
export function userGroupObjects(groups: UserGroupRow[]) {
  const defaults = groupSettingDefaults(groups);
  return groups.map((g) => userGroupObject(g, defaults));
}
