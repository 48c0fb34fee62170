/**
 * Group-setting values ("who may do X"), as the family's API has them: either the id of one
 * group (a system role group such as role:administrators, or a user-defined group), or an
 * anonymous group given as {direct_members, direct_subgroups}. The picker edits a list of
 * groups and people; these helpers turn that list into the value the server expects (the
 * family's rule: nothing is "nobody", one group alone is that group's id) and back.
 */
import type { UserGroup } from '@chat/client';

export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** What the picker shows: the groups and the people the value names directly. */
export interface GroupSettingItems {
  subgroups: number[];
  members: number[];
}

export function settingItems(value: GroupSettingValue | undefined | null, nobodyId?: number): GroupSettingItems {
  if (value === undefined || value === null) return { subgroups: [], members: [] };
  if (typeof value === 'number') return value === nobodyId ? { subgroups: [], members: [] } : { subgroups: [value], members: [] };
  return { subgroups: [...value.direct_subgroups], members: [...value.direct_members] };
}

const byNumber = (a: number, b: number) => a - b;

/** The value to send for the groups and people picked. */
export function encodeSetting(items: GroupSettingItems, nobodyId: number): GroupSettingValue {
  const subgroups = [...new Set(items.subgroups)].sort(byNumber);
  const members = [...new Set(items.members)].sort(byNumber);
  if (!members.length && !subgroups.length) return nobodyId;
  if (!members.length && subgroups.length === 1) return subgroups[0]!;
  return { direct_members: members, direct_subgroups: subgroups };
}

/** Whether two values name the same groups and people (order does not matter). */
export function sameSetting(a: GroupSettingValue | undefined, b: GroupSettingValue | undefined, nobodyId = -1): boolean {
  if (a === undefined || b === undefined) return a === b;
  const x = encodeSetting(settingItems(a, nobodyId), nobodyId);
  const y = encodeSetting(settingItems(b, nobodyId), nobodyId);
  return JSON.stringify(x) === JSON.stringify(y);
}

/**
 * The parameter a PATCH takes for a group setting: the family's "update to a group-setting
 * value", {new}. The old value is left out on purpose: the server compares it as written,
 * and an equal value in another order would be refused.
 */
export function settingUpdate(value: GroupSettingValue): { new: GroupSettingValue } {
  return { new: value };
}

/** Every person in a group, through its subgroups (each group visited once). */
export function groupMembers(groupId: number, groups: Map<number, UserGroup>, seen = new Set<number>()): Set<number> {
  const out = new Set<number>();
  if (seen.has(groupId)) return out;
  seen.add(groupId);
  const group = groups.get(groupId);
  if (!group) return out;
  for (const id of group.members) out.add(id);
  for (const sub of group.direct_subgroup_ids) for (const id of groupMembers(sub, groups, seen)) out.add(id);
  return out;
}

/** Whether a person is granted what a setting grants. */
export function settingIncludes(value: GroupSettingValue | undefined, userId: number, groups: Map<number, UserGroup>): boolean {
  if (value === undefined) return false;
  const items = settingItems(value);
  if (items.members.includes(userId)) return true;
  return items.subgroups.some((id) => groupMembers(id, groups).has(userId));
}

/** The system groups, from the most to the least restrictive, as the family lists them. */
export const SYSTEM_GROUP_ORDER = ['role:nobody', 'role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet'] as const;

/** What a setting accepts, from the server's `server_supported_permission_settings`. */
export interface PermissionConfig {
  require_system_group: boolean;
  allow_internet_group: boolean;
  allow_nobody_group: boolean;
  allow_everyone_group: boolean;
  allowed_system_groups: string[];
}

/** The groups a setting may be given, system groups first in their order, then by name. */
export function allowedGroups(groups: UserGroup[], config: PermissionConfig | undefined): UserGroup[] {
  const active = groups.filter((g) => !g.deactivated);
  const system = active
    .filter((g) => g.is_system_group && (SYSTEM_GROUP_ORDER as readonly string[]).includes(g.name))
    .filter((g) => {
      if (!config) return g.name !== 'role:internet';
      if (config.allowed_system_groups.length) return config.allowed_system_groups.includes(g.name);
      if (g.name === 'role:internet') return config.allow_internet_group;
      if (g.name === 'role:nobody') return config.allow_nobody_group;
      if (g.name === 'role:everyone') return config.allow_everyone_group;
      return true;
    })
    .sort((a, b) => SYSTEM_GROUP_ORDER.indexOf(a.name as never) - SYSTEM_GROUP_ORDER.indexOf(b.name as never));
  const own = config?.require_system_group ? [] : active.filter((g) => !g.is_system_group).sort((a, b) => a.name.localeCompare(b.name));
  return [...system, ...own];
}

/** The id of a system group by its name (role:nobody and so on), or -1. */
export function systemGroupId(groups: UserGroup[], name: string): number {
  return groups.find((g) => g.is_system_group && g.name === name)?.id ?? -1;
}
