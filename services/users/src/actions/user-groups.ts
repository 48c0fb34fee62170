import { errors } from '@chat/contracts';
import { userGroupObjects } from '@chat/wire';
import type { Services } from '../context';
import { directMemberIdsByGroup, groupMemberIds } from '@chat/realm';

/**
 * Reading user groups: what clients need to show group-setting values ("who may ...") and
 * group mentions. Creating and changing groups is in user-groups-edit.ts.
 */
export async function listUserGroups(services: Services, realmId: number, includeDeactivated: boolean) {
  const [groups, members] = await Promise.all([
    services.db.userGroup.findMany({
      where: { realmId, ...(includeDeactivated ? {} : { deactivated: false }) },
      include: { subgroups: { select: { subgroupId: true } } },
      orderBy: { id: 'asc' },
    }),
    directMemberIdsByGroup(services.db, realmId),
  ]);
  return userGroupObjects(groups.map((g) => ({ ...g, members: (members.get(g.id) ?? []).map((userId) => ({ userId })) })));
}

/** Members of a group: direct ones, or everyone in it through its subgroups (@chat/realm's rule). */
export async function userGroupMembers(services: Services, realmId: number, groupId: number, directOnly: boolean): Promise<number[]> {
  const group = await services.db.userGroup.findFirst({ where: { id: groupId, realmId }, select: { id: true } });
  if (!group) throw errors.badRequest('Invalid user group');
  return groupMemberIds(services.db, realmId, groupId, directOnly);
}
