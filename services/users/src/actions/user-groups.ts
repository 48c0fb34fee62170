import { errors } from '@chat/contracts';
import type { Services } from '../context';
import { groupPredicate } from '../lib/groups';

/**
 * Reading user groups: what clients need to show group-setting values ("who may ...") and
 * group mentions. Creating and editing groups is not served here yet.
 */
export async function listUserGroups(services: Services, realmId: number, includeDeactivated: boolean) {
  const groups = await services.db.userGroup.findMany({
    where: { realmId, ...(includeDeactivated ? {} : { deactivated: false }) },
    include: { members: { select: { userId: true } }, subgroups: { select: { subgroupId: true } } },
    orderBy: { id: 'asc' },
  });
  return groups.map((g) => ({
    id: g.id,
    name: g.name,
    description: g.description,
    members: g.members.map((m) => m.userId).sort((a, b) => a - b),
    direct_subgroup_ids: g.subgroups.map((s) => s.subgroupId).sort((a, b) => a - b),
    is_system_group: g.isSystemGroup,
    creator_id: g.creatorId,
    date_created: g.isSystemGroup ? null : Math.floor(g.dateCreated.getTime() / 1000),
    deactivated: g.deactivated,
  }));
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
