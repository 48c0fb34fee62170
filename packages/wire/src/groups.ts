/** User groups as GET /user_groups, user_group events and register's realm_user_groups give them. */
import type { UserGroup } from '@chat/db';
import { SYSTEM_GROUPS } from '@chat/contracts';
import { unixSeconds } from './time';

/** A group row with its direct members and direct subgroups. */
export type UserGroupRow = UserGroup & { members: Array<{ userId: number }>; subgroups: Array<{ subgroupId: number }> };

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

/**
 * One group. Its own settings (who may join, manage or mention it) are not stored: they hold the
 * organization's defaults, and system groups cannot be changed by anyone.
 */
export function userGroupObject(g: UserGroupRow, defaults: GroupSettingDefaults) {
  const { nobody, everyone, administrators } = defaults;
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
    can_add_members_group: g.isSystemGroup ? nobody : administrators,
    can_join_group: nobody,
    can_leave_group: g.isSystemGroup ? nobody : everyone,
    can_manage_group: g.isSystemGroup ? nobody : administrators,
    can_mention_group: g.isSystemGroup ? nobody : everyone,
    can_remove_members_group: g.isSystemGroup ? nobody : administrators,
  };
}

/** Every group of a list, with the defaults taken from the system groups in that list. */
export function userGroupObjects(groups: UserGroupRow[]) {
  const defaults = groupSettingDefaults(groups);
  return groups.map((g) => userGroupObject(g, defaults));
}
