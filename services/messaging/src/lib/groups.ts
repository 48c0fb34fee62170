/**
 * Group-setting values ("who may do X") as channels store them: a user group id, or an
 * anonymous group {direct_members, direct_subgroups}. Who is in one is decided by @chat/realm
 * (isInGroupSetting, hasRealmPermission), the one rule every service applies.
 */
import type { Tx } from '@chat/db';
import { errors } from '@chat/contracts';
import { systemGroupIds, type GroupSettingValue } from '@chat/realm';

export function isGroupSettingValue(v: unknown): v is GroupSettingValue {
  if (typeof v === 'number') return Number.isSafeInteger(v);
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  const ints = (a: unknown) => Array.isArray(a) && a.every((x) => Number.isSafeInteger(x));
  return ints(o.direct_members) && ints(o.direct_subgroups);
}

export async function systemGroupId(tx: Tx, realmId: number, name: string): Promise<number> {
  const id = (await systemGroupIds(tx, realmId)).get(name);
  if (id === undefined) throw new Error(`realm ${realmId} has no system group ${name}`);
  return id;
}

/** A stored setting, or the named system group when none is stored. */
export async function settingOrDefault(tx: Tx, realmId: number, stored: unknown, fallback: string): Promise<GroupSettingValue> {
  if (isGroupSettingValue(stored)) return stored;
  return systemGroupId(tx, realmId, fallback);
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
