/**
 * Presence: reports from the user's clients (POST /users/me/presence), reads of one user's or
 * the whole realm's presence, and the immediate update that the presence_enabled setting
 * triggers. Reports arrive every minute from every open client, so a report that would not
 * move a stored time by at least PRESENCE.updateMinFreqSecs writes nothing and emits nothing.
 */
import { recordEvent } from '@chat/bus';
import { errors, INT4_MAX, type Actor } from '@chat/contracts';
import type { Tx } from '@chat/db';
import { canAccessUser } from '@chat/realm';
import type { Services } from '../context';
import { usersWhoCanAccess } from '../lib/audience';
import {
  BECAME_ONLINE_AFTER_SECS,
  legacyClientEntry,
  legacyPresence,
  modernPresence,
  PRESENCE,
  readRealmPresence,
  realmPresenceDisabled,
  type PresenceRow,
  type RealmPresence,
} from '../lib/presence';
import { PRESENCE_ROW_COLUMNS, presenceRowOf, type RawPresenceRow } from '@chat/wire';
import { accessUserByEmail, viewerOf } from './read-users';

type Status = 'active' | 'idle';

export function checkStatus(status: string): Status {
  if (status !== 'active' && status !== 'idle') throw errors.badRequest(`Invalid status: ${status}`);
  return status;
}

const toTime = (param: string) => `(to_timestamp(${param}::float8 / 1000) AT TIME ZONE 'UTC')`;
const RETURNING = `RETURNING floor(extract(epoch FROM last_active_time AT TIME ZONE 'UTC'))::int8 AS "activeAt",
  floor(extract(epoch FROM last_connected_time AT TIME ZONE 'UTC'))::int8 AS "connectedAt",
  last_update_id AS "lastUpdateId"`;

/** Takes the realm's next update id; the row lock it holds orders writers until commit. */
const NEXT_ID = `INSERT INTO presence_sequences AS s (realm_id, last_update_id)`;
const BUMP = `ON CONFLICT (realm_id) DO UPDATE SET last_update_id = s.last_update_id + 1 RETURNING last_update_id`;

const staleConnected = `(p.last_connected_time IS NULL OR p.last_connected_time < EXCLUDED.last_connected_time - interval '${PRESENCE.updateMinFreqSecs} seconds')`;
const staleActive = `(EXCLUDED.last_active_time IS NOT NULL AND (p.last_active_time IS NULL OR p.last_active_time < EXCLUDED.last_active_time - interval '${PRESENCE.updateMinFreqSecs} seconds'))`;

/**
 * One statement: re-checks the setting under a share lock (a concurrent switch to invisible
 * wins), takes the next id, and writes only what is stale. No row back: nothing was written.
 */
const REPORT_SQL = `
WITH me AS (
  SELECT id, realm_id FROM users
   WHERE id = $1 AND is_active AND (settings->>'presence_enabled') IS DISTINCT FROM 'false'
   FOR SHARE
), seq AS (
  ${NEXT_ID} SELECT realm_id, 1 FROM me ${BUMP}
)
INSERT INTO user_presence AS p (user_id, realm_id, last_connected_time, last_active_time, last_update_id)
SELECT me.id, me.realm_id, ${toTime('$2')}, CASE WHEN $3::boolean THEN ${toTime('$2')} END, seq.last_update_id FROM me, seq
ON CONFLICT (user_id) DO UPDATE SET
  last_connected_time = CASE WHEN ${staleConnected} OR ${staleActive}
    THEN GREATEST(p.last_connected_time, EXCLUDED.last_connected_time) ELSE p.last_connected_time END,
  last_active_time = CASE WHEN ${staleActive} THEN EXCLUDED.last_active_time ELSE p.last_active_time END,
  last_update_id = EXCLUDED.last_update_id
WHERE ${staleConnected} OR ${staleActive}
${RETURNING}`;

