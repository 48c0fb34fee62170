/**
 * The event loop: one /register, then long-polls of /events, applying every event to the
 * store. A lost queue (BAD_EVENT_QUEUE_ID, a `restart` event, a server that forgot it) means a
 * fresh /register and a redraw of the current view, keeping drafts and unsent messages. While
 * the server cannot be reached the app says "reconnecting" and retries with backoff.
 */
import { ApiError, type ClientEvent } from '@chat/client';
import { api, isLoggedOut, sessionChannel, toLogin } from '../api';
import { applyEvents } from '../state/apply';
import { indexUsers, store } from '../state/store';
import { REGISTER_PARAMS } from './register-params';

export { REGISTER_PARAMS };

let queueId: string | null = null;
let lastEventId = -1;
let running = false;
let abort: AbortController | null = null;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function currentQueueId(): string | null {
  return queueId;
}

async function register(): Promise<void> {
  let delay = 500;
  for (;;) {
    try {
      const reg = await api.register(REGISTER_PARAMS);
      queueId = reg.queue_id;
      lastEventId = reg.last_event_id;
      store.set((s) => ({
        ...s,
        reg,
        users: indexUsers(reg),
        status: 'live',
        statusMessage: undefined,
        // A fresh snapshot: every view refetches its messages; unsent messages stay.
        messages: new Map(),
        narrows: {},
        outbox: s.outbox.filter((o) => o.messageId === undefined),
        generation: s.generation + 1,
      }));
      return;
    } catch (err) {
      if (isLoggedOut(err)) return toLogin();
      store.set((s) => ({ ...s, status: s.reg ? 'reconnecting' : 'connecting', statusMessage: (err as Error).message }));
      await sleep(delay);
      delay = Math.min(delay * 2, 10_000);
    }
  }
}

function mustReregister(events: ClientEvent[]): boolean {
  return events.some((e) => e.type === 'restart' && e.immediate !== false);
}

async function pollForever(): Promise<void> {
  let delay = 500;
  while (running) {
    if (!queueId) {
      await register();
      continue;
    }
    abort = new AbortController();
    try {
      const { events } = await api.getEvents(queueId, lastEventId, { signal: abort.signal });
      delay = 500;
      if (store.get().status !== 'live') store.set((s) => ({ ...s, status: 'live', statusMessage: undefined }));
      if (!events.length) continue;
      lastEventId = Math.max(lastEventId, ...events.map((e) => Number(e.id)));
      store.set((s) => applyEvents(s, events));
      if (mustReregister(events)) queueId = null;
    } catch (err) {
      if (!running) return;
      if (abort.signal.aborted) continue;
      if (isLoggedOut(err)) return toLogin();
      if (err instanceof ApiError && err.code === 'BAD_EVENT_QUEUE_ID') {
        queueId = null;
        continue;
      }
      store.set((s) => ({ ...s, status: 'reconnecting', statusMessage: (err as Error).message }));
      await sleep(delay);
      delay = Math.min(delay * 2, 10_000);
    }
  }
}

export function startEvents(): void {
  if (running) return;
  running = true;
  sessionChannel?.addEventListener('message', (e) => {
    if ((e.data as { type?: string })?.type === 'logout') toLogin();
  });
  void pollForever();
}

export function stopEvents(): void {
  running = false;
  abort?.abort();
}

/** Drops the queue and registers again at once (used after a detected restart). */
export function reregister(): void {
  queueId = null;
  abort?.abort();
}
