import { ApiError, errors, type Actor } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { userGroupObject, groupSettingDefaults, USER_GROUP_SETTINGS, type UserGroupSettingName } from '@chat/wire';
import { groupPredicate, hasRealmPermission, type GroupSettingValue, type Member } from '@chat/realm';

type Reader = Db | Tx;

export const GROUP_NAME_MAX = 100;
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** A value as a client sends it: a group id, an anonymous group, or {new, old} to guard a change. */
export type SettingRequest = { new: GroupSettingValue; old?: GroupSettingValue };

export function toSettingRequest(raw: unknown): SettingRequest {
  if (raw && typeof raw === 'object' && 'new' in raw) return raw as SettingRequest;
  return { new: raw as GroupSettingValue };
}

/** Names follow the mention syntax: no prefixes that mention syntax reserves (system groups are "role:..."). */
export function checkGroupName(name: string): string {
  if (name.trim() === '') throw errors.badRequest("User group name can't be empty!");
  if ([...name].length > GROUP_NAME_MAX) throw errors.badRequest(`User group name cannot exceed ${GROUP_NAME_MAX} characters.`);
  for (const prefix of INVALID_NAME_PREFIXES) {
    if (name.startsWith(prefix)) throw errors.badRequest(`User group name cannot start with '${prefix}'.`);
  }
  return name;
}

/** A name nobody else in the realm holds (the unique index decides races). */
export async function checkNameFree(tx: Tx, realmId: number, name: string, exceptId?: number): Promise<void> {
  const other = await tx.userGroup.findFirst({ where: { realmId, name, ...(exceptId ? { id: { not: exceptId } } : {}) } });
  if (other) throw errors.badRequest(`User group '${name}' already exists.`);
}

/** Active users of the realm, in order; `Invalid user ID: <id>` for the first that is not. */
export async function checkUserIds(tx: Reader, realmId: number, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const found = new Set((await tx.user.findMany({ where: { realmId, isActive: true, id: { in: unique } }, select: { id: true } })).map((u) => u.id));
  const missing = unique.find((id) => !found.has(id));
  if (missing !== undefined) throw errors.badRequest(`Invalid user ID: ${missing}`);
  return unique;
}

/** Groups that may become subgroups: named groups of the realm that are not deactivated. */
export async function checkSubgroupIds(tx: Reader, realmId: number, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const rows = await tx.userGroup.findMany({ where: { realmId, id: { in: unique } }, select: { id: true, deactivated: true } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = unique.find((id) => !byId.has(id));
  if (missing !== undefined) throw errors.badRequest(`Invalid user group ID: ${missing}`);
  if (rows.some((r) => r.deactivated)) throw errors.badRequest('User group is deactivated.');
  return unique;
}

export const USER_GROUP_INCLUDE = { members: { select: { userId: true } }, subgroups: { select: { subgroupId: true } } } as const;

/** The group as clients see it (settings resolved), from a row loaded with its members and subgroups. */
export async function groupApiObject(tx: Reader, realmId: number, groupId: number) {
  const row = await tx.userGroup.findUniqueOrThrow({ where: { id: groupId }, include: USER_GROUP_INCLUDE });
  const systems = await tx.userGroup.findMany({ where: { realmId, isSystemGroup: true }, select: { id: true, name: true, isSystemGroup: true } });
  return userGroupObject(row, groupSettingDefaults(systems));
}

export async function memberOf(tx: Reader, actor: Actor): Promise<Member> {
  return tx.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { id: true, role: true, dateJoined: true } });
}

/**
 * The group `groupId`, locked for the rest of the transaction, if the actor may change it by
 * `permission`: system groups never; the realm's can_manage_all_groups and the group's own
 * can_manage_group allow everything; otherwise the named setting of the group decides.
 */
export async function accessGroupForUpdate(
  tx: Tx,
  actor: Actor,
  groupId: number,
  permission: UserGroupSettingName,
  opts: { allowDeactivated?: boolean } = {},
) {
  const locked = await tx.$queryRawUnsafe<Array<{ id: number }>>('SELECT id FROM user_groups WHERE id = $1 AND realm_id = $2 FOR UPDATE', groupId, actor.realmId);
  if (!locked.length) throw errors.badRequest('Invalid user group');
  const group = await groupApiObject(tx, actor.realmId, groupId);
  if (!opts.allowDeactivated && group.deactivated) throw errors.badRequest('User group is deactivated.');
  if (group.is_system_group) throw errors.insufficientPermission();
  const me = await memberOf(tx, actor);
  if (await hasRealmPermission(tx, actor.realmId, 'can_manage_all_groups', me)) return group;
  const holds = async (setting: UserGroupSettingName) => {
    const value = group[setting];
    return value !== null && (await groupPredicate(tx, actor.realmId, value))(me);
  };
  if (await holds('can_manage_group')) return group;
  if (permission !== 'can_manage_group' && (await holds(permission))) return group;
  throw errors.insufficientPermission();
}

export type GroupObject = Awaited<ReturnType<typeof groupApiObject>>;

/** Column name of a setting. */
export function settingColumn(name: UserGroupSettingName) {
  return USER_GROUP_SETTINGS[name];
}

export function groupInUse(objections: Array<Record<string, unknown>>) {
  return new ApiError('CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.', 400, { objections });
}
