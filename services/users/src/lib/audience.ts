import { ROLE } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';
import { groupPredicate, realmGroupSetting } from './groups';

type Reader = Db | Tx;

/** Active people and bots of the realm: the audience of realm-wide events. */
export async function activeUserIds(db: Reader, realmId: number): Promise<number[]> {
  const rows = await db.user.findMany({ where: { realmId, isActive: true }, select: { id: true }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.id);
}

/** Active administrators and owners (not bots). */
export async function adminIds(db: Reader, realmId: number): Promise<number[]> {
  const rows = await db.user.findMany({
    where: { realmId, isActive: true, role: { lte: ROLE.ADMINISTRATOR } },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  return rows.map((r) => r.id);
}

/**
 * Who may know about `target` (and so receives realm_user events about them): everyone when the
 * realm lets everyone see all users; otherwise every non-guest, the target, and the guests who
 * share a channel or a direct conversation with them. Bots are visible to all.
 */
export async function usersWhoCanAccess(db: Reader, realmId: number, target: { id: number; isBot: boolean }): Promise<number[]> {
  const everyone = await activeUserIds(db, realmId);
  if (target.isBot) return everyone;
  const test = await groupPredicate(db, realmId, await realmGroupSetting(db, realmId, 'can_access_all_users_group'));
  const users = await db.user.findMany({ where: { realmId, isActive: true }, select: { id: true, role: true, dateJoined: true } });
  const restrictedGuests = users.filter((u) => u.role === ROLE.GUEST && u.id !== target.id && !test(u));
  if (!restrictedGuests.length) return everyone;
  const guestIds = restrictedGuests.map((g) => g.id);
  const sharing = await db.$queryRawUnsafe<Array<{ user_id: number }>>(
    `SELECT DISTINCT s2.user_id FROM subscriptions s1
       JOIN subscriptions s2 ON s2.stream_id = s1.stream_id AND s2.active
      WHERE s1.user_id = $1 AND s1.active AND s2.user_id = ANY($2::int[])
     UNION
     SELECT DISTINCT g.id FROM direct_conversations c, unnest(c.member_ids) AS g(id)
      WHERE c.realm_id = $3 AND $1 = ANY(c.member_ids) AND g.id = ANY($2::int[])`,
    target.id,
    guestIds,
    realmId,
  );
  const allowed = new Set(sharing.map((r) => r.user_id));
  const hidden = new Set(guestIds.filter((id) => !allowed.has(id)));
  return everyone.filter((id) => !hidden.has(id));
}
