/**
 * Group-setting values ("who may do X"): a user group id, or an anonymous group
 * {direct_members, direct_subgroups}. Membership follows subgroups transitively, which is how
 * the system role groups contain the roles above them.
 */
import type { Tx } from '@chat/db';
import { errors } from '@chat/contracts';
import { REALM_GROUP_SETTING_DEFAULTS, SYSTEM_GROUPS } from '@chat/realm';

export type { GroupSettingValue } from '@chat/realm';
import type { GroupSettingValue } from '@chat/realm';

export function isGroupSettingValue(v: unknown): v is GroupSettingValue {
  if (typeof v === 'number') return Number.isSafeInteger(v);
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  const ints = (a: unknown) => Array.isArray(a) && a.every((x) => Number.isSafeInteger(x));
  return ints(o.direct_members) && ints(o.direct_subgroups);
}

export async function systemGroupId(tx: Tx, realmId: number, name: string): Promise<number> {
  const g = await tx.userGroup.findFirst({ where: { realmId, name, isSystemGroup: true }, select: { id: true } });
  if (!g) throw new Error(`realm ${realmId} has no system group ${name}`);
  return g.id;
}

/** Ids of every active user the setting covers. */
export async function groupSettingMembers(tx: Tx, value: GroupSettingValue): Promise<Set<number>> {
  const groups = typeof value === 'number' ? [value] : value.direct_subgroups;
  const direct = typeof value === 'number' ? [] : value.direct_members;
  const rows = groups.length
    ? await tx.$queryRawUnsafe<Array<{ user_id: number }>>(
        `WITH RECURSIVE g(id) AS (
           SELECT id FROM user_groups WHERE id = ANY($1::int[]) AND NOT deactivated
           UNION
           SELECT s.subgroup_id FROM user_group_subgroups s JOIN g ON s.supergroup_id = g.id
         )
         SELECT DISTINCT m.user_id FROM user_group_members m JOIN g ON m.group_id = g.id
         JOIN users u ON u.id = m.user_id WHERE u.is_active`,
        groups,
      )
    : [];
  const ids = new Set(rows.map((r) => r.user_id));
  if (direct.length) {
    const active = await tx.user.findMany({ where: { id: { in: direct }, isActive: true }, select: { id: true } });
    active.forEach((u) => ids.add(u.id));
  }
  return ids;
}

export async function userInGroupSetting(tx: Tx, userId: number, value: GroupSettingValue): Promise<boolean> {
  return (await groupSettingMembers(tx, value)).has(userId);
}

/** A stored setting, or the named system group when none is stored. */
export async function settingOrDefault(tx: Tx, realmId: number, stored: unknown, fallback: string): Promise<GroupSettingValue> {
  if (isGroupSettingValue(stored)) return stored;
  return systemGroupId(tx, realmId, fallback);
}

export { SYSTEM_GROUPS };

/** Whether the user belongs to a realm-level group setting (defaults from @chat/realm). */
export async function hasRealmPermission(tx: Tx, realmId: number, userId: number, key: string): Promise<boolean> {
  const realm = await tx.realm.findUniqueOrThrow({ where: { id: realmId }, select: { settings: true } });
  const stored = (realm.settings as Record<string, unknown> | null)?.[key];
  const fallback = REALM_GROUP_SETTING_DEFAULTS[key];
  if (!fallback && !isGroupSettingValue(stored)) throw new Error(`unknown realm group setting ${key}`);
  return userInGroupSetting(tx, userId, await settingOrDefault(tx, realmId, stored, fallback));
}

/**
 * Checks a group-setting value a client sent: groups must exist in the realm (system groups
 * are the only named groups allowed where `systemOnly`), users must be active members of it.
 */
export async function checkGroupSettingValue(tx: Tx, realmId: number, value: unknown, name: string): Promise<GroupSettingValue> {
  if (!isGroupSettingValue(value)) throw errors.badRequest(`Invalid ${name}`);
  const groupIds = typeof value === 'number' ? [value] : value.direct_subgroups;
  const userIds = typeof value === 'number' ? [] : value.direct_members;
  const groups = await tx.userGroup.count({ where: { id: { in: groupIds }, realmId } });
  if (groups !== new Set(groupIds).size) throw errors.badRequest('Invalid user group ID');
  const users = await tx.user.count({ where: { id: { in: userIds }, realmId } });
  if (users !== new Set(userIds).size) throw errors.badRequest('Invalid user ID');
  // A group of exactly one system group is stored as that group's id, as clients send it back.
  if (typeof value !== 'number' && value.direct_members.length === 0 && value.direct_subgroups.length === 1) {
    return value.direct_subgroups[0];
  }
  return value;
}
