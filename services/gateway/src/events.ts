import type { ServerResponse } from 'node:http';
import type { Request, Response, NextFunction } from 'express';
import { ApiError, errors, type Identity } from '@chat/contracts';
import { Params, sendSuccess, signIdentity } from '@chat/kit';
import type { QueueStore, QueueWaiter } from '@chat/queues';
import type { AuthUser } from './auth';

export interface EventsDeps {
  store: QueueStore;
  waiter: QueueWaiter;
  /** Mean silence before a heartbeat; each poll draws its own within ±10%. */
  heartbeatMs: number;
  eventsUrl: string;
  internalSecret: string;
}

/**
 * GET /events: answers at once when events above last_event_id exist or dont_block is set;
 * otherwise holds the request until an append wakes it (no Redis connection of its own) or
 * the heartbeat timer fires, in which case a heartbeat event is queued and returned.
 * Works on the bare Node request and response: see longpoll.ts for why.
 */
export async function serveGetEvents(
  deps: EventsDeps,
  p: Params,
  user: AuthUser,
  identity: Identity,
  query: URLSearchParams,
  res: ServerResponse,
): Promise<void> {
  let queueId = p.str('queue_id');
  let lastEventId = p.int('last_event_id');
  const dontBlock = p.bool('dont_block', false);
  if (!queueId) {
    // Registering on the fly: the register parameters ride along to the events service.
    const registered = await registerQueue(deps, identity, query);
    queueId = registered.queue_id;
    lastEventId = registered.last_event_id;
    p.accept(...query.keys());
  }
  const qid = queueId;
  let events = await deps.store.fetchJson(qid, user.userId, lastEventId);
  if (!events) throw errors.badEventQueueId(qid);
  if (!events.length && !dontBlock) {
    let gone = false;
    const reason = await deps.waiter.wait(
      qid,
      // Spread (50 s ± 10% = 45–55 s by default) so polls opened together, e.g. after a
      // restart, do not all come back in the same instant.
      deps.heartbeatMs * (0.9 + Math.random() * 0.2),
      async () => {
        events = await deps.store.fetchJson(qid, user.userId);
        return !!events?.length;
      },
      (cancel) =>
        res.once('close', () => {
          gone = true;
          cancel();
        }),
    );
    if (gone) return;
    if (reason === 'timeout') await deps.store.append(qid, [{ type: 'heartbeat' }]);
    if (reason !== 'closed') events = await deps.store.fetchJson(qid, user.userId);
    if (!events) throw errors.badEventQueueId(qid);
  }
  sendEvents(res, events, qid, p.unsupported());
}

/** The envelope around already-serialised events: the hot path of every long-poll answer. */
function sendEvents(res: ServerResponse, events: string[], queueId: string, ignored: string[]): void {
  const extra = ignored.length ? `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}` : '';
  const body = `{"result":"success","msg":"","events":[${events.join(',')}],"queue_id":${JSON.stringify(queueId)}${extra}}`;
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export function deleteEvents(deps: EventsDeps) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const p = Params.fromRequest(req);
      const user = (req as Request & { authUser: AuthUser }).authUser;
      const queueId = p.reqStr('queue_id');
      if (!(await deps.store.delete(queueId, user.userId))) throw errors.badEventQueueId(queueId);
      sendSuccess(res, {}, p.unsupported());
    } catch (err) {
      next(err);
    }
  };
}

async function registerQueue(deps: EventsDeps, identity: Identity, query: URLSearchParams): Promise<{ queue_id: string; last_event_id: number }> {
  const form = new URLSearchParams();
  for (const [k, v] of query) {
    if (k !== 'last_event_id' && k !== 'dont_block') form.set(k, v);
  }
  const answer = await fetch(`${deps.eventsUrl}/api/v1/register`, {
    method: 'POST',
    headers: { 'x-chat-identity': signIdentity(deps.internalSecret, identity), 'content-type': 'application/x-www-form-urlencoded' },
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
