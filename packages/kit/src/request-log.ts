/**
 * The access log: one line per request when it ends, at info (error for a 5xx), with its id,
 * method, masked URL, status and time. Written here rather than with pino-http, whose per-request
 * child logger serialised and redacted each request up front even when the line was never
 * written (a service at LOG_LEVEL=warn paid it on every request); here nothing is built unless
 * the level is enabled. Bodies and headers are never logged, so no credential can be.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { REQUEST_ID_HEADER } from '@chat/contracts';
import type { Logger } from './logger';

/** Query parameters whose values never reach a log line. */
const SECRET_PARAMS = /^(password|old_password|new_password|api_key|key|token|otp|mobile_flow_otp|desktop_flow_otp|csrf_token|json_web_token)$/i;

export function maskSecretParams(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = decodeURIComponent((eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '));
    return eq >= 0 && SECRET_PARAMS.test(name) ? `${pair.slice(0, eq)}=[Redacted]` : pair;
  });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

const UNLOGGED = new Set(['/healthz', '/readyz', '/metrics']);

declare module 'http' {
  interface IncomingMessage {
    /** The request's id: the gateway's, passed on in REQUEST_ID_HEADER, or a new one. */
    id: string;
  }
}

/**
 * An express middleware, also run as is on bare Node requests (the gateway's proxied routes,
 * which do not enter express): `originalUrl` is express's, the URL as it arrived.
 */
export function requestLog(log: Logger) {
  return (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: () => void): void => {
    const id = (req.headers[REQUEST_ID_HEADER] as string | undefined) ?? randomUUID();
    req.id = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    if (!UNLOGGED.has(req.url ?? '')) {
      const started = performance.now();
      // The URL as it arrived: routers rewrite req.url on the way down.
      const method = req.method;
      const originalUrl = req.originalUrl ?? req.url ?? '';
      res.once('finish', () => {
        const level = res.statusCode >= 500 ? 'error' : 'info';
        if (!log.isLevelEnabled(level)) return;
        log[level]({
          req: { id, method, url: maskSecretParams(originalUrl), remoteAddress: req.socket.remoteAddress },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
        }, level === 'error' ? 'request errored' : 'request completed');
      });
    }
    next();
  };
}
