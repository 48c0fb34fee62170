/**
 * The presence heartbeat, as the family's web app sends it: every ping interval (60 s) a POST
 * /users/me/presence saying "active" (the tab has focus and someone used it in the last five
 * minutes) or "idle", with whether there was input since the last report; at once when the
 * tab comes back into use. The answer carries what changed in others' presence since the last
 * report (the modern `last_update_id` protocol), merged into the snapshot's `presences`.
 */
import { api } from '../api';
import { store } from '../state/store';
import { activityOf, DEFAULT_PING_INTERVAL, mergePresences, type Activity } from './presence';

interface PresenceAnswer {
  presences?: Record<string, unknown>;
  presence_last_update_id?: number;
  server_timestamp?: number;
}

let lastInput = Date.now();
let newInput = true;
let lastSent: Activity | null = null;
let lastUpdateId = -1;
let generation = -1;
let timer: ReturnType<typeof setTimeout> | null = null;
let inFlight = false;

async function report(): Promise<void> {
  const s = store.get();
  if (!s.reg || inFlight) return;
  if (s.generation !== generation) {
    // A fresh snapshot brings its own presence data and the id it is current to.
    generation = s.generation;
    lastUpdateId = Number(s.reg.presence_last_update_id ?? -1);
  }
  const status = activityOf(document.hasFocus(), lastInput, Date.now());
  const params = { status, ping_only: false, new_user_input: newInput, slim_presence: true, ...(lastUpdateId >= 0 ? { last_update_id: lastUpdateId } : {}) };
  newInput = false;
  lastSent = status;
  inFlight = true;
  try {
    const answer = await api.call<PresenceAnswer>('POST', '/users/me/presence', params);
    if (typeof answer.presence_last_update_id === 'number') lastUpdateId = answer.presence_last_update_id;
    if (answer.presences && Object.keys(answer.presences).length && store.get().generation === generation) {
      store.set((st) => (st.reg ? { ...st, reg: { ...st.reg, presences: mergePresences(st.reg.presences as Record<string, unknown>, answer.presences) as typeof st.reg.presences } } : st));
    }
  } catch {
    // The next beat tries again; presence is best effort.
  } finally {
    inFlight = false;
  }
}

function schedule(): void {
  const interval = Number(store.get().reg?.server_presence_ping_interval_seconds) || DEFAULT_PING_INTERVAL;
  timer = setTimeout(() => {
    void report().finally(schedule);
  }, interval * 1000);
}

function onInput(): void {
  lastInput = Date.now();
  newInput = true;
  // Coming back from idle is reported at once, so others see it without waiting a minute.
  if (lastSent === 'idle' && document.hasFocus()) void report();
}

let started = false;

export function startPresence(): () => void {
  if (started) return () => undefined;
  started = true;
  const events = ['keydown', 'mousedown', 'touchstart', 'wheel'];
  for (const e of events) window.addEventListener(e, onInput, { passive: true, capture: true });
  window.addEventListener('focus', onInput);
  const unsubscribe = store.subscribe(() => {
    // The first report goes as soon as the snapshot is there.
    if (store.get().reg && generation === -1 && !inFlight) void report();
  });
  void report();
  schedule();
  return () => {
    started = false;
    for (const e of events) window.removeEventListener(e, onInput, { capture: true });
    window.removeEventListener('focus', onInput);
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}
