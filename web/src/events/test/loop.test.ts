/**
 * The event loop against a scripted server: a lost queue means a fresh register (the views
 * redraw, unsent messages stay), an unreachable server shows as reconnecting and is retried,
 * a signed-out session goes to the login page.
 */
import { ApiError, type RegisterState } from '@chat/client';
import { store, type OutboxItem } from '../../state/store';

type Answer = unknown | Error;
const answers: { register: Answer[]; events: Answer[] } = { register: [], events: [] };
const calls: { register: number; early: number; events: Array<{ queueId: string; lastEventId: number; dontBlock?: boolean }> } = { register: 0, early: 0, events: [] };
const toLogin = jest.fn();

function next(list: Answer[], signal?: AbortSignal): Promise<unknown> {
  const a = list.shift();
  // With nothing scripted, a poll waits (as a long-poll does) until it is aborted.
  if (a === undefined) return new Promise((_r, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted'))));
  return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
}

jest.mock('../../api', () => ({
  api: {
    register: () => {
      calls.register++;
      return next(answers.register);
    },
    // The shell's early answer: counted apart from the registers the loop asks for itself.
    registerAnswer: (res: { json: () => Promise<unknown> }) => {
      calls.early++;
      return res.json();
    },
    getEvents: (queueId: string, lastEventId: number, opts?: { signal?: AbortSignal }) => {
      calls.events.push({ queueId, lastEventId });
      return next(answers.events, opts?.signal);
    },
    // The poll that does not wait (dont_block), the first after a failure.
    call: (_method: string, _path: string, params: { queue_id: string; last_event_id: number; dont_block?: boolean }, opts?: { signal?: AbortSignal }) => {
      calls.events.push({ queueId: params.queue_id, lastEventId: params.last_event_id, dontBlock: params.dont_block });
      return next(answers.events, opts?.signal);
    },
  },
  isLoggedOut: (err: unknown) => err instanceof ApiError && err.status === 401,
  toLogin: () => toLogin(),
  sessionChannel: null,
}));

// Imported after the mocks (jest hoists jest.mock above imports either way).
import { currentQueueId, isQueueLost, startEvents, stopEvents } from '../loop';

const snapshot = (queue: string, lastEventId = 0): RegisterState =>
  ({ queue_id: queue, last_event_id: lastEventId, user_id: 1, realm_users: [], subscriptions: [], realm_emoji: {}, unread_msgs: { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false } }) as unknown as RegisterState;

const flush = async (times = 20) => {
  for (let i = 0; i < times; i++) await Promise.resolve();
};

beforeEach(() => {
  jest.useFakeTimers();
  answers.register = [];
  answers.events = [];
  calls.register = 0;
  calls.early = 0;
  calls.events = [];
});

afterEach(() => {
  jest.restoreAllMocks();
  stopEvents();
  jest.useRealTimers();
});

it('tells a lost queue from other refusals', () => {
  expect(isQueueLost(new ApiError('BAD_EVENT_QUEUE_ID', 'Bad event queue ID: x', 400))).toBe(true);
  expect(isQueueLost(new ApiError('BAD_REQUEST', 'Bad event queue id: x', 400))).toBe(true);
  expect(isQueueLost(new ApiError('BAD_REQUEST', 'Invalid narrow', 400))).toBe(false);
  expect(isQueueLost(new ApiError('NETWORK', 'down', 0))).toBe(false);
});

it('registers again after a lost queue, redrawing the views and keeping unsent messages', async () => {
  const pending: OutboxItem = { localId: 'l1', queueId: 'q1', params: { type: 'stream', to: 1, topic: 't', content: 'x' }, timestamp: 1 };
  store.set((s) => ({ ...s, outbox: [pending] }));
  answers.register = [snapshot('q1', 5), snapshot('q2', 9)];
  answers.events = [{ events: [{ id: 6, type: 'heartbeat' }] }, new ApiError('BAD_EVENT_QUEUE_ID', 'Bad event queue ID: q1', 400)];
  startEvents();
  await flush();
  const generation = store.get().generation;
  expect(calls.register).toBe(2);
  expect(calls.events.slice(0, 2)).toEqual([{ queueId: 'q1', lastEventId: 5 }, { queueId: 'q1', lastEventId: 6 }]);
  expect(currentQueueId()).toBe('q2');
  expect(calls.events[2]).toEqual({ queueId: 'q2', lastEventId: 9 });
  expect(store.get().outbox).toEqual([pending]);
  expect(store.get().status).toBe('live');
  expect(generation).toBeGreaterThanOrEqual(2);
});

it('takes the shell\'s early register answer first, and registers afresh after a lost queue', async () => {
  (globalThis as Record<string, unknown>).__earlyRegister = Promise.resolve({ json: async () => snapshot('q0', 3) });
  answers.register = [snapshot('q1', 7)];
  answers.events = [new ApiError('BAD_EVENT_QUEUE_ID', 'Bad event queue ID: q0', 400)];
  startEvents();
  await flush();
  expect(calls.early).toBe(1);
  expect(calls.events[0]).toEqual({ queueId: 'q0', lastEventId: 3 });
  expect(calls.register).toBe(1);
  expect(currentQueueId()).toBe('q1');
  expect((globalThis as Record<string, unknown>).__earlyRegister).toBeUndefined();
});

it('registers itself when the shell\'s early request failed', async () => {
  (globalThis as Record<string, unknown>).__earlyRegister = Promise.resolve(null);
  answers.register = [snapshot('q1')];
  startEvents();
  await flush();
  expect(calls.early).toBe(0);
  expect(calls.register).toBe(1);
  expect(currentQueueId()).toBe('q1');
});

it('registers again after a restart event', async () => {
  answers.register = [snapshot('q1'), snapshot('q2')];
  answers.events = [{ events: [{ id: 1, type: 'restart', zulip_version: '12' }] }];
  startEvents();
  await flush();
  expect(calls.register).toBe(2);
  expect(currentQueueId()).toBe('q2');
});

it('registers again when an event cannot be applied', async () => {
  answers.register = [snapshot('q1'), snapshot('q2')];
  answers.events = [{ events: [{ id: 1, type: 'subscription', op: 'add', subscriptions: null }] }];
  const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  startEvents();
  await flush();
  expect(quiet).toHaveBeenCalled();
  expect(calls.register).toBe(2);
  expect(currentQueueId()).toBe('q2');
});

it('shows reconnecting while the server is unreachable, and retries with growing pauses', async () => {
  answers.register = [snapshot('q1')];
  answers.events = [new ApiError('NETWORK', 'Failed to fetch', 0), new ApiError('NETWORK', 'Failed to fetch', 0), { events: [] }];
  // No jitter: pauses of 500 ms, then 1000 ms.
  jest.spyOn(Math, 'random').mockReturnValue(0.5);
  startEvents();
  await flush();
  expect(store.get().status).toBe('reconnecting');
  expect(calls.events.length).toBe(1);
  await jest.advanceTimersByTimeAsync(700);
  expect(calls.events.length).toBe(2);
  // The second pause is longer than the first.
  await jest.advanceTimersByTimeAsync(600);
  expect(calls.events.length).toBe(2);
  await jest.advanceTimersByTimeAsync(800);
  // The third poll answered: live again, and polling on.
  expect(calls.events.length).toBe(4);
  expect(store.get().status).toBe('live');
  // Polls after a failure do not wait, so the notice goes as soon as the server answers; then the long-poll resumes.
  expect(calls.events.map((c) => !!c.dontBlock)).toEqual([false, true, true, false]);
});

it('gives up a poll the server never answers, and polls again', async () => {
  answers.register = [snapshot('q1')];
  startEvents();
  await flush();
  expect(calls.events.length).toBe(1);
  await jest.advanceTimersByTimeAsync(111_000);
  expect(store.get().status).toBe('reconnecting');
  await jest.advanceTimersByTimeAsync(700);
  expect(calls.events.length).toBe(2);
  expect(calls.register).toBe(1);
});

it('goes to the login page when the session is gone', async () => {
  answers.register = [snapshot('q1')];
  answers.events = [new ApiError('UNAUTHORIZED', 'Not logged in', 401)];
  startEvents();
  await flush();
  expect(toLogin).toHaveBeenCalled();
});
