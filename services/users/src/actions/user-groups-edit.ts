import { recordEvent } from '@chat/bus';
import { errors, SYSTEM_GROUPS, type Actor } from '@chat/contracts';
import type { Tx } from '@chat/db';
import {
  checkGroupSettingValue, groupPermissionConfig, hasRealmPermission, realmGroupSettings, REALM_GROUP_SETTING_DEFAULTS, sameGroupSettingValue, systemGroupIds,
  type GroupSettingValue,
} from '@chat/realm';
import { USER_GROUP_SETTINGS, type UserGroupSettingName } from '@chat/wire';
import type { Services } from '../context';
import { activeUserIds } from '../lib/audience';
import {
  accessGroupForUpdate, checkGroupName, checkNameFree, checkSubgroupIds, checkUserIds,
  groupApiObject, groupInUse, memberOf, settingColumn, type GroupObject, type SettingRequest,
} from './user-group-access';

export const GROUP_SETTING_NAMES = Object.keys(USER_GROUP_SETTINGS) as UserGroupSettingName[];

/** Every user_group event goes to everyone in the realm: groups are visible to all, guests included. */
async function groupEvent(tx: Tx, realmId: number, event: Record<string, unknown>, routing?: Record<string, unknown>) {
  await recordEvent(tx, { realmId, type: 'user_group', users: await activeUserIds(tx, realmId), event: { type: 'user_group', ...event }, routing });
}

export interface CreateGroupRequest {
  name: string;
  description: string;
  members: number[];
  subgroups: number[];
  settings: Partial<Record<UserGroupSettingName, GroupSettingValue>>;
}

/** POST /user_groups/create: whoever the realm's can_create_groups includes. */
export async function doCreateUserGroup(services: Services, actor: Actor, req: CreateGroupRequest): Promise<number> {
  const name = checkGroupName(req.name);
  return services.db.$transaction(async (tx) => {
    if (!(await hasRealmPermission(tx, actor.realmId, 'can_create_groups', await memberOf(tx, actor)))) throw errors.insufficientPermission();
    const members = await checkUserIds(tx, actor.realmId, req.members);
    const systems = await systemGroupIds(tx, actor.realmId);
    // The creator manages the group and adds people to it unless told otherwise.
    const creator: GroupSettingValue = { direct_members: [actor.userId], direct_subgroups: [] };
    const defaults: Record<UserGroupSettingName, GroupSettingValue> = {
      can_add_members_group: creator,
      can_join_group: systems.get(SYSTEM_GROUPS.nobody)!,
      can_leave_group: systems.get(SYSTEM_GROUPS.everyone)!,
      can_manage_group: creator,
      can_mention_group: systems.get(SYSTEM_GROUPS.everyone)!,
      can_remove_members_group: systems.get(SYSTEM_GROUPS.nobody)!,
    };
    const data: Record<string, unknown> = {};
    for (const setting of GROUP_SETTING_NAMES) {
      const given = req.settings[setting];
      data[settingColumn(setting)] = given === undefined ? defaults[setting] : await checkGroupSettingValue(tx, actor.realmId, setting, given, groupPermissionConfig('group', setting));
    }
    const subgroups = await checkSubgroupIds(tx, actor.realmId, req.subgroups);
    await checkNameFree(tx, actor.realmId, name);
    const group = await tx.userGroup.create({
      data: {
        realmId: actor.realmId, name, description: req.description, creatorId: actor.userId, ...data,
        members: { create: members.map((userId) => ({ userId })) },
        subgroups: { create: subgroups.map((subgroupId) => ({ subgroupId })) },
      },
    });
    await groupEvent(tx, actor.realmId, { op: 'add', group: await groupApiObject(tx, actor.realmId, group.id) });
    return group.id;
  });
}

/** What a group's settings, other groups, channels and the realm say about it: reasons not to deactivate it. */
async function objectionsTo(tx: Tx, realmId: number, groupId: number): Promise<Array<Record<string, unknown>>> {
  const objections: Array<Record<string, unknown>> = [];
  const uses = (v: unknown) =>
    v === groupId || (!!v && typeof v === 'object' && Array.isArray((v as { direct_subgroups?: unknown }).direct_subgroups) && (v as { direct_subgroups: number[] }).direct_subgroups.includes(groupId));
  const supergroups = await tx.userGroupSubgroup.findMany({ where: { subgroupId: groupId, supergroup: { deactivated: false } }, select: { supergroupId: true }, orderBy: { supergroupId: 'asc' } });
  if (supergroups.length) objections.push({ type: 'subgroup', supergroup_ids: supergroups.map((s) => s.supergroupId) });
  const channels = await tx.stream.findMany({ where: { realmId, isArchived: false }, orderBy: { id: 'asc' } });
  for (const c of channels) {
    const settings = Object.entries({ can_add_subscribers_group: c.canAddSubscribersGroup, can_remove_subscribers_group: c.canRemoveSubscribersGroup, can_send_message_group: c.canSendMessageGroup })
      .filter(([, v]) => uses(v)).map(([k]) => k);
    if (settings.length) objections.push({ type: 'channel', channel_id: c.id, settings });
  }
  const groups = await tx.userGroup.findMany({ where: { realmId, deactivated: false, id: { not: groupId } }, orderBy: { id: 'asc' } });
  for (const g of groups) {
    const settings = GROUP_SETTING_NAMES.filter((s) => uses(g[settingColumn(s)]));
    if (settings.length) objections.push({ type: 'user_group', group_id: g.id, settings });
  }
  const realm = await tx.realm.findUniqueOrThrow({ where: { id: realmId }, select: { settings: true } });
  const values = realmGroupSettings(realm.settings, await systemGroupIds(tx, realmId));
  const realmSettings = Object.keys(REALM_GROUP_SETTING_DEFAULTS).filter((k) => uses(values[k]));
  if (realmSettings.length) objections.push({ type: 'realm', settings: realmSettings });
  return objections;
}

