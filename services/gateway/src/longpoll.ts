import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { errors } from '@chat/contracts';
import { edgeIdentity, Params, renderError, stripInternalHeaders, type Metrics } from '@chat/kit';
import type { AuthedRequest } from './auth';
import type { Services } from './context';
import { serveGetEvents } from './events';

const PATH = /^\/api\/v1\/events\/?$/;

/**
 * GET /api/v1/events served on the bare Node server, ahead of express: a gateway holds tens of
 * thousands of these at once, and each one waiting inside the express router kept its whole
 * middleware chain (closures, contexts, parsed URL, router state) alive, about ten times the
 * memory of the socket itself. Same realm resolution, HTTP Basic authentication, envelope
 * and metrics as every other route.
 */
export function longPollInterceptor(
  services: Services,
  edge: { basic: RequestHandler; metrics: Metrics },
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const authenticate = (req: IncomingMessage, res: ServerResponse) =>
    new Promise<void>((resolve, reject) =>
      edge.basic(req as never, res as never, (err?: unknown) => (err ? reject(err) : resolve())),
    );

  return (req, res) => {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    if (!PATH.test(q < 0 ? url : url.slice(0, q))) return false;
    const end = edge.metrics.httpDuration.startTimer();
    res.once('finish', () => end({ method: 'GET', route: '/api/v1/events', status: String(res.statusCode) }));
    stripInternalHeaders(req.headers);
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const fail = (err: unknown) => renderError(services.log, res, err, { method: 'GET', path: '/api/v1/events' });
    void (async () => {
      const authed = req as unknown as AuthedRequest;
      authed.realm = await services.realms.resolve(req.headers.host);
      await authenticate(req, res);
      const user = authed.authUser;
      if (!user) throw errors.notLoggedIn();
      const identity = edgeIdentity(authed.realm, user);
      await serveGetEvents(services, new Params(Object.fromEntries(query)), user, identity, query, res, req.headers['user-agent'], fail);
    })().catch(fail);
    return true;
  };
}
