/** The realm's user rows and custom profile data, kept per replica between registers (kept.ts). */
import type { Db, User } from '@chat/db';
import { profileDataByUser, type ProfileData } from '@chat/wire';
import { fingerprintSql, keptRows, type Kept } from './kept';

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
