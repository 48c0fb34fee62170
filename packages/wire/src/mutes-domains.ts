import type { Db, Tx } from '@chat/db';
import { unixSeconds } from './time';

type Reader = Db | Tx;

/** A user's muted users, as the `muted_users` event and register carry them: oldest mute first. */
export async function mutedUsersList(db: Reader, userId: number): Promise<Array<{ id: number; timestamp: number }>> {
  const rows = await db.mutedUser.findMany({ where: { userId }, orderBy: [{ dateMuted: 'asc' }, { id: 'asc' }] });
  return mutedUsersFrom(rows);
}

/** mutedUsersList from the user's rows, oldest first. */
export function mutedUsersFrom(rows: Array<{ mutedUserId: number; dateMuted: Date }>): Array<{ id: number; timestamp: number }> {
  return rows.map((r) => ({ id: r.mutedUserId, timestamp: unixSeconds(r.dateMuted) }));
}

export function realmDomainObject(row: { domain: string; allowSubdomains: boolean }) {
  return { domain: row.domain, allow_subdomains: row.allowSubdomains };
}

/** The realm's allowed email domains, as GET /realm/domains and register's realm_domains list them. */
export async function realmDomainsList(db: Reader, realmId: number) {
  const rows = await db.realmDomain.findMany({ where: { realmId }, orderBy: { domain: 'asc' } });
  return rows.map(realmDomainObject);
}
