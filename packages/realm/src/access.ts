/**
 * Who may see whom when a realm narrows can_access_all_users_group. Only guests outside that
 * group are ever limited ("restricted guests"); they may know about bots, themselves, everyone
 * subscribed to a channel they are subscribed to, and everyone in their direct conversations.
 * One file, used in both directions (what a viewer may read, who hears about a person), by
 * register, the users service and anything else that answers with people, so they agree.
 */
import { ROLE, SYSTEM_GROUPS, isGuest } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { realmGroupSettings } from './realm-settings';
import { systemGroupIds } from './group-membership';

type Reader = Pick<Db | Tx, '$queryRawUnsafe' | 'realm' | 'userGroup' | 'user'>;

/**
 * The people a guest may know about when the realm does not let guests see everyone: bots,
 * the guest, everyone subscribed to a channel the guest is subscribed to, and everyone in the
 * guest's direct conversations.
 */
export async function usersSharingWithGuest(db: Pick<Db | Tx, '$queryRawUnsafe'>, realmId: number, guestId: number): Promise<Set<number>> {
  const rows = await db.$queryRawUnsafe<Array<{ id: number }>>(
    `SELECT id FROM users WHERE realm_id = $2 AND (is_bot OR id = $1)
     UNION
     SELECT s2.user_id FROM subscriptions s1
       JOIN subscriptions s2 ON s2.stream_id = s1.stream_id AND s2.active
      WHERE s1.user_id = $1 AND s1.active
     UNION
     SELECT g.id FROM direct_conversations c, unnest(c.member_ids) AS g(id)
      WHERE c.realm_id = $2 AND $1 = ANY(c.member_ids)`,
    guestId,
    realmId,
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * The same rule seen from the other side: which of `guestIds` share a channel or a direct
 * conversation with `targetId`.
 */
async function guestsSharingWith(db: Pick<Db | Tx, '$queryRawUnsafe'>, realmId: number, targetId: number, guestIds: number[]): Promise<Set<number>> {
  const rows = await db.$queryRawUnsafe<Array<{ user_id: number }>>(
    `SELECT s2.user_id FROM subscriptions s1
       JOIN subscriptions s2 ON s2.stream_id = s1.stream_id AND s2.active
      WHERE s1.user_id = $1 AND s1.active AND s2.user_id = ANY($2::int[])
     UNION
     SELECT g.id FROM direct_conversations c, unnest(c.member_ids) AS g(id)
      WHERE c.realm_id = $3 AND $1 = ANY(c.member_ids) AND g.id = ANY($2::int[])`,
    targetId,
    guestIds,
    realmId,
  );
  return new Set(rows.map((r) => r.user_id));
}

/**
 * The realm's guests (or those of `among`) outside can_access_all_users_group. Membership of the
 * setting's value follows subgroups; of the system groups a guest is only ever in "everyone"
 * (and "internet"), decided by role as everywhere else, so role changes cannot drift from it.
 */
export async function restrictedGuestIds(db: Reader, realmId: number, among?: number[]): Promise<Set<number>> {
  const [realm, systemGroups] = await Promise.all([
    db.realm.findUniqueOrThrow({ where: { id: realmId }, select: { settings: true } }),
    systemGroupIds(db, realmId),
  ]);
  const value = realmGroupSettings(realm.settings, systemGroups).can_access_all_users_group!;
  const roots = typeof value === 'number' ? [value] : value.direct_subgroups;
  const directMembers = typeof value === 'number' ? [] : value.direct_members;
  const rows = await db.$queryRawUnsafe<Array<{ id: number }>>(
    `WITH RECURSIVE reach(id) AS (
       SELECT unnest($2::int[])
       UNION
       SELECT s.subgroup_id FROM user_group_subgroups s JOIN reach r ON s.supergroup_id = r.id
     ), reached AS (
       SELECT g.id, g.name, g.is_system_group FROM user_groups g JOIN reach r ON r.id = g.id
        WHERE g.realm_id = $1 AND NOT g.deactivated
     )
     SELECT u.id FROM users u
      WHERE u.realm_id = $1 AND u.role = $3
        AND ($5::int[] IS NULL OR u.id = ANY($5::int[]))
        AND NOT (u.id = ANY($4::int[]))
        AND NOT EXISTS (SELECT 1 FROM reached WHERE is_system_group AND name = ANY($6::text[]))
        AND NOT EXISTS (
          SELECT 1 FROM reached g JOIN user_group_members m ON m.group_id = g.id AND m.user_id = u.id
           WHERE NOT g.is_system_group
        )`,
    realmId,
    roots,
    ROLE.GUEST,
    directMembers,
    among ?? null,
    [SYSTEM_GROUPS.everyone, SYSTEM_GROUPS.internet],
  );
  return new Set(rows.map((r) => r.id));
}

/** The ids `viewer` may know about, or null when they may see everyone (all but restricted guests). */
export async function accessibleUserIds(db: Reader, realmId: number, viewer: { id: number; role: number }): Promise<Set<number> | null> {
  if (!isGuest(viewer)) return null;
  const restricted = await restrictedGuestIds(db, realmId, [viewer.id]);
  if (!restricted.has(viewer.id)) return null;
  return usersSharingWithGuest(db, realmId, viewer.id);
}

/** May `viewer` know about `target`? Bots and oneself always. */
export async function canAccessUser(
  db: Reader,
  realmId: number,
  viewer: { id: number; role: number },
  target: { id: number; isBot: boolean },
): Promise<boolean> {
  if (target.isBot || target.id === viewer.id || !isGuest(viewer)) return true;
  const allowed = await accessibleUserIds(db, realmId, viewer);
  return allowed === null || allowed.has(target.id);
}

/**
 * Who may know about `target` (and so hears of changes to them), among the realm's active users:
 * everyone, except restricted guests who share neither a channel nor a direct conversation with
 * them. Bots are visible to all.
 */
export async function usersWhoCanAccess(db: Reader, realmId: number, target: { id: number; isBot: boolean }): Promise<number[]> {
  const active = await db.user.findMany({ where: { realmId, isActive: true }, select: { id: true }, orderBy: { id: 'asc' } });
  const everyone = active.map((u) => u.id);
  if (target.isBot) return everyone;
  const restricted = [...(await restrictedGuestIds(db, realmId, everyone))].filter((id) => id !== target.id);
  if (!restricted.length) return everyone;
  const sharing = await guestsSharingWith(db, realmId, target.id, restricted);
  const hidden = new Set(restricted.filter((id) => !sharing.has(id)));
  return everyone.filter((id) => !hidden.has(id));
}

/** The domain of the `user<id>@<domain>` addresses that stand in for hidden ones: the realm's host. */
export function fakeEmailDomain(realmUrl: string): string {
  try {
    return new URL(realmUrl).hostname || 'chat.invalid';
  } catch {
    return 'chat.invalid';
  }
}

/** The name, and the avatar (Gravatar's generic silhouette, the same for all), of an inaccessible user. */
export const INACCESSIBLE_USER_NAME = 'Unknown user';
export const INACCESSIBLE_USER_AVATAR_URL = 'https://secure.gravatar.com/avatar/00000000000000000000000000000000?d=mp&f=y';

/**
 * What a restricted guest is shown in place of a person they may not access, where an answer
 * lists people by id (GET /users): a User object whose only real content is the id. The
 * address is the `user<id>@<host>` placeholder the API uses for hidden addresses.
 */
export function inaccessibleUserObject(userId: number, fakeEmailDomain: string): Record<string, unknown> {
  return {
    user_id: userId,
    delivery_email: null,
    email: `user${userId}@${fakeEmailDomain}`,
    full_name: INACCESSIBLE_USER_NAME,
    date_joined: '1970-01-01T00:00:00+00:00',
    is_active: true,
    is_owner: false,
    is_admin: false,
    is_guest: false,
    is_bot: false,
    bot_type: null,
    bot_owner_id: null,
    role: ROLE.MEMBER,
    timezone: '',
    avatar_url: INACCESSIBLE_USER_AVATAR_URL,
    avatar_version: 1,
    is_imported_stub: false,
    profile_data: {},
  };
}