/** Sets both times outright (the presence_enabled switch). */
const FORCE_SQL = `
WITH seq AS (${NEXT_ID} VALUES ($2, 1) ${BUMP})
INSERT INTO user_presence AS p (user_id, realm_id, last_connected_time, last_active_time, last_update_id)
SELECT $1, $2, ${toTime('$3')}, ${toTime('$4')}, seq.last_update_id FROM seq
ON CONFLICT (user_id) DO UPDATE SET last_connected_time = EXCLUDED.last_connected_time,
  last_active_time = EXCLUDED.last_active_time, last_update_id = EXCLUDED.last_update_id
${RETURNING}`;

interface Owner {
  id: number;
  realmId: number;
  email: string;
  dateJoined: Date;
}

type Written = { activeAt: bigint | null; connectedAt: bigint | null; lastUpdateId: bigint };

function rowOf(owner: Owner, w: Written): PresenceRow {
  return presenceRowOf({ userId: owner.id, email: owner.email, dateJoined: Math.floor(owner.dateJoined.getTime() / 1000), ...w });
}

/**
 * The presence event, modern for queues that declared simplified_presence_events and legacy
 * (one "website" client entry, keyed by the user's API email) for the others.
 */
async function recordPresenceEvent(tx: Tx, realmId: number, row: PresenceRow, users: number[]): Promise<void> {
  await recordEvent(tx, {
    realmId,
    type: 'presence',
    users,
    event: { type: 'presence', presences: { [String(row.userId)]: modernPresence(row) } },
    routing: {
      capability: 'simplified_presence_events',
      fallback_event: {
        type: 'presence',
        user_id: row.userId,
        email: row.email,
        server_timestamp: Date.now() / 1000,
        presence: { website: legacyClientEntry(row) },
      },
    },
  });
}

/**
 * Who hears about `owner` coming online: whoever may access them, unless presence is off in the
 * realm, or the audience is so large that immediate updates would cost more than they are
 * worth (clients still learn it from their next presence poll).
 */
async function presenceAudience(services: Services, db: Services['db'] | Tx, owner: Owner, force: boolean): Promise<number[]> {
  const realm = await db.realm.findUniqueOrThrow({ where: { id: owner.realmId }, select: { settings: true } });
  if (realmPresenceDisabled(realm.settings) && !force) return [];
  const users = await usersWhoCanAccess(db, owner.realmId, { id: owner.id, isBot: false });
  if (users.length > services.config.PRESENCE_EVENTS_MAX_USERS && !force) return [];
  return users;
}

/** POST /users/me/presence, the write half: stores the report when it changes anything. */
export async function doReportPresence(services: Services, actor: Actor, status: Status, now = Date.now()): Promise<void> {
  const [current] = await services.db.$queryRawUnsafe<Array<{ enabled: string | null; isActive: boolean; email: string; dateJoined: Date; hasRow: boolean; activeAt: bigint | null; connectedAt: bigint | null }>>(
    `SELECT u.settings->>'presence_enabled' AS enabled, u.is_active AS "isActive", u.email, u.date_joined AS "dateJoined",
            p.user_id IS NOT NULL AS "hasRow",
            (extract(epoch FROM p.last_active_time AT TIME ZONE 'UTC') * 1000)::int8 AS "activeAt",
            (extract(epoch FROM p.last_connected_time AT TIME ZONE 'UTC') * 1000)::int8 AS "connectedAt"
       FROM users u LEFT JOIN user_presence p ON p.user_id = u.id WHERE u.id = $1`,
    actor.userId,
  );
  // Invisible mode: nothing is stored, so nothing can be shown or announced.
  if (!current || !current.isActive || current.enabled === 'false') return;
  const minGap = PRESENCE.updateMinFreqSecs * 1000;
  const activeAt = current.activeAt === null ? null : Number(current.activeAt);
  const connectedAt = current.connectedAt === null ? null : Number(current.connectedAt);
  const staleConnected = connectedAt === null || now - connectedAt > minGap;
  const staleActive = status === 'active' && (activeAt === null || now - activeAt > minGap);
  if (current.hasRow && !staleConnected && !staleActive) return;

  const becameOnline = status === 'active' && (activeAt === null || now - activeAt > BECAME_ONLINE_AFTER_SECS * 1000);
  const owner: Owner = { id: actor.userId, realmId: actor.realmId, email: current.email, dateJoined: current.dateJoined };
  const audience = !current.hasRow || becameOnline ? await presenceAudience(services, services.db, owner, false) : [];
  const args = [actor.userId, now, status === 'active'] as const;
  if (!audience.length) {
    await services.db.$queryRawUnsafe(REPORT_SQL, ...args);
    return;
  }
  await services.db.$transaction(async (tx) => {
    const [written] = await tx.$queryRawUnsafe<Written[]>(REPORT_SQL, ...args);
    // A concurrent report got there first: it wrote (and announced) the same thing.
    if (written) await recordPresenceEvent(tx, owner.realmId, rowOf(owner, written), audience);
  });
}

