import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { errors, type Identity } from '@chat/contracts';
import { Params, toApiError, type Logger, type Metrics } from '@chat/kit';
import type { AuthedRequest } from './auth';
import type { RealmResolver } from './realms';
import { serveGetEvents, type EventsDeps } from './events';

const PATH = /^\/api\/v1\/events\/?$/;

/**
 * GET /api/v1/events served on the bare Node server, ahead of express: a gateway holds tens of
 * thousands of these at once, and each one waiting inside the express router kept its whole
 * middleware chain (closures, contexts, parsed URL, router state) alive, about ten times the
 * memory of the socket itself. Same realm resolution, passport-http authentication, envelope
 * and metrics as every other route.
 */
export function longPollInterceptor(deps: {
  events: EventsDeps;
  realms: RealmResolver;
  basic: RequestHandler;
  metrics: Metrics;
  log: Logger;
}): (req: IncomingMessage, res: ServerResponse) => boolean {
  const authenticate = (req: IncomingMessage, res: ServerResponse) =>
    new Promise<void>((resolve, reject) =>
      deps.basic(req as never, res as never, (err?: unknown) => (err ? reject(err) : resolve())),
    );

  return (req, res) => {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    if (!PATH.test(q < 0 ? url : url.slice(0, q))) return false;
    const end = deps.metrics.httpDuration.startTimer();
    res.once('finish', () => end({ method: 'GET', route: '/api/v1/events', status: String(res.statusCode) }));
    for (const name of Object.keys(req.headers)) if (name.startsWith('x-chat-')) delete req.headers[name];
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const fail = (err: unknown) => answerError(deps.log, res, err);
    void (async () => {
      const authed = req as unknown as AuthedRequest;
      authed.realm = await deps.realms.resolve(req.headers.host);
      await authenticate(req, res);
      const user = authed.authUser;
      if (!user) throw errors.notLoggedIn();
      const identity: Identity = {
        realmId: authed.realm.id, realmUrl: authed.realm.url,
        userId: user.userId, email: user.email, role: user.role, isBot: user.isBot,
      };
      await serveGetEvents(deps.events, new Params(Object.fromEntries(query)), user, identity, query, res, req.headers['user-agent'], fail);
    })().catch(fail);
    return true;
  };
}

function answerError(log: Logger, res: ServerResponse, err: unknown): void {
  const e = toApiError(err);
  if (e.status >= 500) log.error({ err }, 'GET /events failed');
  if (res.headersSent) return void res.destroy();
  if (res.destroyed) return;
  const body = JSON.stringify(e.toJSON());
  const headers: Record<string, string | number> = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) };
  if (e.status === 401) headers['WWW-Authenticate'] = 'Basic realm="chat"';
  if (e.code === 'RATE_LIMIT_HIT') headers['Retry-After'] = String(e.extra['retry-after']);
  res.writeHead(e.status, headers);
  res.end(body);
}
