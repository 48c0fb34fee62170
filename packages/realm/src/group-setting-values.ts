/**
 * Group-setting values as clients send them: checked, normalised and compared the way the
 * family's server does (zerver/lib/user_groups.py), and who holds a permission given by one.
 * Membership itself is group-membership.ts's rule.
 */
import { errors, isGuest, SYSTEM_GROUPS } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { isInGroupSetting, systemGroupIds, type MemberRef } from './group-membership';
import type { GroupSettingValue } from './realm-settings';

type Reader = Db | Tx;

/** What a setting accepts beyond the rules every setting shares (never "role:internet"). */
export interface GroupPermissionConfig {
  /** False: the setting may not be "role:everyone", and guests never hold it. */
  allowEveryoneGroup: boolean;
}

/** A change as clients send it: the new value, and optionally the value they believe is current. */
export interface GroupSettingChange {
  new: unknown;
  old?: unknown;
}

const intList = (a: unknown): a is number[] => Array.isArray(a) && a.every((x) => Number.isSafeInteger(x));

export function isGroupSettingValue(v: unknown): v is GroupSettingValue {
  if (typeof v === 'number') return Number.isSafeInteger(v);
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return intList(o.direct_members) && intList(o.direct_subgroups);
}

/**
 * The value as it is stored and sent back: an anonymous group of one subgroup and no members is
 * that group, and an empty one is "nobody", so that equal permissions compare equal.
 */
export async function normalizeGroupSettingValue(db: Reader, realmId: number, value: GroupSettingValue): Promise<GroupSettingValue> {
  if (typeof value === 'number' || value.direct_members.length > 0) return value;
  if (value.direct_subgroups.length === 1) return value.direct_subgroups[0]!;
  if (value.direct_subgroups.length === 0) {
    const nobody = (await systemGroupIds(db, realmId)).get(SYSTEM_GROUPS.nobody);
    if (nobody !== undefined) return nobody;
  }
  return value;
}

/** Same permission: ids compared as sets, so an `old` may list them in any order. */
export function sameGroupSettingValue(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const same = (x: number[], y: number[]) => {
    const xs = new Set(x);
    const ys = new Set(y);
    return xs.size === ys.size && [...xs].every((id) => ys.has(id));
  };
  return same(a.direct_members, b.direct_members) && same(a.direct_subgroups, b.direct_subgroups);
}

/**
 * Checks a value a client sent for the setting `name` and gives it as stored: a group of the
 * realm (not deactivated, not "role:internet", "role:everyone" only where allowed), or active
 * users of the realm plus its groups as subgroups. Errors are the family's.
 */
export async function checkGroupSettingValue(
  db: Reader,
  realmId: number,
  name: string,
  raw: unknown,
  config: GroupPermissionConfig,
): Promise<GroupSettingValue> {
  if (!isGroupSettingValue(raw)) throw errors.badRequest(`Invalid ${name}`);
  const value = await normalizeGroupSettingValue(db, realmId, raw);
  if (typeof value === 'number') {
    const group = await db.userGroup.findFirst({ where: { id: value, realmId }, select: { name: true, isSystemGroup: true, deactivated: true } });
    if (!group) throw errors.badRequest('Invalid user group');
    if (group.deactivated) throw errors.badRequest('User group is deactivated.');
    if (group.isSystemGroup && group.name === SYSTEM_GROUPS.internet) throw errors.badRequest(`'${name}' setting cannot be set to 'role:internet' group.`);
    if (group.isSystemGroup && group.name === SYSTEM_GROUPS.everyone && !config.allowEveryoneGroup) {
      throw errors.badRequest(`'${name}' setting cannot be set to 'role:everyone' group.`);
    }
    return value;
  }
  const members = [...new Set(value.direct_members)].sort((a, b) => a - b);
  const found = new Set((await db.user.findMany({ where: { realmId, isActive: true, id: { in: members } }, select: { id: true } })).map((u) => u.id));
  const missingUser = members.find((id) => !found.has(id));
  if (missingUser !== undefined) throw errors.badRequest(`Invalid user ID: ${missingUser}`);
  const subgroups = [...new Set(value.direct_subgroups)].sort((a, b) => a - b);
  const groups = await db.userGroup.findMany({ where: { realmId, id: { in: subgroups } }, select: { id: true, deactivated: true } });
  const known = new Set(groups.map((g) => g.id));
  const missingGroup = subgroups.find((id) => !known.has(id));
  if (missingGroup !== undefined) throw errors.badRequest(`Invalid user group ID: ${missingGroup}`);
  if (groups.some((g) => g.deactivated)) throw errors.badRequest('User group is deactivated.');
  return { direct_members: members, direct_subgroups: subgroups };
}

/**
 * Whether the person holds the permission a group-setting value gives. Settings that may not be
 * "everyone" are never held by guests, even when a group names them (the family's
 * user_has_permission_for_group_setting).
 */
export async function hasGroupPermission(db: Reader, realmId: number, value: GroupSettingValue, ref: MemberRef, config: GroupPermissionConfig): Promise<boolean> {
  const who = typeof ref === 'number' ? await db.user.findUniqueOrThrow({ where: { id: ref }, select: { id: true, role: true, dateJoined: true } }) : ref;
  if (!config.allowEveryoneGroup && isGuest(who)) return false;
  return isInGroupSetting(db, realmId, value, who);
}
