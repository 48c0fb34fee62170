import http from 'node:http';
import type { TLSSocket } from 'node:tls';
import { errors, IDENTITY_HEADER, REQUEST_ID_HEADER, type ServiceName } from '@chat/contracts';
import { basicChallengeOmitted, isInternalHeader, sendError, type Logger } from '@chat/kit';
import type { LoginRedirect } from './login-redirect';

/** Headers that describe one hop, not the message (RFC 9110 §7.6.1), plus what we replace. */
const HOP_HEADERS = new Set([
  'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection',
  'te', 'trailer', 'upgrade', 'host', 'authorization', IDENTITY_HEADER,
]);

/**
 * Streams a request to the owning service and its answer back, untouched but for the hop
 * headers: bodies are never buffered here, so uploads of any size pass at constant memory.
 * Pooled keep-alive sockets make the extra hop cheap.
 */
export class Forwarder {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 512, keepAliveMsecs: 1000, timeout: 60000 });

  constructor(
    private readonly upstreams: Record<Exclude<ServiceName, 'gateway'>, URL>,
    private readonly log: Logger,
    private readonly timeoutMs: number,
  ) {}

  /**
   * `url`: the request's path and query as it arrived (express's `originalUrl`). `onUnauthorized`:
   * a browser's file request without a login, whose 401 turns into the way to the login page.
   */
  forward(
    req: http.IncomingMessage, res: http.ServerResponse, service: Exclude<ServiceName, 'gateway'>, identityToken: string, requestId: string, url: string,
    onUnauthorized?: LoginRedirect,
  ): void {
    const target = this.upstreams[service];
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!HOP_HEADERS.has(name) && !isInternalHeader(name)) headers[name] = value as http.OutgoingHttpHeader;
    }
    headers[IDENTITY_HEADER] = identityToken;
    headers[REQUEST_ID_HEADER] = requestId;
    headers['x-forwarded-for'] = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    headers['x-forwarded-host'] = req.headers.host ?? '';
    headers['x-forwarded-proto'] = protocolOf(req);
    headers.host = target.host;

    const upstream = http.request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: url,
      headers,
      agent: this.agent,
      timeout: this.timeoutMs,
    });
    // A browser's request (admit marked it): a service's 401 loses its Basic challenge too.
    const dropChallenge = basicChallengeOmitted(res);
    upstream.on('response', (answer) => {
      const status = answer.statusCode ?? 502;
      const toLogin = status === 401 ? onUnauthorized : undefined;
      if (toLogin?.location) {
        // The service's body is not needed; read it off so its socket goes back to the pool.
        answer.resume();
        res.writeHead(302, { location: toLogin.location, vary: 'Accept', 'cache-control': 'no-store', 'content-length': '0' });
        return void res.end();
      }
      const out: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (name !== 'connection' && name !== 'keep-alive' && name !== 'transfer-encoding') out[name] = value;
      }
      if (dropChallenge) delete out['www-authenticate'];
      // A 401 kept for a browser (an <img> asking) is so because of its Accept (login-redirect.ts).
      if (toLogin) Object.assign(out, { vary: 'Accept', 'cache-control': 'no-store' });
      res.writeHead(status, out);
      answer.pipe(res);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timeout')));
    upstream.on('error', (err) => {
      this.log.warn({ err, service }, 'upstream request failed');
      if (res.headersSent) return void res.destroy();
      sendError(res, errors.upstreamUnavailable());
    });
    // A client that goes away takes its upstream request with it.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * What express's `req.protocol` said with `trust proxy` on (createApp sets it): the first entry
 * of X-Forwarded-Proto, else the socket's own.
 */
export function protocolOf(req: http.IncomingMessage): string {
  const own = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const header = (req.headers['x-forwarded-proto'] as string | undefined) || own;
  const comma = header.indexOf(',');
  return comma !== -1 ? header.substring(0, comma).trim() : header.trim();
}
