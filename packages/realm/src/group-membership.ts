/**
 * Who is in a group-setting value ("who may do X"): system groups decided by role (and account
 * age for full members), user groups by their members, subgroups followed transitively. Shared
 * by the users service's permission checks and register's can_* facts about the viewer.
 */
import type { Db, Tx } from '@chat/db';
import { SYSTEM_GROUPS, SYSTEM_GROUP_NESTING } from './groups';
import { directSystemGroupNames, isDirectSystemMember, type SystemMember } from './system-group-members';
import { realmGroupSettings, realmPolicies, type GroupSettingValue } from './realm-settings';

type Reader = Db | Tx;

export interface Member {
  id: number;
  role: number;
  dateJoined: Date;
}

/** Each system group with the system groups nested in it, itself included (SYSTEM_GROUP_NESTING). */
function systemGroupsWithin(name: string): string[] {
  const below = SYSTEM_GROUP_NESTING.filter(([sup]) => sup === name).map(([, sub]) => sub);
  return [name, ...below.flatMap(systemGroupsWithin)];
}

/**
 * Is this person in the system group `name`, directly or through the system groups nested in
 * it? Roles and account age decide (system-group-members.ts), not rows: they cannot drift apart.
 */
function inSystemGroup(name: string, user: Member, waitingPeriodDays: number): boolean {
  return systemGroupsWithin(name).some((n) => isDirectSystemMember(n, user, waitingPeriodDays));
}

/** The realm's waiting_period_threshold: days before a member is a full member. */
export async function realmWaitingPeriodDays(db: Pick<Reader, 'realm'>, realmId: number): Promise<number> {
  const realm = await db.realm.findUniqueOrThrow({ where: { id: realmId }, select: { settings: true } });
  return Number(realmPolicies(realm.settings).waiting_period_threshold) || 0;
}

/**
 * Ids of the system groups a person with this role and join date is directly in (role group
 * first, then full members), for announcing membership as it changes with a new account or role.
 */
export async function directSystemGroupIds(db: Reader, realmId: number, user: SystemMember): Promise<number[]> {
  const [ids, waitingPeriodDays] = await Promise.all([systemGroupIds(db, realmId), realmWaitingPeriodDays(db, realmId)]);
  return directSystemGroupNames(user, waitingPeriodDays).map((name) => ids.get(name)!);
}

/** A group-setting value resolved: its people named directly and the system groups it reaches. */
interface ResolvedSetting {
  directMembers: Set<number>;
  systemNames: string[];
  waitingPeriodDays: number;
}

async function resolveGroupSetting(db: Reader, realmId: number, value: GroupSettingValue): Promise<ResolvedSetting> {
  if (typeof value === 'number') {
    // A system group alone (the usual value of a setting) is decided by role: its nested
    // system groups are narrower roles, so no row needs reading. Full members also need the
    // realm's waiting period, read below.
    const name = systemGroupNameOf(await systemGroupIds(db, realmId), value);
    if (name !== undefined && name !== SYSTEM_GROUPS.fullMembers) return { directMembers: new Set(), systemNames: [name], waitingPeriodDays: 0 };
  }
  const waitingPeriodDays = await realmWaitingPeriodDays(db, realmId);
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
  // System groups are decided by role, never by their membership rows: rows for some of them
  // (full members) are not kept, and rows could lag a role change.
  const systemNames = rows.filter((r) => r.is_system_group).map((r) => r.name);
  const userGroupIds = rows.filter((r) => !r.is_system_group).map((r) => r.id);
  const members = userGroupIds.length
    ? await db.userGroupMember.findMany({ where: { groupId: { in: userGroupIds } }, select: { userId: true } })
    : [];
  for (const m of members) directMembers.add(m.userId);
  return { directMembers, systemNames, waitingPeriodDays };
}

function predicateOf({ directMembers, systemNames, waitingPeriodDays }: ResolvedSetting): (user: Member) => boolean {
  return (user) => directMembers.has(user.id) || systemNames.some((n) => inSystemGroup(n, user, waitingPeriodDays));
}

/**
 * A test of membership in a group-setting value (a group id, or direct members plus
 * subgroups), following subgroups transitively. Built once per request, then applied to as
 * many users as needed (permission checks, event audiences). The one membership rule of every
 * service.
 */
export async function groupPredicate(db: Reader, realmId: number, value: GroupSettingValue): Promise<(user: Member) => boolean> {
  return predicateOf(await resolveGroupSetting(db, realmId, value));
}

function systemGroupNameOf(ids: Map<string, number>, groupId: number): string | undefined {
  for (const [name, id] of ids) if (id === groupId) return name;
  return undefined;
}

/**
 * System groups are created with their realm, in its transaction, and can be neither renamed,
 * deactivated nor deleted, so their ids are read once per process and realm. Bounded so a
 * process serving very many realms does not grow without end.
 */
const systemGroupCache = new Map<number, Map<string, number>>();
const SYSTEM_GROUP_CACHE_REALMS = 10_000;

/** Ids of the realm's system groups by name ("role:members" -> 12). */
export async function systemGroupIds(db: Pick<Reader, 'userGroup'>, realmId: number): Promise<Map<string, number>> {
  const cached = systemGroupCache.get(realmId);
  if (cached) return cached;
  const groups = await db.userGroup.findMany({ where: { realmId, isSystemGroup: true }, select: { id: true, name: true } });
  const ids = new Map(groups.map((g) => [g.name, g.id]));
  // Only a complete set is kept: one read before the realm's creating transaction commits is not.
  if (ids.size === Object.keys(SYSTEM_GROUPS).length) {
    if (systemGroupCache.size >= SYSTEM_GROUP_CACHE_REALMS) systemGroupCache.clear();
    systemGroupCache.set(realmId, ids);
  }
  return ids;
}

/** The realm's value of a group-setting policy (e.g. can_invite_users_group), defaults resolved. */
export async function realmGroupSetting(db: Reader, realmId: number, setting: string): Promise<GroupSettingValue> {
  const realm = await db.realm.findUniqueOrThrow({ where: { id: realmId }, select: { settings: true } });
  const value = realmGroupSettings(realm.settings, await systemGroupIds(db, realmId))[setting];
  if (value === undefined) throw new Error(`unknown realm group setting ${setting}`);
  return value;
}

/** The person a permission is asked for: a loaded row, or an id to load it by. */
export type MemberRef = Member | number;

async function memberOf(db: Reader, ref: MemberRef): Promise<Member> {
  if (typeof ref !== 'number') return ref;
  return db.user.findUniqueOrThrow({ where: { id: ref }, select: { id: true, role: true, dateJoined: true } });
}

/** Whether the person is in a group-setting value (the one rule of groupPredicate). */
export async function isInGroupSetting(db: Reader, realmId: number, value: GroupSettingValue, ref: MemberRef): Promise<boolean> {
  const [test, user] = await Promise.all([groupPredicate(db, realmId, value), memberOf(db, ref)]);
  return test(user);
}

/** Ids of every active user of the realm a group-setting value covers (event audiences, mentions). */
export async function groupSettingMemberIds(db: Reader, realmId: number, value: GroupSettingValue): Promise<Set<number>> {
  const resolved = await resolveGroupSetting(db, realmId, value);
  // Without a system group only the people named can be in it: no need to read the whole realm.
  const where = resolved.systemNames.length ? { realmId, isActive: true } : { realmId, isActive: true, id: { in: [...resolved.directMembers] } };
  const users = await db.user.findMany({ where, select: { id: true, role: true, dateJoined: true } });
  const test = predicateOf(resolved);
  return new Set(users.filter(test).map((u) => u.id));
}
