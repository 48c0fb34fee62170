import type { Db, Tx } from '@chat/db';

/**
 * The people a guest may know about when the realm does not let guests see everyone: bots,
 * the guest, everyone subscribed to a channel the guest is subscribed to, and everyone in the
 * guest's direct conversations. One definition, because initial state (register) and the
 * users service's answers must agree on who a guest can see.
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
