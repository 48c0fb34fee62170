import { errors, type Actor, isGuest } from '@chat/contracts';
import { isGroupMember } from '@chat/realm';
import type { Services } from '../context';

/**
 * Questions about one group's structure: its subgroups, and whether a person is in it. Like the
 * family's server, these are for members and above (guests and bots are refused), and a
 * deactivated group can still be asked about.
 */
function checkMemberOrAdmin(actor: Actor): void {
  if (isGuest(actor)) throw errors.badRequest('Not allowed for guest users');
  if (actor.isBot) throw errors.botsNotAllowed();
}

async function accessGroupForRead(services: Services, actor: Actor, groupId: number) {
  const group = await services.db.userGroup.findFirst({ where: { id: groupId, realmId: actor.realmId }, select: { id: true } });
  if (!group) throw errors.badRequest('Invalid user group');
  return group;
}

/** GET /user_groups/{id}/subgroups: direct subgroups, or every group reachable below it. */
export async function accessSubgroupIds(services: Services, actor: Actor, groupId: number, directOnly: boolean): Promise<number[]> {
  checkMemberOrAdmin(actor);
  await accessGroupForRead(services, actor, groupId);
  if (directOnly) {
    const rows = await services.db.userGroupSubgroup.findMany({ where: { supergroupId: groupId }, select: { subgroupId: true } });
    return rows.map((r) => r.subgroupId).sort((a, b) => a - b);
  }
  // Subgroup cycles are refused when written, but UNION (not UNION ALL) would stop one anyway.
  const rows = await services.db.$queryRawUnsafe<Array<{ id: number }>>(
    `WITH RECURSIVE below(id) AS (
       SELECT subgroup_id FROM user_group_subgroups WHERE supergroup_id = $1
       UNION
       SELECT s.subgroup_id FROM user_group_subgroups s JOIN below b ON s.supergroup_id = b.id
     )
     SELECT id FROM below WHERE id <> $1 ORDER BY id`,
    groupId,
  );
  return rows.map((r) => r.id);
}

/**
 * GET /user_groups/{id}/members/{user_id}. The person is looked up as the family's server
 * reads another user: of this realm and not a bot (`No such user`), active (`User is
 * deactivated`).
 */
export async function accessIsGroupMember(
  services: Services,
  actor: Actor,
  groupId: number,
  userId: number,
  directOnly: boolean,
): Promise<boolean> {
  checkMemberOrAdmin(actor);
  await accessGroupForRead(services, actor, groupId);
  const target = await services.db.user.findFirst({ where: { id: userId, realmId: actor.realmId }, select: { isBot: true, isActive: true } });
  if (!target || target.isBot) throw errors.badRequest('No such user');
  if (!target.isActive) throw errors.badRequest('User is deactivated');
  // Role-based system groups answer by role and account age, user groups by their rows; a
  // deactivated group keeps its members (@chat/realm isGroupMember).
  return isGroupMember(services.db, actor.realmId, groupId, userId, directOnly);
}
