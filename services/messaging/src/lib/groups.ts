/**
 * Group-setting values ("who may do X") as channels store them: a user group id, or an
 * anonymous group {direct_members, direct_subgroups}. Who is in one, and which values a setting
 * accepts, is decided by @chat/realm (isInGroupSetting, hasGroupPermission,
 * checkGroupSettingValue), the one rule every service applies.
 */
import type { Tx } from '@chat/db';
import { isGroupSettingValue, systemGroupIds, type GroupSettingValue } from '@chat/realm';

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
