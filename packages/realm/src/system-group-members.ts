/**
 * Who is a direct member of each group, the rule every answer about group membership follows
 * (GET /user_groups, its members endpoints, register's realm_user_groups): user groups by their
 * membership rows, role-based system groups by role, and "role:fullmembers" by role and account
 * age against the realm's waiting_period_threshold. No rows are read for system groups, so a
 * member who has waited long enough is a full member at once (docs/adr/0047). Deactivated users
 * are in no group, as the family answers.
 *
 * Written twice, in TypeScript for one person and in SQL for lists; the two read the same
 * table below.
 */
import { ROLE } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { SYSTEM_GROUPS } from './groups';

type Reader = Pick<Db | Tx, '$queryRawUnsafe'>;

/** The role whose holders are direct members of each role-based system group. */
const DIRECT_ROLE: Record<string, number> = {
  [SYSTEM_GROUPS.owners]: ROLE.OWNER,
  [SYSTEM_GROUPS.administrators]: ROLE.ADMINISTRATOR,
  [SYSTEM_GROUPS.moderators]: ROLE.MODERATOR,
  [SYSTEM_GROUPS.fullMembers]: ROLE.MEMBER,
  [SYSTEM_GROUPS.members]: ROLE.MEMBER,
  [SYSTEM_GROUPS.everyone]: ROLE.GUEST,
};

export interface SystemMember {
  role: number;
  dateJoined: Date;
}

/** Whole days since `dateJoined`, as the family counts them (a started day does not count). */
function daysSince(dateJoined: Date, now: number): number {
  return Math.floor((now - dateJoined.getTime()) / 86_400_000);
}

/**
 * Is this person a direct member of the system group `name`? Members (role 400) are also full
 * members once their account is `waitingPeriodDays` whole days old; the higher roles reach
 * "role:fullmembers" through its subgroups, not directly.
 */
export function isDirectSystemMember(name: string, user: SystemMember, waitingPeriodDays: number, now = Date.now()): boolean {
  if (DIRECT_ROLE[name] !== user.role) return false;
  return name !== SYSTEM_GROUPS.fullMembers || daysSince(user.dateJoined, now) >= waitingPeriodDays;
}

/**
 * Names of the system groups this person is directly in, the role's own group first and
 * "role:fullmembers" last (the order the family announces a role change in).
 */
export function directSystemGroupNames(user: SystemMember, waitingPeriodDays: number, now = Date.now()): string[] {
  const names = Object.keys(DIRECT_ROLE).filter((n) => n !== SYSTEM_GROUPS.fullMembers);
  return [...names, SYSTEM_GROUPS.fullMembers].filter((n) => isDirectSystemMember(n, user, waitingPeriodDays, now));
}

/** The system group a user of each role is a direct member of whatever their account's age. */
export function directGroupForRole(role: number): string {
  return directSystemGroupNames({ role, dateJoined: new Date() }, Infinity)[0] ?? SYSTEM_GROUPS.everyone;
}

/** SQL literal of a system group name (the names are constants, never client input). */
const literal = (name: string) => `'${name.replace(/'/g, "''")}'`;

/**
 * The same rule as one SQL condition over `g` (user_groups), `u` (users) and `rl` (realms).
 * The waiting period is read from the realm's settings, its default being 0.
 */
const SYSTEM_MEMBER_CONDITION = Object.entries(DIRECT_ROLE)
  .map(([name, role]) => {
    const age =
      name === SYSTEM_GROUPS.fullMembers
        ? ` AND u.date_joined <= now() - make_interval(days => coalesce((rl.settings->>'waiting_period_threshold')::int, 0))`
        : '';
    return `(g.name = ${literal(name)} AND u.role = ${role}${age})`;
  })
  .join(' OR ');

/**
 * A statement giving (group_id, user_id) for every direct membership of active users in the
 * groups of the realm `$<realmParam>`: rows for user groups, the rule for system groups.
 */
export function directMembershipSql(realmParam = 1): string {
  const realm = `$${realmParam}`;
  return `SELECT m.group_id, m.user_id FROM user_group_members m
            JOIN user_groups g ON g.id = m.group_id AND NOT g.is_system_group
            JOIN users u ON u.id = m.user_id AND u.is_active
           WHERE g.realm_id = ${realm}
          UNION ALL
          SELECT g.id AS group_id, u.id AS user_id FROM user_groups g
            JOIN realms rl ON rl.id = g.realm_id
            JOIN users u ON u.realm_id = g.realm_id AND u.is_active
           WHERE g.realm_id = ${realm} AND g.is_system_group AND (${SYSTEM_MEMBER_CONDITION})`;
}

/** Direct member ids of each of the realm's groups, in id order (groups without members absent). */
export async function directMemberIdsByGroup(db: Reader, realmId: number): Promise<Map<number, number[]>> {
  const rows = await db.$queryRawUnsafe<Array<{ group_id: number; user_id: number }>>(
    `SELECT group_id, user_id FROM (${directMembershipSql(1)}) d ORDER BY group_id, user_id`,
    realmId,
  );
  const out = new Map<number, number[]>();
  for (const r of rows) {
    const list = out.get(r.group_id);
    if (list) list.push(r.user_id);
    else out.set(r.group_id, [r.user_id]);
  }
  return out;
}

/**
 * Active members of a group, in id order: its direct members, or (not `directOnly`) everyone in
 * it or in a group below it. Deactivated subgroups still count, as in the family's server.
 */
export async function groupMemberIds(db: Reader, realmId: number, groupId: number, directOnly: boolean): Promise<number[]> {
  const rows = await db.$queryRawUnsafe<Array<{ user_id: number }>>(
    `WITH RECURSIVE reach(id) AS (
       SELECT $2::int
       UNION
       SELECT s.subgroup_id FROM user_group_subgroups s JOIN reach r ON s.supergroup_id = r.id WHERE NOT $3::boolean
     )
     SELECT DISTINCT d.user_id FROM (${directMembershipSql(1)}) d JOIN reach r ON r.id = d.group_id ORDER BY d.user_id`,
    realmId,
    groupId,
    directOnly,
  );
  return rows.map((r) => r.user_id);
}

/** Whether the person is in the group (directly, or through its subgroups unless `directOnly`). */
export async function isGroupMember(db: Reader, realmId: number, groupId: number, userId: number, directOnly: boolean): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<Array<{ found: boolean }>>(
    `WITH RECURSIVE reach(id) AS (
       SELECT $2::int
       UNION
       SELECT s.subgroup_id FROM user_group_subgroups s JOIN reach r ON s.supergroup_id = r.id WHERE NOT $4::boolean
     )
     SELECT EXISTS (SELECT 1 FROM (${directMembershipSql(1)}) d JOIN reach r ON r.id = d.group_id WHERE d.user_id = $3) AS found`,
    realmId,
    groupId,
    userId,
    directOnly,
  );
  return rows[0]?.found === true;
}
