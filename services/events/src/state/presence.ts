/**
 * presence: the realm's presence data at registration, in the format the client asked for
 * (slim_presence or simplified_presence_events: keyed by user id; otherwise legacy, keyed by
 * email), limited to presence_history_limit_days (default 14) and to the people the viewer may
 * access. The users service writes this table; both take the formats from @chat/wire.
 */
import { ROLE } from '@chat/contracts';
import type { Db } from '@chat/db';
import { realmGroupSettings, SYSTEM_GROUPS, type GroupSettingValue, usersSharingWithGuest } from '@chat/realm';
import { legacyPresence, modernPresence, PRESENCE_TIMES, type PresenceRow as Row } from '@chat/wire';
import type { StateOptions, Want } from '.';

/** Is the viewer in the group-setting value? Follows subgroups through the stored rows. */
async function inGroupSetting(db: Db, realmId: number, value: GroupSettingValue, userId: number): Promise<boolean> {
  if (typeof value !== 'number' && value.direct_members.includes(userId)) return true;
  const roots = typeof value === 'number' ? [value] : value.direct_subgroups;
  if (!roots.length) return false;
  const [row] = await db.$queryRawUnsafe<Array<{ member: boolean }>>(
    `WITH RECURSIVE reach(id) AS (
       SELECT unnest($1::int[])
       UNION
       SELECT s.subgroup_id FROM user_group_subgroups s JOIN reach r ON s.supergroup_id = r.id
     )
     SELECT EXISTS (
       SELECT 1 FROM reach r JOIN user_groups g ON g.id = r.id AND g.realm_id = $2 AND NOT g.deactivated
         JOIN user_group_members m ON m.group_id = g.id AND m.user_id = $3
     ) AS member`,
    roots,
    realmId,
    userId,
  );
  return row?.member === true;
}

/**
 * The people a guest outside can_access_all_users_group may see (themselves, bots, and whoever
 * shares a channel or a direct conversation with them); null when the viewer sees everyone.
 */
async function accessibleUserIds(db: Db, opts: StateOptions, viewerId: number): Promise<Set<number> | null> {
  if (opts.identity.role !== ROLE.GUEST) return null;
  const realmId = opts.realm.id;
  const groups = await db.userGroup.findMany({ where: { realmId, isSystemGroup: true }, select: { id: true, name: true } });
  const ids = new Map(groups.map((g) => [g.name, g.id]));
  const value = realmGroupSettings(opts.realm.settings, ids).can_access_all_users_group ?? ids.get(SYSTEM_GROUPS.everyone)!;
  if (await inGroupSetting(db, realmId, value, viewerId)) return null;
  return usersSharingWithGuest(db, realmId, viewerId);
}

async function presenceRows(db: Db, opts: StateOptions, viewerId: number, days: number): Promise<Row[]> {
  const raw = await db.$queryRawUnsafe<Array<Record<keyof Row, unknown>>>(
    `SELECT p.user_id AS "userId", u.email,
            floor(extract(epoch FROM u.date_joined AT TIME ZONE 'UTC'))::int8 AS "dateJoined",
            floor(extract(epoch FROM p.last_active_time AT TIME ZONE 'UTC'))::int8 AS "activeAt",
            floor(extract(epoch FROM p.last_connected_time AT TIME ZONE 'UTC'))::int8 AS "connectedAt",
            p.last_update_id AS "lastUpdateId"
       FROM user_presence p JOIN users u ON u.id = p.user_id
      WHERE p.realm_id = $1 AND u.is_active AND NOT u.is_bot
        AND p.last_connected_time >= to_timestamp($2::float8 / 1000) AT TIME ZONE 'UTC'`,
    opts.realm.id,
    Date.now() - days * 86_400_000,
  );
  const n = (v: unknown) => (v === null ? null : Number(v));
  const rows: Row[] = raw.map((r) => ({
    userId: Number(r.userId),
    email: String(r.email),
    dateJoined: Number(r.dateJoined),
    activeAt: n(r.activeAt),
    connectedAt: n(r.connectedAt),
    lastUpdateId: Number(r.lastUpdateId),
  }));
  const allowed = await accessibleUserIds(db, opts, viewerId);
  return allowed ? rows.filter((r) => allowed.has(r.userId)) : rows;
}

export async function presenceSection(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  if (want('realm')) {
    out.server_presence_ping_interval_seconds = PRESENCE_TIMES.pingIntervalSecs;
    out.server_presence_offline_threshold_seconds = PRESENCE_TIMES.offlineThresholdSecs;
  }
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
