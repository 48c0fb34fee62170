/**
 * presence: the realm's presence data at registration, in the format the client asked for
 * (slim_presence or simplified_presence_events: keyed by user id; otherwise legacy, keyed by
 * email), limited to presence_history_limit_days (default 14) and to the people the viewer may
 * access. The users service writes this table; both take the formats from @chat/wire.
 */
import { rawQuery, type Db } from '@chat/db';
import { accessibleUserIds } from '@chat/realm';
import { legacyPresence, modernPresence, PRESENCE_ROW_COLUMNS, PRESENCE_TIMES, presenceRowOf, type PresenceRow as Row, type RawPresenceRow } from '@chat/wire';
import type { StateOptions, Want } from '.';

const PRESENCE_SQL = `
  SELECT ${PRESENCE_ROW_COLUMNS}
    FROM user_presence p JOIN users u ON u.id = p.user_id
   WHERE p.realm_id = $1 AND u.is_active AND NOT u.is_bot
     AND p.last_connected_time >= to_timestamp($2::float8 / 1000) AT TIME ZONE 'UTC'`;

async function presenceRows(db: Db, opts: StateOptions, viewerId: number, days: number): Promise<Row[]> {
  const raw = await rawQuery<RawPresenceRow>(db, PRESENCE_SQL, [opts.realm.id, Date.now() - days * 86_400_000], 'register_presence');
  const rows = raw.map(presenceRowOf);
  const role = opts.identity.role;
  const allowed = role === undefined ? null : await accessibleUserIds(db, opts.realm.id, { id: viewerId, role });
  return allowed ? rows.filter((r) => allowed.has(r.userId)) : rows;
}

export async function presenceSection(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  if (!want('presence')) return out;
  const serverTimestamp = Date.now() / 1000;
  const viewerId = opts.identity.userId;
  const disabled = (opts.realm.settings as Record<string, unknown> | null)?.presence_disabled === true;
  const days = opts.presenceHistoryLimitDays ?? PRESENCE_TIMES.defaultHistoryDays;
  // Spectators see nobody's presence; 0 days means the client wants none.
  const rows = viewerId === undefined || disabled || days === 0 ? [] : await presenceRows(db, opts, viewerId, days);
  // Clients that take modern presence events want the modern initial format too.
  const slim = opts.slimPresence || opts.clientCapabilities.simplified_presence_events === true;
  const presences: Record<string, unknown> = {};
  for (const r of rows) {
    if (slim) presences[String(r.userId)] = modernPresence(r);
    else presences[r.email] = legacyPresence(r);
  }
  out.presences = presences;
  out.server_timestamp = serverTimestamp;
  out.presence_last_update_id = rows.reduce((m, r) => Math.max(m, r.lastUpdateId), -1);
  return out;
}