/**
 * Called (in the settings transaction) when presence_enabled changes, so that everyone sees the
 * new state at once: switching off stores the user as last connected a while before the
 * offline threshold (they look offline from now on); switching on stores them active now.
 */
export async function applyPresenceEnabled(services: Services, tx: Tx, user: { id: number; realmId: number; isBot: boolean }, enabled: boolean): Promise<void> {
  // Bots have no presence.
  if (user.isBot) return;
  // Read here: an email visibility change in the same request may have changed the address.
  const owner: Owner = { ...(await tx.user.findUniqueOrThrow({ where: { id: user.id }, select: { email: true, dateJoined: true } })), id: user.id, realmId: user.realmId };
  const now = Date.now();
  const connected = enabled ? now : now - (PRESENCE.offlineThresholdSecs + 120) * 1000;
  // The audience first: the write below holds the realm's presence counter until commit.
  const audience = await presenceAudience(services, tx, owner, true);
  const [written] = await tx.$queryRawUnsafe<Written[]>(FORCE_SQL, owner.id, owner.realmId, connected, enabled ? now : null);
  await recordPresenceEvent(tx, owner.realmId, rowOf(owner, written!), audience);
}

/** POST /users/me/presence, the read half, and GET /realm/presence (legacy, without the id). */
export async function getRealmPresence(
  services: Services,
  actor: Actor,
  opts: { slim: boolean; lastUpdateId?: number; historyDays?: number },
): Promise<RealmPresence> {
  const viewer = await services.db.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { id: true, role: true, dateJoined: true } });
  return readRealmPresence(services.db, { realmId: actor.realmId, viewer, ...opts });
}

/** GET /users/{user_id_or_email}/presence. */
export async function getUserPresence(services: Services, actor: Actor, idOrEmail: string, slim: boolean): Promise<Record<string, unknown>> {
  const db = services.db;
  const byId = /^\d+$/.test(idOrEmail);
  // An id too large to be any row's names nobody (and must not reach the query as a float).
  const target = byId
    ? Number.isSafeInteger(Number(idOrEmail)) && Number(idOrEmail) <= INT4_MAX
      ? await db.user.findFirst({ where: { id: Number(idOrEmail), realmId: actor.realmId } })
      : null
    : await accessUserByEmail(db, actor, idOrEmail).catch(() => null);
  if (!target || !target.isActive) throw errors.badRequest('No such user');
  if (target.isBot) throw errors.badRequest('Presence is not supported for bot users.');
  if (!(await canAccessUser(db, actor.realmId, viewerOf(actor), target))) throw errors.insufficientPermission();
  const [raw] = await db.$queryRawUnsafe<RawPresenceRow[]>(
    `SELECT ${PRESENCE_ROW_COLUMNS} FROM user_presence p JOIN users u ON u.id = p.user_id WHERE p.user_id = $1`,
    target.id,
  );
  if (!raw) throw errors.badRequest(`No presence data for ${idOrEmail}`);
  const row = presenceRowOf(raw);
  if (slim) return { presence: modernPresence(row) };
  // Without client names; the aggregate says "offline" once the data is too old to mean online.
  const { website, aggregated } = legacyPresence(row);
  const offline = Date.now() / 1000 - aggregated.timestamp > PRESENCE.offlineThresholdSecs;
  return {
    presence: {
      website: { status: website.status, timestamp: website.timestamp },
      aggregated: { status: offline ? 'offline' : aggregated.status, timestamp: aggregated.timestamp },
    },
  };
}
