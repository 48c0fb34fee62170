/**
 * Group-setting values as clients send them: checked, normalised and compared the way the
 * family's server does (zerver/lib/user_groups.py), and who holds a permission given by one.
 * Membership itself is group-membership.ts's rule.
 */
import { errors, isGuest, SYSTEM_GROUPS } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { supportedPermissionSettings } from '@chat/wire';
import { isInGroupSetting, realmGroupSetting, systemGroupIds, type MemberRef } from './group-membership';
import { REALM_GROUP_SETTING_DEFAULTS, type GroupSettingValue } from './realm-settings';

type Reader = Db | Tx;

/**
 * What a setting accepts, as server_supported_permission_settings advertises it (@chat/wire):
 * everyone may be refused; the internet group is refused unless allowed; nobody is allowed
 * unless refused; some settings take only system groups, or only some of them.
 */
export interface GroupPermissionConfig {
  /** False: the setting may not be "role:everyone", and guests never hold it. */
  allowEveryoneGroup: boolean;
  allowInternetGroup?: boolean;
  allowNobodyGroup?: boolean;
  requireSystemGroup?: boolean;
  /** When not empty, the only system groups the setting may name. */
  allowedSystemGroups?: readonly string[];
}

export type GroupSettingKind = 'realm' | 'stream' | 'group';

let advertised: ReturnType<typeof supportedPermissionSettings> | undefined;

/** The configuration of a realm, channel or user group setting, the one clients are told of. */
export function groupPermissionConfig(kind: GroupSettingKind, name: string): GroupPermissionConfig {
  advertised ??= supportedPermissionSettings(REALM_GROUP_SETTING_DEFAULTS);
  const c = (advertised[kind] as Record<string, (typeof advertised)['realm'][string] | undefined>)[name];
  if (!c) throw new Error(`unknown ${kind} group setting ${name}`);
  return {
    allowEveryoneGroup: c.allow_everyone_group,
    allowInternetGroup: c.allow_internet_group,
    allowNobodyGroup: c.allow_nobody_group,
    requireSystemGroup: c.require_system_group,
    allowedSystemGroups: c.allowed_system_groups,
  };
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

/** Ids in the order given, each once: the first bad one is the one the error names. */
const uniqueInOrder = (ids: number[]) => [...new Set(ids)];

/** The checks a setting makes of a named group (the family's check_setting_configuration_for_system_groups). */
function checkNamedGroupForSetting(group: { name: string; isSystemGroup: boolean }, name: string, config: GroupPermissionConfig): void {
  if (config.requireSystemGroup && !group.isSystemGroup) throw errors.badRequest(`'${name}' must be a system user group.`);
  if (!group.isSystemGroup) return;
  if (!config.allowInternetGroup && group.name === SYSTEM_GROUPS.internet) throw errors.badRequest(`'${name}' setting cannot be set to 'role:internet' group.`);
  if (config.allowNobodyGroup === false && group.name === SYSTEM_GROUPS.nobody) throw errors.badRequest(`'${name}' setting cannot be set to 'role:nobody' group.`);
  if (!config.allowEveryoneGroup && group.name === SYSTEM_GROUPS.everyone) throw errors.badRequest(`'${name}' setting cannot be set to 'role:everyone' group.`);
  if (config.allowedSystemGroups?.length && !config.allowedSystemGroups.includes(group.name)) {
    throw errors.badRequest(`'${name}' setting cannot be set to '${group.name}' group.`);
  }
}

/**
 * Checks a value a client sent for the setting `name` of a realm, channel or user group, and
 * gives it as stored. The one checker of every group setting, as the family's
 * access_user_group_for_setting: a group id names a group of the realm that is not deactivated
 * ("Invalid user group", "User group is deactivated.") and that the setting accepts; an anonymous
 * group (not for settings that require a system group) names active users of the realm
 * ("Invalid user ID: <id>") and groups of the realm that are not deactivated ("Invalid user
 * group ID: <id>", "User group is deactivated."), the first bad id in the order given.
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
    checkNamedGroupForSetting(group, name, config);
    return value;
  }
  if (config.requireSystemGroup) throw errors.badRequest(`'${name}' must be a system user group.`);
  const members = uniqueInOrder(value.direct_members);
  const found = new Set((await db.user.findMany({ where: { realmId, isActive: true, id: { in: members } }, select: { id: true } })).map((u) => u.id));
  const missingUser = members.find((id) => !found.has(id));
  if (missingUser !== undefined) throw errors.badRequest(`Invalid user ID: ${missingUser}`);
  const subgroups = uniqueInOrder(value.direct_subgroups);
  const groups = await db.userGroup.findMany({ where: { realmId, id: { in: subgroups } }, select: { id: true, deactivated: true } });
  const known = new Set(groups.map((g) => g.id));
  const missingGroup = subgroups.find((id) => !known.has(id));
  if (missingGroup !== undefined) throw errors.badRequest(`Invalid user group ID: ${missingGroup}`);
  if (groups.some((g) => g.deactivated)) throw errors.badRequest('User group is deactivated.');
  const byId = (a: number, b: number) => a - b;
  return { direct_members: members.sort(byId), direct_subgroups: subgroups.sort(byId) };
}

/**
 * Whether the person holds the permission a group-setting value gives. Settings that may not be
 * "everyone" are never held by guests, even when a group names them (the family's
 * user_has_permission_for_group_setting).
 */
export async function hasGroupPermission(db: Reader, realmId: number, value: GroupSettingValue, ref: MemberRef, config: GroupPermissionConfig): Promise<boolean> {
  const who = typeof ref === 'number' ? await db.user.findUniqueOrThrow({ where: { id: ref }, select: { id: true, role: true, dateJoined: true } }) : ref;
  if (!guestMayHold(config, who)) return false;
  return isInGroupSetting(db, realmId, value, who);
}

/** False for a guest and a setting that may not be "role:everyone": membership aside, they never hold it. */
export function guestMayHold(config: GroupPermissionConfig, who: { role: number }): boolean {
  return config.allowEveryoneGroup || !isGuest(who);
}

/** Whether the person holds the realm permission `setting` (a realm group setting), guests' rule included. */
export async function hasRealmPermission(db: Reader, realmId: number, setting: string, ref: MemberRef): Promise<boolean> {
  return hasGroupPermission(db, realmId, await realmGroupSetting(db, realmId, setting), ref, groupPermissionConfig('realm', setting));
}
