/**
 * Realm-wide parts of the initial state that do not depend on the viewer, kept per replica
 * between registers (a 1,000-person realm's user rows and group memberships are most of
 * register's reading and building, and they change rarely).
 *
 * Whether a kept copy is still current is asked of Postgres on every register, in one cheap
 * statement: a fingerprint of the (key, xmin) pairs of the rows it was made from. Every committed
 * insert, update or delete of such a row changes the set of row versions and their xmin (the id
 * of the transaction that wrote the version, never reused by a later one), so the fingerprint
 * changes with any write, whichever service or replica made it, and no event has to reach this
 * replica first (each replica's fan-out consumer sees only part of the stream). See
 * docs/adr/0016-register-kept-realm-parts.md.
 */
import { createHash } from 'node:crypto';
import { rawQuery, type Db } from '@chat/db';
import type { StateOptions } from '.';

/** Kept parts per replica; the least recently loaded goes first beyond this. */
const MAX_KEPT = 128;

export interface Kept<T> {
  fingerprint: string;
  /** Shared by every register that finds it current: never modify. */
  rows: T;
  /** Objects built from these rows, by variant, made by whoever reads them; dropped with the rows. */
  built: Map<string, unknown>;
}

/** A prepared statement's name for each fingerprint statement's text (a name must always name one text). */
const names = new Map<string, string>();
function statementName(sql: string): string {
  let name = names.get(sql);
  if (!name) names.set(sql, (name = `fingerprint_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`));
  return name;
}

/** One store per database client, so that services started in one process on different databases never share rows. */
const stores = new WeakMap<Db, Map<string, Kept<unknown>>>();

/**
 * The count of the rows of `from` (a table, or tables joined, with alias r for the rows
 * fingerprinted) where `where` ($1 is the realm id) and the sum of a 64-bit hash of each row's
 * `key:xmin`. A sum needs no sort and no long string, unlike a digest of the ordered list; a
 * change goes unseen only if the hashes of the versions it removed and added summed to the same,
 * about one chance in 2^64.
 */
export function fingerprintSql(from: string, where: string, key: string[]): string {
  const text = [...key, 'r.xmin'].map((k) => `${k}::text`).join(` || ':' || `);
  return `(SELECT count(*)::text || ':' || coalesce(sum(hashtextextended(${text}, 0)), 0)::text FROM ${from} WHERE ${where})`;
}

/**
 * The rows of `part` of the realm as of now. `fingerprint` is one statement's select list of
 * fingerprintSql terms. It is read before the rows: a write committed in between is in the rows
 * but not in the fingerprint kept with them, so the next register sees a different fingerprint
 * and reads again; kept rows are never older than their fingerprint.
 */
export async function keptRows<T>(db: Db, part: string, realmId: number, fingerprint: string[], load: () => Promise<T>): Promise<Kept<T>> {
  let store = stores.get(db);
  if (!store) stores.set(db, (store = new Map()));
  const sql = `SELECT ${fingerprint.join(` || '/' || `)} AS f`;
  const [row] = await rawQuery<{ f: string }>(db, sql, [realmId], statementName(sql));
  const now = row?.f ?? '';
  const key = `${part} ${realmId}`;
  const kept = store.get(key) as Kept<T> | undefined;
  if (kept && kept.fingerprint === now) return kept;
  const fresh: Kept<T> = { fingerprint: now, rows: await load(), built: new Map() };
  store.delete(key);
  store.set(key, fresh);
  if (store.size > MAX_KEPT) store.delete(store.keys().next().value!);
  return fresh;
}

/** What `build` makes of kept rows for `variant`, made once per kept copy. */
export function builtOnce<T>(kept: Kept<unknown>, variant: string, build: () => T): T {
  if (kept.built.has(variant)) return kept.built.get(variant) as T;
  const value = build();
  kept.built.set(variant, value);
  return value;
}

/**
 * Reads that more than one section needs, made once per register: the same options object is
 * handed to every section of one initial state.
 */
const perRegister = new WeakMap<StateOptions, Map<string, Promise<unknown>>>();

export function once<T>(opts: StateOptions, key: string, read: () => Promise<T>): Promise<T> {
  let reads = perRegister.get(opts);
  if (!reads) perRegister.set(opts, (reads = new Map()));
  let pending = reads.get(key) as Promise<T> | undefined;
  if (!pending) reads.set(key, (pending = read()));
  return pending;
}