/** Deactivation reaches clients that know deactivated groups as an update, the others as a removal. */
async function setDeactivated(tx: Tx, actor: Actor, group: GroupObject, deactivated: boolean) {
  if (deactivated) {
    const objections = await objectionsTo(tx, actor.realmId, group.id);
    if (objections.length) throw groupInUse(objections);
  }
  await tx.userGroup.update({ where: { id: group.id }, data: { deactivated } });
  const fallback = deactivated
    ? { type: 'user_group', op: 'remove', group_id: group.id }
    : { type: 'user_group', op: 'add', group: await groupApiObject(tx, actor.realmId, group.id) };
  await groupEvent(tx, actor.realmId, { op: 'update', group_id: group.id, data: { deactivated } }, { capability: 'include_deactivated_groups', fallback_event: fallback });
}

/** POST /user_groups/{id}/deactivate: those who manage the group, if nothing uses it. */
export async function doDeactivateUserGroup(services: Services, actor: Actor, groupId: number): Promise<void> {
  await services.db.$transaction(async (tx) => {
    const group = await accessGroupForUpdate(tx, actor, groupId, 'can_manage_group');
    await setDeactivated(tx, actor, group, true);
  });
}

export interface UpdateGroupRequest {
  name?: string;
  description?: string;
  deactivated?: boolean;
  settings: Partial<Record<UserGroupSettingName, SettingRequest>>;
}

/** PATCH /user_groups/{id}: name, description, the group's settings, (re)activation. */
export async function doUpdateUserGroup(services: Services, actor: Actor, groupId: number, req: UpdateGroupRequest): Promise<void> {
  if (req.name === undefined && req.description === undefined && req.deactivated === undefined && !Object.keys(req.settings).length) {
    throw errors.badRequest('No new data supplied');
  }
  await services.db.$transaction(async (tx) => {
    const group = await accessGroupForUpdate(tx, actor, groupId, 'can_manage_group', { allowDeactivated: true });
    if (req.name !== undefined && req.name !== group.name) {
      const name = checkGroupName(req.name);
      await checkNameFree(tx, actor.realmId, name, group.id);
      await tx.userGroup.update({ where: { id: group.id }, data: { name } });
      await groupEvent(tx, actor.realmId, { op: 'update', group_id: group.id, data: { name } });
    }
    if (req.description !== undefined && req.description !== group.description) {
      await tx.userGroup.update({ where: { id: group.id }, data: { description: req.description } });
      await groupEvent(tx, actor.realmId, { op: 'update', group_id: group.id, data: { description: req.description } });
    }
    for (const setting of GROUP_SETTING_NAMES) {
      const change = req.settings[setting];
      if (!change) continue;
      const current = group[setting]!;
      if (change.old !== undefined && !sameGroupSettingValue(change.old, current)) throw errors.badRequest("'old' value does not match the expected value.");
      const value = await checkGroupSettingValue(tx, actor.realmId, setting, change.new, groupPermissionConfig('group', setting));
      if (sameGroupSettingValue(value, current)) continue;
      await tx.userGroup.update({ where: { id: group.id }, data: { [settingColumn(setting)]: value } });
      await groupEvent(tx, actor.realmId, { op: 'update', group_id: group.id, data: { [setting]: value } });
    }
    if (req.deactivated !== undefined && req.deactivated !== group.deactivated) await setDeactivated(tx, actor, group, req.deactivated);
  });
}

export interface MembersRequest {
  add: number[];
  delete: number[];
  addSubgroups: number[];
  deleteSubgroups: number[];
}

/** Adding or removing oneself needs can_join_group / can_leave_group; anyone else, can_add / can_remove_members_group. */
async function accessForMembers(tx: Tx, actor: Actor, groupId: number, ids: number[], self: UserGroupSettingName, others: UserGroupSettingName) {
  if (ids.length === 1 && ids[0] === actor.userId) {
    try {
      return await accessGroupForUpdate(tx, actor, groupId, self);
    } catch (e) {
      if (!(e instanceof Error) || e.message !== 'Insufficient permission') throw e;
    }
  }
  return accessGroupForUpdate(tx, actor, groupId, others);
}

