import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { errors } from '@chat/contracts';
import { edgeIdentity, omitBasicChallenge, Params, renderError, stripInternalHeaders, type Metrics } from '@chat/kit';
import type { AuthedRequest } from './auth';
import type { Services } from './context';
import { serveGetEvents } from './events';
import type { SessionAuthenticator } from './sessions';

/** The API's, and the web app's (/json, with its browser session). */
const PATH = /^\/(api\/v1|json)\/events\/?$/;

/**
 * GET /api/v1/events served on the bare Node server, ahead of express: a gateway holds tens of
 * thousands of these at once, and each one waiting inside the express router kept its whole
 * middleware chain (closures, contexts, parsed URL, router state) alive, about ten times the
 * memory of the socket itself. Same realm resolution, authentication (HTTP Basic, or the
 * browser session at /json/events), envelope and metrics as every other route. A session is
 * checked when the poll arrives: after a logout a held poll ends as usual, and the next one
 * is refused.
 */
export function longPollInterceptor(
  services: Services,
  edge: { basic: RequestHandler; sessions: SessionAuthenticator; metrics: Metrics },
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const authenticate = (req: IncomingMessage, res: ServerResponse) =>
    new Promise<void>((resolve, reject) =>
      edge.basic(req as never, res as never, (err?: unknown) => (err ? reject(err) : resolve())),
    );

  return (req, res) => {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (!PATH.test(path)) return false;
    const route = path.startsWith('/json/') ? '/json/events' : '/api/v1/events';
    const end = edge.metrics.httpDuration.startTimer();
    res.once('finish', () => end({ method: 'GET', route, status: String(res.statusCode) }));
    stripInternalHeaders(req.headers);
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const fail = (err: unknown) => renderError(services.log, res, err, { method: 'GET', path: route });
    void (async () => {
      const authed = req as unknown as AuthedRequest;
      authed.realm = await services.realms.resolve(req.headers.host);
      let sessionId: string | undefined;
      if (route === '/json/events') {
        omitBasicChallenge(res);
        ({ user: authed.authUser, sessionId } = await edge.sessions.require(req, authed.realm));
      } else {
        await authenticate(req, res);
      }
      const user = authed.authUser;
      if (!user) throw errors.notLoggedIn();
      const identity = edgeIdentity(authed.realm, user, undefined, sessionId);
      await serveGetEvents(services, new Params(Object.fromEntries(query)), user, identity, query, res, req.headers['user-agent'], fail);
    })().catch(fail);
    return true;
  };
}
