/**
 * The event loop: one /register, then long-polls of /events, applying every event to the
 * store. A lost queue (BAD_EVENT_QUEUE_ID, a `restart` event, any other answer saying the
 * queue is gone) means a fresh /register and a redraw of the current view (the generation
 * moves on), keeping unsent messages. While the server cannot be reached the store's status is
 * 'reconnecting' and the loop retries with growing pauses. A signed-out session (401) goes to
 * the login page and back; a logout in another tab of this browser does the same here.
 *
 * Exports: startEvents, stopEvents, reregister, currentQueueId, logout, isQueueLost,
 * REGISTER_PARAMS.
 */
import { ApiError, type ClientEvent } from '@chat/client';
import { api, isLoggedOut, sessionChannel, toLogin } from '../api';
import { applyEvents } from '../state/apply';
import { freshState, store } from '../state/store';
import { pruneTyping } from '../state/typing';
import { takeEarlyRegister } from './early';
import { REGISTER_PARAMS } from './register-params';

export { REGISTER_PARAMS };

let queueId: string | null = null;
let lastEventId = -1;
let running = false;
/** Each start runs its own loop; a loop left waiting by a stop ends when it wakes. */
let loopId = 0;
let abort: AbortController | null = null;
let typingTimer: ReturnType<typeof setInterval> | null = null;
/** Why the current poll was aborted: a re-register asked for, or the connection given up on. */
let abortReason: 'reregister' | 'lost' | null = null;
let wake: (() => void) | null = null;

/** A pause that the browser coming back online cuts short. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      wake = null;
      resolve();
    }
    wake = done;
  });
}

/**
 * A poll the server should have answered by now (its long-poll timeout plus a margin) is given
 * up: a connection can die without an error, and offline browsers do not always fail requests.
 */
function pollDeadlineMs(): number {
  return ((Number(store.get().reg?.event_queue_longpoll_timeout_seconds) || 90) + 20) * 1000;
}

function giveUpPoll(): void {
  if (!abort || abort.signal.aborted) return;
  abortReason = 'lost';
  abort.abort();
}

function onOffline(): void {
  giveUpPoll();
  store.set((s) => (s.status === 'live' ? { ...s, status: 'reconnecting', statusMessage: undefined } : s));
}

function onOnline(): void {
  wake?.();
}
const MAX_DELAY_MS = 30_000;

/** The next pause: doubling up to 30 s, with some jitter so many tabs do not retry in step. */
function backoff(delay: number): number {
  return Math.min(delay * 2, MAX_DELAY_MS) * (0.8 + Math.random() * 0.4);
}

export function currentQueueId(): string | null {
  return queueId;
}

/** An answer saying the event queue no longer exists (expired, or its server restarted). */
export function isQueueLost(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.code === 'BAD_EVENT_QUEUE_ID') return true;
  return err.status === 400 && /event queue|queue_id/i.test(err.message);
}

async function register(id: number): Promise<void> {
  let delay = 500;
  while (running && id === loopId) {
    try {
      const early = await takeEarlyRegister();
      const reg = early ? await api.registerAnswer(early) : await api.register(REGISTER_PARAMS);
      if (id !== loopId) return;
      queueId = reg.queue_id;
      lastEventId = reg.last_event_id;
      store.set((s) => freshState(s, reg));
      return;
    } catch (err) {
      if (isLoggedOut(err)) return toLogin();
      store.set((s) => ({ ...s, status: s.reg ? 'reconnecting' : 'connecting', statusMessage: (err as Error).message }));
      await sleep(delay);
      delay = backoff(delay);
    }
  }
}

/** Events after which the snapshot cannot be trusted: the server restarted or asks for a reload. */
function mustReregister(events: ClientEvent[]): boolean {
  return events.some((e) => e.type === 'restart' || e.type === 'web_reload_client');
}

