import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteRule, ServiceName } from '@chat/contracts';
import { renderError, requestLog, securityHeaders, stripInternalHeaders, type Logger, type Metrics } from '@chat/kit';

/** A route another service owns. */
export type ProxiedRule = RouteRule & { service: Exclude<ServiceName, 'gateway'> };

/**
 * Paths the proxy path takes: plain ones. A percent-encoded path (express's guard refuses some),
 * an absolute-form request target, whitespace or a fragment (which express's URL parsing treats
 * apart) and the health checks stay with express, which answers them as before.
 */
const PLAIN_PATH = /^\/[^%\s#]*$/;
const HEALTH = /^\/(healthz|readyz)\/?$/i;
const noop = () => undefined;

/**
 * Requests for routes another service owns, served on the bare Node server ahead of express:
 * express's router, the request and response objects it dresses up and its middleware chain
 * cost more of the gateway's CPU per proxied request than the forwarding itself (ADR 0022).
 * The steps are the express path's, in its order and with kit's same functions: the access log
 * and request id (`requestLog`), the request metrics by route template, the security headers,
 * the client's internal headers dropped, then `serve` (realm, authentication, identity, rate
 * limit, forward); a failure is rendered in the same envelope. Everything else (the gateway's
 * own routes, unknown paths, unusual ones) returns false and goes to express.
 */
export function proxyInterceptor(opts: {
  log: Logger;
  metrics: Metrics;
  /** The owning rule and its metrics label, or undefined when the gateway or nobody serves it. */
  route: (path: string, method: string) => { rule: ProxiedRule; label: string } | undefined;
  serve: (req: IncomingMessage, res: ServerResponse, rule: ProxiedRule, url: string) => Promise<void>;
}): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { log, metrics } = opts;
  const logRequest = requestLog(log);
  return (req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    if (!PLAIN_PATH.test(path) || HEALTH.test(path)) return false;
    const found = opts.route(path, method);
    if (!found) return false;
    logRequest(req, res, noop);
    const end = metrics.httpDuration.startTimer();
    res.once('finish', () => end({ method, route: found.label, status: String(res.statusCode) }));
    securityHeaders(req, res, noop);
    stripInternalHeaders(req.headers);
    opts.serve(req, res, found.rule, url).catch((err: unknown) => renderError(log, res, err, { method, path }));
    return true;
  };
}
