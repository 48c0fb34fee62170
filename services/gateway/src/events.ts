import type { ServerResponse } from 'node:http';
import type { Request, Response, NextFunction } from 'express';
import { ApiError, errors, IDENTITY_HEADER, inClientDialect, type Identity } from '@chat/contracts';
import { Params, sendSuccess, signIdentity } from '@chat/kit';
import { QueueAckError, type WakeReason } from '@chat/queues';
import type { AuthUser } from './auth';
import type { Services } from './context';

/** One GET /events in progress. */
interface Poll {
  services: Services;
  res: ServerResponse;
  queueId: string;
  userId: number;
  lastEventId: number | undefined;
  ignored: string[];
  /** The client's User-Agent: the family's apps get the family's names (ADR 0005). */
  userAgent: string | undefined;
  /** When an empty wait turns into a heartbeat. */
  deadline: number;
  /** Ends the current hold without answering (the client went away). */
  cancel: () => void;
  gone: boolean;
  fail: (err: unknown) => void;
}

/**
 * GET /events: answers at once when events above last_event_id exist or dont_block is set;
 * otherwise holds the request until an append wakes it (no Redis connection of its own) or
 * the heartbeat timer fires, in which case a heartbeat event is queued and returned.
 * Works on the bare Node request and response, and holds with callbacks rather than awaiting:
 * see longpoll.ts for why. Errors after the hold began go to `fail`.
 */
export async function serveGetEvents(
  services: Services,
  p: Params,
  user: AuthUser,
  identity: Identity,
  query: URLSearchParams,
  res: ServerResponse,
  userAgent: string | undefined,
  fail: (err: unknown) => void,
): Promise<void> {
  let queueId = p.str('queue_id');
  let lastEventId = p.int('last_event_id');
  const dontBlock = p.bool('dont_block', false);
  // The family's server registers on the fly only for a non-blocking poll, and answers these
  // with its generic error code (not REQUEST_VARIABLE_MISSING).
  if (!queueId && !dontBlock) throw errors.badRequest("Missing 'queue_id' argument");
  if (queueId && lastEventId === undefined) throw errors.badRequest("Missing 'last_event_id' argument");
  if (!queueId) {
    // Registering on the fly: the register parameters ride along to the events service.
    const registered = await registerQueue(services, identity, query);
    queueId = registered.queue_id;
    lastEventId = registered.last_event_id;
    p.accept(...query.keys());
  }
  const poll: Poll = {
    services, res, queueId, userId: user.userId, lastEventId, ignored: p.unsupported().sort(), userAgent,
    // Spread (50 s ± 10% = 45–55 s by default) so polls opened together, e.g. after a
    // restart, do not all come back in the same instant.
    deadline: Date.now() + services.heartbeatMs * (0.9 + Math.random() * 0.2),
    cancel: noop, gone: false, fail,
  };
  res.once('close', () => {
    poll.gone = true;
    poll.cancel();
  });
  await attempt(poll, dontBlock);
}

/**
 * Reads the queue and answers, or holds the poll. The wake-up mark is taken before the read,
 * so an append landing between the read and the hold is not missed (see QueueWaiter).
 */
async function attempt(poll: Poll, dontBlock: boolean): Promise<void> {
  const { waiter, acks } = poll.services;
  // A client polling again right after this process answered it from a wake-up: the queue holds
  // nothing newer, so hold at once and leave the acknowledgement to the batch (ADR 0026).
  const settled = dontBlock || poll.lastEventId === undefined ? undefined : waiter.settled(poll.queueId, poll.userId, poll.lastEventId);
  if (settled !== undefined) {
    acks.defer(poll.queueId, poll.userId, poll.lastEventId!);
    return hold(poll, settled);
  }
  let mark = dontBlock ? undefined : waiter.mark(poll.queueId);
  let events = await readQueue(poll);
  if (!events.length && !dontBlock && mark === undefined) {
    mark = await waiter.subscribe(poll.queueId);
    events = await readQueue(poll);
  }
  if (events.length || dontBlock) return sendEvents(poll, events);
  hold(poll, mark!);
}

function hold(poll: Poll, mark: number): void {
  if (poll.gone) return;
  const onWake = (reason: WakeReason, carried: string[] | null) => {
    poll.cancel = noop;
    // The wake-up brought exactly the events after last_event_id: no need to read them back.
    if (carried) return sendEvents(poll, carried);
    void (reason === 'woken' ? attempt(poll, false) : answerNow(poll, reason === 'timeout')).catch(poll.fail);
  };
  poll.cancel = poll.services.waiter.hold(poll.queueId, mark, poll.lastEventId, Math.max(0, poll.deadline - Date.now()), onWake, poll.userId);
}

/** Heartbeat time, or the gateway is draining: answer with whatever the queue holds. */
async function answerNow(poll: Poll, heartbeat: boolean): Promise<void> {
  if (poll.gone) return;
  if (heartbeat) await poll.services.store.append(poll.queueId, [{ type: 'heartbeat' }]);
  sendEvents(poll, await readQueue(poll));
}

async function readQueue(poll: Poll): Promise<string[]> {
  let events: string[] | null;
  try {
    events = await poll.services.store.fetchJson(poll.queueId, poll.userId, poll.lastEventId);
  } catch (err) {
    // A client told it lost events re-registers; BAD_REQUEST as on the family's server.
    if (err instanceof QueueAckError) throw errors.badRequest(err.message);
    throw err;
  }
  if (!events) throw errors.badEventQueueId(poll.queueId);
  return events;
}

/** The envelope around already-serialised events: the hot path of every long-poll answer. */
function sendEvents(poll: Poll, events: string[]): void {
  const { res } = poll;
  if (poll.gone || res.headersSent) return;
  const extra = poll.ignored.length ? `,"ignored_parameters_unsupported":${JSON.stringify(poll.ignored)}` : '';
  const body = inClientDialect(
    `{"result":"success","msg":"","events":[${events.join(',')}],"queue_id":${JSON.stringify(poll.queueId)}${extra}}`,
    poll.userAgent,
  );
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function noop(): void {}

export function deleteEvents(services: Services) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const p = Params.fromRequest(req);
      const user = (req as Request & { authUser: AuthUser }).authUser;
      const queueId = p.reqStr('queue_id');
      if (!(await services.store.delete(queueId, user.userId))) throw errors.badEventQueueId(queueId);
      sendSuccess(res, {}, p.unsupported());
    } catch (err) {
      next(err);
    }
  };
}

async function registerQueue(services: Services, identity: Identity, query: URLSearchParams): Promise<{ queue_id: string; last_event_id: number }> {
  const form = new URLSearchParams();
  for (const [k, v] of query) {
    if (k !== 'last_event_id' && k !== 'dont_block') form.set(k, v);
  }
  const answer = await fetch(`${services.eventsUrl}/api/v1/register`, {
    method: 'POST',
    headers: { [IDENTITY_HEADER]: signIdentity(services.internalSecret, identity), 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  }).catch(() => {
    throw errors.upstreamUnavailable();
  });
  const body = (await answer.json()) as { result: string; queue_id: string; last_event_id: number; code?: string; msg?: string };
  if (body.result !== 'success') {
    const { result: _r, code, msg, ...extra } = body as unknown as Record<string, unknown>;
    throw new ApiError(String(code ?? 'BAD_REQUEST'), String(msg ?? ''), answer.status, extra);
  }
  return body;
}
