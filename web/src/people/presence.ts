/**
 * Presence as the family reckons it: someone is active if their last active report is younger
 * than the server's offline threshold (140 s by default), idle if their last report of any kind
 * is, offline otherwise. Reports come keyed by user id (slim presence) or, from older servers,
 * by email with per-client entries; both are read.
 */
export type PresenceStatus = 'active' | 'idle' | 'offline';

export interface SlimPresence {
  active_timestamp?: number;
  idle_timestamp?: number;
}

type LegacyClient = { status?: string; timestamp?: number };
type RawPresence = SlimPresence | Record<string, LegacyClient | unknown>;

export const DEFAULT_OFFLINE_THRESHOLD = 140;
export const DEFAULT_PING_INTERVAL = 60;

/** The entry's active and idle times, whichever format it came in. */
export function normalisePresence(raw: RawPresence | undefined): SlimPresence {
  if (!raw) return {};
  if ('active_timestamp' in raw || 'idle_timestamp' in raw) return raw as SlimPresence;
  let active: number | undefined;
  let idle: number | undefined;
  for (const entry of Object.values(raw as Record<string, unknown>)) {
    const e = entry as LegacyClient;
    if (typeof e?.timestamp !== 'number') continue;
    if (e.status === 'active') active = Math.max(active ?? 0, e.timestamp);
    idle = Math.max(idle ?? 0, e.timestamp);
  }
  return { ...(active !== undefined ? { active_timestamp: active } : {}), ...(idle !== undefined ? { idle_timestamp: idle } : {}) };
}

export function presenceStatus(raw: RawPresence | undefined, now: number, threshold = DEFAULT_OFFLINE_THRESHOLD): PresenceStatus {
  const p = normalisePresence(raw);
  if (p.active_timestamp !== undefined && now - p.active_timestamp < threshold) return 'active';
  if (p.idle_timestamp !== undefined && now - p.idle_timestamp < threshold) return 'idle';
  return 'offline';
}

/** The entry for a person in the snapshot's `presences` (by id, or by email for the legacy format). */
export function presenceOf(presences: Record<string, unknown> | undefined, userId: number, email?: string): RawPresence | undefined {
  if (!presences) return undefined;
  return (presences[String(userId)] ?? (email ? presences[email] : undefined)) as RawPresence | undefined;
}

/** When someone was last seen, for "Active 5 minutes ago" (undefined if never). */
export function lastActive(raw: RawPresence | undefined): number | undefined {
  const p = normalisePresence(raw);
  const t = Math.max(p.active_timestamp ?? 0, p.idle_timestamp ?? 0);
  return t || undefined;
}

/**
 * The answer to POST /users/me/presence merged into what is known: the modern protocol sends
 * only what changed since `last_update_id`, so entries are replaced one by one, never dropped.
 */
export function mergePresences(known: Record<string, unknown> | undefined, answer: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!answer || !Object.keys(answer).length) return known ?? {};
  return { ...known, ...answer };
}

/** Sorts people for the right sidebar: active, then idle, then offline, each by name. */
export function buddyOrder(a: { status: PresenceStatus; name: string }, b: { status: PresenceStatus; name: string }): number {
  const rank = { active: 0, idle: 1, offline: 2 };
  return rank[a.status] - rank[b.status] || a.name.localeCompare(b.name);
}

const IDLE_AFTER_MS = 5 * 60 * 1000;

export type Activity = 'active' | 'idle';

/** What the heartbeat reports: active when the page has focus and was used in the last five minutes. */
export function activityOf(hasFocus: boolean, lastInput: number, now: number): Activity {
  return hasFocus && now - lastInput < IDLE_AFTER_MS ? 'active' : 'idle';
}
