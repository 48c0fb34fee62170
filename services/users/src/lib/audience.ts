import { ROLE } from '@chat/contracts';
import type { Db, Tx } from '@chat/db';

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

// Who hears about a person when guests may not see everyone: one rule, in @chat/realm.
export { usersWhoCanAccess } from '@chat/realm';
