import { errors } from '@chat/contracts';
import { userGroupObjects } from '@chat/wire';
import type { Services } from '../context';
import { groupPredicate } from '@chat/realm';

/**
 * Reading user groups: what clients need to show group-setting values ("who may ...") and
 * group mentions. Creating and changing groups is in user-groups-edit.ts.
 */
export async function listUserGroups(services: Services, realmId: number, includeDeactivated: boolean) {
  const groups = await services.db.userGroup.findMany({
    where: { realmId, ...(includeDeactivated ? {} : { deactivated: false }) },
    include: { members: { select: { userId: true } }, subgroups: { select: { subgroupId: true } } },
    orderBy: { id: 'asc' },
  });
  return userGroupObjects(groups);
}

/** Members of a group: direct ones, or everyone in it through its subgroups. */
export async function userGroupMembers(services: Services, realmId: number, groupId: number, directOnly: boolean): Promise<number[]> {
  const group = await services.db.userGroup.findFirst({ where: { id: groupId, realmId } });
  if (!group) throw errors.badRequest('Invalid user group');
  if (directOnly) {
    const rows = await services.db.userGroupMember.findMany({ where: { groupId }, select: { userId: true } });
    return rows.map((r) => r.userId).sort((a, b) => a - b);
  }
  const test = await groupPredicate(services.db, realmId, groupId);
  const users = await services.db.user.findMany({ where: { realmId, isActive: true }, select: { id: true, role: true, dateJoined: true }, orderBy: { id: 'asc' } });
  return users.filter(test).map((u) => u.id);
}