function afterEvents(events: ClientEvent[]): void {
  const s = store.get();
  if (s.status === 'fatal' && s.statusMessage === 'realm_deactivated') {
    running = false;
    location.assign('/accounts/deactivated/');
    return;
  }
  if (events.some((e) => e.type === 'web_reload_client' && (e as { immediate?: boolean }).immediate)) {
    // The server's new version needs a new page; unsent messages are lost only if still sending.
    if (!store.get().outbox.some((o) => o.messageId === undefined && !o.failed)) location.reload();
  }
  if (mustReregister(events)) queueId = null;
}

async function pollForever(id: number): Promise<void> {
  let delay = 500;
  while (running && id === loopId) {
    if (!queueId) {
      await register(id);
      continue;
    }
    abort = new AbortController();
    abortReason = null;
    const watchdog = setTimeout(giveUpPoll, pollDeadlineMs());
    try {
      // Back from a failure, the first poll asks not to wait (dont_block), so the
      // "reconnecting" notice goes as soon as the server answers, not at its next heartbeat.
      const quick = store.get().status !== 'live';
      const { events } = quick
        ? await api.call<{ events: ClientEvent[] }>('GET', '/events', { queue_id: queueId, last_event_id: lastEventId, dont_block: true }, { signal: abort.signal })
        : await api.getEvents(queueId, lastEventId, { signal: abort.signal });
      clearTimeout(watchdog);
      if (id !== loopId) return;
      delay = 500;
      if (store.get().status !== 'live') store.set((s) => ({ ...s, status: 'live', statusMessage: undefined }));
      if (!events.length) continue;
      lastEventId = Math.max(lastEventId, ...events.map((e) => Number(e.id)));
      try {
        store.set((s) => applyEvents(s, events));
      } catch (err) {
        // An event the handlers could not apply leaves the state unsure: start again from a snapshot.
        console.error('An event could not be applied; registering again.', err);
        queueId = null;
        continue;
      }
      afterEvents(events);
    } catch (err) {
      clearTimeout(watchdog);
      if (!running || id !== loopId) return;
      if (abort.signal.aborted && abortReason !== 'lost') continue;
      if (isLoggedOut(err)) return toLogin();
      if (isQueueLost(err)) {
        queueId = null;
        continue;
      }
      store.set((s) => ({ ...s, status: 'reconnecting', statusMessage: abortReason === 'lost' ? undefined : (err as Error).message }));
      await sleep(delay);
      delay = backoff(delay);
    }
  }
}

function onSessionMessage(e: MessageEvent): void {
  if ((e.data as { type?: string } | null)?.type === 'logout') {
    stopEvents();
    location.assign('/login/');
  }
}

export function startEvents(): void {
  if (running) return;
  running = true;
  sessionChannel?.addEventListener('message', onSessionMessage);
  if (typeof window !== 'undefined') {
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
  }
  // Typing notices expire on their own: drop them from the store as they do.
  typingTimer = setInterval(() => {
    const s = store.get();
    if (s.typing.length) store.set((x) => ({ ...x, typing: pruneTyping(x.typing, Date.now()) }));
  }, 1000);
  void pollForever(++loopId);
}

export function stopEvents(): void {
  running = false;
  queueId = null;
  abort?.abort();
  sessionChannel?.removeEventListener('message', onSessionMessage);
  if (typeof window !== 'undefined') {
    window.removeEventListener('offline', onOffline);
    window.removeEventListener('online', onOnline);
  }
  if (typingTimer) clearInterval(typingTimer);
  typingTimer = null;
}

/** Drops the queue and registers again at once. */
export function reregister(): void {
  queueId = null;
  abortReason = 'reregister';
  abort?.abort();
}

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

/**
 * Signs out: the server's logout form (POST /accounts/logout/ with the page's CSRF token),
 * every other tab told through the 'chat-session' channel, then the login page.
 */
export async function logout(): Promise<void> {
  stopEvents();
  const body = new URLSearchParams({ csrfmiddlewaretoken: csrfToken() });
  try {
    await fetch('/accounts/logout/', { method: 'POST', body, credentials: 'same-origin', headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
  } finally {
    sessionChannel?.postMessage({ type: 'logout' });
    location.assign('/login/');
  }
}
