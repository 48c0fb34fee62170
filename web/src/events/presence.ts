/**
 * Telling the server this person is here, as the family's web app does: a POST
 * /users/me/presence every ping interval (the snapshot's server_presence_ping_interval_seconds,
 * 60 s by default), `active` while they used the page in the last 5 minutes and `idle` after.
 * The answer carries everyone's presence changed since the last ping, merged into the
 * snapshot's `presences`; presence events keep it current between pings.
 *
 * Exports: startPresence, stopPresence, IDLE_AFTER_MS.
 */
import { api } from '../api';
import { store } from '../state/store';

export const IDLE_AFTER_MS = 5 * 60_000;

let timer: ReturnType<typeof setTimeout> | null = null;
let lastInput = Date.now();
let lastUpdateId = -1;
let generation = -1;
let newInput = true;
const INPUT_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'focus'] as const;

function onInput(): void {
  const wasIdle = Date.now() - lastInput > IDLE_AFTER_MS;
  lastInput = Date.now();
  newInput = true;
  // Coming back from idle is said at once, not at the next ping.
  if (wasIdle) schedule(0);
}

async function ping(): Promise<void> {
  const s = store.get();
  if (!s.reg || s.status !== 'live') return schedule();
  if (s.generation !== generation) {
    // A fresh snapshot's presences are current: only later changes are asked for.
    generation = s.generation;
    lastUpdateId = Number(s.reg.presence_last_update_id ?? -1);
  }
  const active = Date.now() - lastInput < IDLE_AFTER_MS && document.visibilityState !== 'hidden';
  try {
    const res = await api.call<{ presences?: Record<string, { active_timestamp?: number; idle_timestamp?: number }>; presence_last_update_id?: number }>('POST', '/users/me/presence', {
      status: active ? 'active' : 'idle',
      new_user_input: newInput,
      slim_presence: true,
      last_update_id: lastUpdateId,
    });
    newInput = false;
    if (typeof res.presence_last_update_id === 'number') lastUpdateId = res.presence_last_update_id;
    if (res.presences && Object.keys(res.presences).length) {
      store.set((x) => (x.reg ? { ...x, reg: { ...x.reg, presences: { ...(x.reg.presences ?? {}), ...res.presences } } } : x));
    }
  } catch {
    // The event loop reports an unreachable server; the next ping tries again.
  }
  schedule();
}

function schedule(ms?: number): void {
  if (timer) clearTimeout(timer);
  const interval = Number(store.get().reg?.server_presence_ping_interval_seconds) || 60;
  timer = setTimeout(() => void ping(), ms ?? interval * 1000);
}

export function startPresence(): void {
  for (const e of INPUT_EVENTS) window.addEventListener(e, onInput, { passive: true });
  schedule(5_000);
}

export function stopPresence(): void {
  for (const e of INPUT_EVENTS) window.removeEventListener(e, onInput);
  if (timer) clearTimeout(timer);
  timer = null;
}
