import type { Services } from '../context';

/** Longest a replica trusts its copy without a change being announced (a lost version key). */
const MAX_AGE_MS = 60_000;

/** Who has anything to push to, as one replica last read it. */
export interface Holders {
  /** Users with an end-to-end encrypted device or a legacy token. */
  users: Set<number>;
  /** The same users by realm: a realm missing here has no one to notify. */
  byRealm: Map<number, Set<number>>;
}

/**
 * Who has anything to push to: the users with an end-to-end encrypted device or a legacy token.
 * Most people of most realms have neither, and a message event for them needs no database read.
 *
 * Each replica keeps the set in memory. Every change of devices or tokens bumps a version key in
 * Redis after it commits (bumpDeviceVersion); a replica reads that key once per batch of events
 * and reloads the set (one query) only when it moved. A registration racing a message may miss
 * that one message, as a registration a moment later would.
 */
export class DeviceHolders {
  private holders: Holders = { users: new Set(), byRealm: new Map() };
  private version: string | null | undefined;
  private loadedAt = 0;

  constructor(private readonly services: Services) {}

  /** The current holders; costs one Redis GET, and one query when devices changed. */
  async current(): Promise<Holders> {
    const version = await this.services.redis.get(deviceVersionKey(this.services));
    if (version !== this.version || Date.now() - this.loadedAt > MAX_AGE_MS) {
      const rows = await this.services.db.$queryRawUnsafe<Array<{ user_id: number; realm_id: number }>>(
        `SELECT user_id, realm_id FROM push_devices UNION SELECT user_id, realm_id FROM push_device_tokens`,
      );
      const holders: Holders = { users: new Set(), byRealm: new Map() };
      for (const { user_id, realm_id } of rows) {
        holders.users.add(user_id);
        const inRealm = holders.byRealm.get(realm_id);
        if (inRealm) inRealm.add(user_id);
        else holders.byRealm.set(realm_id, new Set([user_id]));
      }
      this.holders = holders;
      this.version = version;
      this.loadedAt = Date.now();
    }
    return this.holders;
  }
}

const USERS_KEY = Buffer.from('"users"');
const UNICODE_ESCAPE = Buffer.from('\\u');

/**
 * Whether a payload's `users` list (JSON text as UTF-8 bytes) may hold any of `ids`, read
 * without parsing the payload. Every member named `users`, at any depth, is found: a quote
 * inside a JSON string is escaped, so `"users"` followed by a colon is such a key. Each one's
 * array (ids only, which outboxPayload checks) is read as digits up to its closing bracket; a
 * `users` of 'realm' lists no one, and the handlers skip it too. Bytes 0x30-0x39, '"', ':', '[',
 * ']' and '\\' are those ASCII characters in UTF-8 and nothing else. True means "parse to know".
 */
export function listsAnyOf(json: Buffer, ids: ReadonlySet<number>): boolean {
  // A key may be spelt with escapes ("user\u0073"); Postgres never writes one, others might.
  if (json.includes(UNICODE_ESCAPE)) return true;
  for (let at = json.indexOf(USERS_KEY); at >= 0; at = json.indexOf(USERS_KEY, at + USERS_KEY.length)) {
    let i = skipSpace(json, at + USERS_KEY.length);
    if (json[i] !== 0x3a) continue; // a string value "users", not a key
    i = skipSpace(json, i + 1);
    if (json[i] !== 0x5b) continue; // not a list: 'realm'
    let value = 0;
    let digits = 0;
    for (i++; i < json.length; i++) {
      const c = json[i]!;
      if (c >= 0x30 && c <= 0x39) {
        value = value * 10 + (c - 0x30);
        digits++;
        continue;
      }
      // Longer runs are no user id (and would lose precision).
      if (digits > 0 && digits <= 15 && ids.has(value)) return true;
      value = 0;
      digits = 0;
      if (c === 0x5d) break;
    }
  }
  return false;
}

function skipSpace(json: Buffer, i: number): number {
  while (i < json.length && (json[i] === 0x20 || json[i] === 0x0a || json[i] === 0x0d || json[i] === 0x09)) i++;
  return i;
}

export function deviceVersionKey(services: Pick<Services, 'keys'>): string {
  return services.keys.pushDeviceHoldersVersion();
}

/** Announces a committed change of someone's devices or tokens to every replica's cache. */
export async function bumpDeviceVersion(services: Pick<Services, 'keys' | 'redis'>): Promise<void> {
  await services.redis.incr(deviceVersionKey(services));
}