async function addMembers(tx: Tx, actor: Actor, groupId: number, ids: number[]) {
  const group = await accessForMembers(tx, actor, groupId, ids, 'can_join_group', 'can_add_members_group');
  const users = await checkUserIds(tx, actor.realmId, ids);
  const already = users.find((id) => group.members.includes(id));
  if (already !== undefined) throw errors.badRequest(`User ${already} is already a member of this group`);
  await tx.userGroupMember.createMany({ data: users.map((userId) => ({ groupId, userId })) });
  await groupEvent(tx, actor.realmId, { op: 'add_members', group_id: groupId, user_ids: users });
}

async function removeMembers(tx: Tx, actor: Actor, groupId: number, ids: number[]) {
  const group = await accessForMembers(tx, actor, groupId, ids, 'can_leave_group', 'can_remove_members_group');
  const absent = ids.find((id) => !group.members.includes(id));
  if (absent !== undefined) throw errors.badRequest(`There is no member '${absent}' in this user group`);
  const users = [...new Set(ids)];
  await tx.userGroupMember.deleteMany({ where: { groupId, userId: { in: users } } });
  await groupEvent(tx, actor.realmId, { op: 'remove_members', group_id: groupId, user_ids: users });
}

/** Every group reachable downwards from `roots`, the roots included. */
async function recursiveSubgroups(tx: Tx, roots: number[]): Promise<Set<number>> {
  const rows = await tx.$queryRawUnsafe<Array<{ id: number }>>(
    `WITH RECURSIVE reach(id) AS (
       SELECT unnest($1::int[])
       UNION
       SELECT s.subgroup_id FROM user_group_subgroups s JOIN reach r ON s.supergroup_id = r.id
     ) SELECT id FROM reach`,
    roots,
  );
  return new Set(rows.map((r) => r.id));
}

async function addSubgroups(tx: Tx, actor: Actor, groupId: number, ids: number[]) {
  // Serialize subgroup changes in the realm, so two concurrent additions cannot close a cycle.
  await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock(hashtext($1))', `user_group_subgroups:${actor.realmId}`);
  const group = await accessGroupForUpdate(tx, actor, groupId, 'can_manage_group');
  const subgroups = await checkSubgroupIds(tx, actor.realmId, ids);
  const already = subgroups.find((id) => group.direct_subgroup_ids.includes(id));
  if (already !== undefined) throw errors.badRequest(`User group ${already} is already a subgroup of this group.`);
  if ((await recursiveSubgroups(tx, subgroups)).has(groupId)) {
    throw errors.badRequest(`User group ${groupId} is already a subgroup of one of the passed subgroups.`);
  }
  await tx.userGroupSubgroup.createMany({ data: subgroups.map((subgroupId) => ({ supergroupId: groupId, subgroupId })) });
  await groupEvent(tx, actor.realmId, { op: 'add_subgroups', group_id: groupId, direct_subgroup_ids: subgroups });
}

async function removeSubgroups(tx: Tx, actor: Actor, groupId: number, ids: number[]) {
  const group = await accessGroupForUpdate(tx, actor, groupId, 'can_manage_group');
  const unique = [...new Set(ids)];
  const existing = new Set((await tx.userGroup.findMany({ where: { realmId: actor.realmId, id: { in: unique } }, select: { id: true } })).map((g) => g.id));
  const missing = unique.find((id) => !existing.has(id));
  if (missing !== undefined) throw errors.badRequest(`Invalid user group ID: ${missing}`);
  const absent = unique.find((id) => !group.direct_subgroup_ids.includes(id));
  if (absent !== undefined) throw errors.badRequest(`User group ${absent} is not a subgroup of this group.`);
  await tx.userGroupSubgroup.deleteMany({ where: { supergroupId: groupId, subgroupId: { in: unique } } });
  await groupEvent(tx, actor.realmId, { op: 'remove_subgroups', group_id: groupId, direct_subgroup_ids: unique });
}

/** POST /user_groups/{id}/members: all four changes in one transaction, in this order. */
export async function doUpdateGroupMembers(services: Services, actor: Actor, groupId: number, req: MembersRequest): Promise<void> {
  if (!req.add.length && !req.delete.length && !req.addSubgroups.length && !req.deleteSubgroups.length) {
    throw errors.badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
  }
  await services.db.$transaction(async (tx) => {
    if (req.add.length) await addMembers(tx, actor, groupId, req.add);
    if (req.delete.length) await removeMembers(tx, actor, groupId, req.delete);
    if (req.addSubgroups.length) await addSubgroups(tx, actor, groupId, req.addSubgroups);
    if (req.deleteSubgroups.length) await removeSubgroups(tx, actor, groupId, req.deleteSubgroups);
  });
}

/** POST /user_groups/{id}/subgroups. */
export async function doUpdateSubgroups(services: Services, actor: Actor, groupId: number, add: number[], remove: number[]): Promise<void> {
  if (!add.length && !remove.length) throw errors.badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  await services.db.$transaction(async (tx) => {
    if (add.length) await addSubgroups(tx, actor, groupId, add);
    if (remove.length) await removeSubgroups(tx, actor, groupId, remove);
  });
}
