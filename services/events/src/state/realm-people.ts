/** The realm's user rows and custom profile data, kept per replica between registers (kept.ts). */
import type { Db, User } from '@chat/db';
import { profileDataByUser, type ProfileData } from '@chat/wire';
import { fingerprintSql, keptRows, once, type Kept } from './kept';
import type { StateOptions } from '.';

const FINGERPRINT = [
  fingerprintSql('users r', 'r.realm_id = $1', ['r.id']),
  fingerprintSql('custom_profile_field_values r JOIN custom_profile_fields f ON f.id = r.field_id', 'f.realm_id = $1', ['r.id']),
];

export interface RealmPeople {
  /** Every user of the realm, by id ascending. */
  users: User[];
  profiles: Map<number, ProfileData>;
}

export function loadRealmPeople(db: Db, realmId: number): Promise<Kept<RealmPeople>> {
  return keptRows(db, 'people', realmId, FINGERPRINT, async () => {
    const [users, values] = await Promise.all([
      db.user.findMany({ where: { realmId }, orderBy: { id: 'asc' } }),
      db.customProfileFieldValue.findMany({ where: { field: { realmId } } }),
    ]);
    return { users, profiles: profileDataByUser(values) };
  });
}

/** The realm's people, read (or found current) once per register. */
export function realmPeople(db: Db, opts: StateOptions): Promise<Kept<RealmPeople>> {
  return once(opts, 'people', () => loadRealmPeople(db, opts.realm.id));
}

/** The viewer's own row (null for spectators), from the realm's people. */
export async function viewerRow(db: Db, opts: StateOptions): Promise<User | null> {
  const userId = opts.identity.userId;
  if (userId === undefined) return null;
  return (await realmPeople(db, opts)).rows.users.find((u) => u.id === userId) ?? null;
}
