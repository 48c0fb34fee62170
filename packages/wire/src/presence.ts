/**
 * Presence objects: the modern format (keyed by user id) and the legacy one (keyed by email), as
 * POST /users/me/presence, GET /realm/presence, presence events and register's presences give
 * them, and the timing facts clients are told.
 */

export const PRESENCE_TIMES = {
  /** How often clients are told to report (register: server_presence_ping_interval_seconds). */
  pingIntervalSecs: 60,
  /** How stale a timestamp may be before clients show the user offline. */
  offlineThresholdSecs: 200,
  /** Legacy status is "active" while the last activity is this close to the last connection. */
  legacyActiveOffsetSecs: 70,
  /** How far back presence is given when the client does not say. */
  defaultHistoryDays: 14,
} as const;

/** One stored presence row, with the owner's facts the formats need (times in epoch seconds). */
export interface PresenceRow {
  userId: number;
  email: string;
  dateJoined: number;
  activeAt: number | null;
  connectedAt: number | null;
  lastUpdateId: number;
}

/** The SELECT list that reads a PresenceRow from `user_presence p JOIN users u`. */
export const PRESENCE_ROW_COLUMNS = `p.user_id AS "userId", u.email AS "email",
  floor(extract(epoch FROM u.date_joined AT TIME ZONE 'UTC'))::int8 AS "dateJoined",
  floor(extract(epoch FROM p.last_active_time AT TIME ZONE 'UTC'))::int8 AS "activeAt",
  floor(extract(epoch FROM p.last_connected_time AT TIME ZONE 'UTC'))::int8 AS "connectedAt",
  p.last_update_id AS "lastUpdateId"`;

export type RawPresenceRow = { [K in keyof PresenceRow]: PresenceRow[K] | bigint | null };

/** pg hands int8 back as bigint; presence ids and times fit a double exactly. */
export function presenceRowOf(r: RawPresenceRow): PresenceRow {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    userId: Number(r.userId),
    email: String(r.email),
    dateJoined: Number(r.dateJoined),
    activeAt: n(r.activeAt),
    connectedAt: n(r.connectedAt),
    lastUpdateId: Number(r.lastUpdateId),
  };
}

/**
 * Never-reported times read as the join date (clients of this API always get numbers), but
 * never-active is never later than the last connection: someone who joined a minute ago and
 * then went invisible must not look active since joining.
 */
function times(row: PresenceRow): { active: number; connected: number } {
  const connected = row.connectedAt ?? row.dateJoined;
  return { active: row.activeAt ?? Math.min(row.dateJoined, connected), connected };
}

export function modernPresence(row: PresenceRow): { active_timestamp: number; idle_timestamp: number } {
  const t = times(row);
  return { active_timestamp: t.active, idle_timestamp: t.connected };
}

/** The legacy per-client entry; the client is always "website" (clients are not tracked). */
export function legacyClientEntry(row: PresenceRow) {
  const t = times(row);
  // Someone never reported active is idle, whatever date stands in for their activity.
  const active = row.activeAt !== null && t.active + PRESENCE_TIMES.legacyActiveOffsetSecs >= t.connected;
  return { client: 'website', status: active ? 'active' : 'idle', timestamp: active ? t.active : t.connected, pushable: false };
}

export function legacyPresence(row: PresenceRow) {
  const website = legacyClientEntry(row);
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}
