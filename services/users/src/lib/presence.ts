/**
 * Presence data: the timing rules and the realm-wide read behind POST /users/me/presence and
 * GET /realm/presence. The two formats (modern keyed by user id, legacy keyed by email) are
 * defined once in @chat/wire, for this service and for register's presences.
 */
import type { Db, Tx } from '@chat/db';
import { accessibleUserIds } from '@chat/realm';
import { legacyPresence, modernPresence, PRESENCE_ROW_COLUMNS, PRESENCE_TIMES, presenceRowOf, type PresenceRow, type RawPresenceRow } from '@chat/wire';

export { legacyClientEntry, legacyPresence, modernPresence, type PresenceRow } from '@chat/wire';

type Reader = Db | Tx;

export const PRESENCE = {
  ...PRESENCE_TIMES,
  /**
   * A stored time is only moved forward once it is this much older than the report: a client
   * pinging every minute (or several tabs pinging) costs at most one write a minute.
   */
  updateMinFreqSecs: 55,
} as const;

/**
 * Away for longer than this before an "active" report, the user is announced at once by a
 * presence event: otherwise others could still see them offline for up to a ping interval.
 */
export const BECAME_ONLINE_AFTER_SECS = PRESENCE.offlineThresholdSecs - PRESENCE.pingIntervalSecs - 10;

export function realmPresenceDisabled(settings: unknown): boolean {
  return (settings as Record<string, unknown> | null)?.presence_disabled === true;
}

export interface RealmPresenceQuery {
  realmId: number;
  viewer: { id: number; role: number; dateJoined: Date };
  /** Modern format (keyed by user id) rather than legacy (keyed by email). */
  slim: boolean;
  /** Only rows changed after this id; absent or <= 0: rows connected within the history window. */
  lastUpdateId?: number;
  historyDays?: number;
}

export interface RealmPresence {
  presences: Record<string, unknown>;
  server_timestamp: number;
  presence_last_update_id: number;
}

/**
 * Presence of the realm's active people as the viewer may see it. presence_last_update_id is
 * the highest id returned, the client's own when nothing changed, -1 when nothing was read.
 */
export async function readRealmPresence(db: Reader, q: RealmPresenceQuery): Promise<RealmPresence> {
  const serverTimestamp = Date.now() / 1000;
  const realm = await db.realm.findUniqueOrThrow({ where: { id: q.realmId }, select: { settings: true } });
  if (realmPresenceDisabled(realm.settings)) return { presences: {}, server_timestamp: serverTimestamp, presence_last_update_id: -1 };
  const days = q.historyDays ?? PRESENCE.defaultHistoryDays;
  let rows: PresenceRow[] = [];
  if (days !== 0) {
    const conditions = ['p.realm_id = $1', 'u.is_active', 'NOT u.is_bot'];
    const args: unknown[] = [q.realmId];
    if (q.lastUpdateId !== undefined) {
      args.push(q.lastUpdateId);
      conditions.push(`p.last_update_id > $${args.length}`);
    }
    // A client that already holds data only needs what changed, however old.
    if (q.lastUpdateId === undefined || q.lastUpdateId <= 0) {
      args.push(Date.now() - days * 86_400_000);
      conditions.push(`p.last_connected_time >= to_timestamp($${args.length}::float8 / 1000) AT TIME ZONE 'UTC'`);
    }
    const raw = await db.$queryRawUnsafe<RawPresenceRow[]>(
      `SELECT ${PRESENCE_ROW_COLUMNS} FROM user_presence p JOIN users u ON u.id = p.user_id WHERE ${conditions.join(' AND ')}`,
      ...args,
    );
    rows = raw.map(presenceRowOf);
    const allowed = await accessibleUserIds(db, q.realmId, q.viewer);
    if (allowed) rows = rows.filter((r) => allowed.has(r.userId));
  }
  const presences: Record<string, unknown> = {};
  for (const row of rows) {
    if (q.slim) presences[String(row.userId)] = modernPresence(row);
    else presences[row.email] = legacyPresence(row);
  }
  const lastUpdateId = rows.length ? rows.reduce((m, r) => Math.max(m, r.lastUpdateId), -1) : (q.lastUpdateId ?? -1);
  return { presences, server_timestamp: serverTimestamp, presence_last_update_id: lastUpdateId };
}
