/**
 * Who is in a group-setting value ("who may do X"): system groups decided by role (and account
 * age for full members), user groups by their members, subgroups followed transitively. Shared
 * by the users service's permission checks and register's can_* facts about the viewer.
 */
import { ROLE } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { SYSTEM_GROUPS } from './groups';
import { realmPolicies, type GroupSettingValue } from './realm-settings';

type Reader = Db | Tx;

export interface Member {
  id: number;
  role: number;
  dateJoined: Date;
}

/** Is this person in the system group `name`? Roles, not rows, decide: they cannot drift apart. */
function inSystemGroup(name: string, user: Member, waitingPeriodDays: number): boolean {
  switch (name) {
    case SYSTEM_GROUPS.owners:
      return user.role === ROLE.OWNER;
    case SYSTEM_GROUPS.administrators:
      return user.role <= ROLE.ADMINISTRATOR;
    case SYSTEM_GROUPS.moderators:
      return user.role <= ROLE.MODERATOR;
    case SYSTEM_GROUPS.fullMembers: {
      if (user.role <= ROLE.MODERATOR) return true;
      if (user.role !== ROLE.MEMBER) return false;
      const ageDays = (Date.now() - user.dateJoined.getTime()) / 86_400_000;
      return ageDays >= waitingPeriodDays;
    }
    case SYSTEM_GROUPS.members:
      return user.role <= ROLE.MEMBER;
    case SYSTEM_GROUPS.everyone:
    case SYSTEM_GROUPS.internet:
      return true;
    default:
      return false;
  }
}

/**
 * A test of membership in a group-setting value (a group id, or direct members plus
 * subgroups), following subgroups transitively. Built once per request, then applied to as
 * many users as needed (permission checks, event audiences).
 */
export async function groupPredicate(db: Reader, realmId: number, value: GroupSettingValue): Promise<(user: Member) => boolean> {
  const realm = await db.realm.findUniqueOrThrow({ where: { id: realmId }, select: { settings: true } });
  const waitingPeriodDays = Number(realmPolicies(realm.settings).waiting_period_threshold) || 0;
  const roots = typeof value === 'number' ? [value] : value.direct_subgroups;
  const directMembers = new Set(typeof value === 'number' ? [] : value.direct_members);
  const rows = roots.length
    ? await db.$queryRawUnsafe<Array<{ id: number; name: string; is_system_group: boolean }>>(
        `WITH RECURSIVE reach(id) AS (
           SELECT unnest($1::int[])
           UNION
           SELECT s.subgroup_id FROM user_group_subgroups s JOIN reach r ON s.supergroup_id = r.id
         )
         SELECT g.id, g.name, g.is_system_group FROM user_groups g JOIN reach r ON r.id = g.id
          WHERE g.realm_id = $2 AND NOT g.deactivated`,
        roots,
        realmId,
      )
    : [];
  const systemNames = rows.filter((r) => r.is_system_group).map((r) => r.name);
  const userGroupIds = rows.filter((r) => !r.is_system_group).map((r) => r.id);
  const members = userGroupIds.length
    ? await db.userGroupMember.findMany({ where: { groupId: { in: userGroupIds } }, select: { userId: true } })
    : [];
  for (const m of members) directMembers.add(m.userId);
  return (user) => directMembers.has(user.id) || systemNames.some((n) => inSystemGroup(n, user, waitingPeriodDays));
}
