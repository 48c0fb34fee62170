/**
 * The realm's user rows and custom profile data, kept per replica between registers. A
 * 1,000-person realm's rows are most of register's reading and building; they change rarely.
 *
 * Whether a kept copy is still current is asked of Postgres on every register, in one cheap
 * statement: a fingerprint of the (id, xmin) pairs of the realm's users and profile values. Every
 * committed insert, update or delete of such a row changes its row version's xmin (the id of the
 * transaction that wrote it, never reused by a later one), so the fingerprint changes with any
 * write, whichever service or replica made it, and no event has to reach this replica first
 * (each replica's fan-out consumer sees only part of the stream). See docs/adr/0016.
 */
import type { Db, User } from '@chat/db';
import { profileDataByUser, type ProfileData } from '@chat/wire';

const FINGERPRINT_SQL = `SELECT
  (SELECT coalesce(md5(string_agg(u.id::text || ':' || u.xmin::text, ',' ORDER BY u.id)), '')
     FROM users u WHERE u.realm_id = $1) AS users,
  (SELECT coalesce(md5(string_agg(v.id::text || ':' || v.xmin::text, ',' ORDER BY v.id)), '')
     FROM custom_profile_field_values v JOIN custom_profile_fields f ON f.id = v.field_id WHERE f.realm_id = $1) AS profiles`;

/** Realms kept per replica; the least recently loaded goes first beyond this. */
const MAX_REALMS = 64;

export interface RealmPeople {
  fingerprint: string;
  /** Every user of the realm, by id ascending. Shared: never modify. */
  users: User[];
  profiles: Map<number, ProfileData>;
  /** Objects built from these rows, by whoever builds them (see users.ts); dropped with the rows. */
  built: Map<string, unknown>;
}

/** One cache per database client, so that services started in one process on different databases never share rows. */
const caches = new WeakMap<Db, Map<number, RealmPeople>>();

async function fingerprintOf(db: Db, realmId: number): Promise<string> {
  const [row] = await db.$queryRawUnsafe<Array<{ users: string; profiles: string }>>(FINGERPRINT_SQL, realmId);
  return `${row?.users ?? ''}/${row?.profiles ?? ''}`;
}

/**
 * The realm's people as of now. The fingerprint is read before the rows: a write committed in
 * between is in the rows but not in the fingerprint kept with them, so the next register sees a
 * different fingerprint and reads again; kept rows are never older than their fingerprint.
 */
export async function loadRealmPeople(db: Db, realmId: number): Promise<RealmPeople> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const fingerprint = await fingerprintOf(db, realmId);
  const kept = cache.get(realmId);
  if (kept && kept.fingerprint === fingerprint) return kept;
  const [users, values] = await Promise.all([
    db.user.findMany({ where: { realmId }, orderBy: { id: 'asc' } }),
    db.customProfileFieldValue.findMany({ where: { field: { realmId } } }),
  ]);
  const people: RealmPeople = { fingerprint, users, profiles: profileDataByUser(values), built: new Map() };
  cache.delete(realmId);
  cache.set(realmId, people);
  if (cache.size > MAX_REALMS) cache.delete(cache.keys().next().value!);
  return people;
}
