import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import type { AppState } from './app';
import type { Logger } from './logger';
import { serveMetrics, type Metrics, type MetricsServer } from './metrics';

export interface RunningServer {
  server: http.Server;
  port: number;
  url: string;
  /** Where GET /metrics answers, when a metrics port was given. */
  metricsUrl?: string;
  /** Called first on close: lets long-lived requests (long-polls) answer and end. */
  onDrain(hook: () => void | Promise<void>): void;
  close(graceMs?: number): Promise<void>;
}

export async function listen(
  app: Express,
  opts: {
    host: string;
    port: number;
    state?: AppState;
    log?: Logger;
    keepAliveTimeoutMs?: number;
    /**
     * Pending-connection queue. Node's default (511) overflows when thousands of clients
     * reconnect at once, e.g. every long-poll of a gateway replica that just stopped, and the
     * overflow is answered with resets. The kernel caps it at net.core.somaxconn.
     */
    backlog?: number;
    /**
     * Sees each request before the app and returns true when it answered it itself: for a
     * path held open by thousands of clients at once (long-polls), where the app's per-request
     * machinery would cost more memory than the request.
     */
    intercept?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
    /** The app's registry, served on `metricsPort` (METRICS_PORT) by a server of its own. */
    metrics?: Metrics;
    metricsPort?: number;
  },
): Promise<RunningServer> {
  const intercept = opts.intercept;
  const server = http.createServer(intercept ? (req, res) => void (intercept(req, res) || app(req, res)) : app);
  // Longer than the gateway's pooled keep-alive so the gateway never reuses a socket we just closed.
  server.keepAliveTimeout = opts.keepAliveTimeoutMs ?? 65000;
  server.headersTimeout = server.keepAliveTimeout + 1000;
  server.requestTimeout = 0;
  server.on('clientError', answerClientError);
  const drainHooks: Array<() => void | Promise<void>> = [];
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: opts.port, host: opts.host, backlog: opts.backlog ?? 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let metricsServer: MetricsServer | undefined;
  if (opts.metrics && opts.metricsPort !== undefined) {
    try {
      metricsServer = await serveMetrics(opts.metrics, opts.host, opts.metricsPort);
    } catch (err) {
      server.close();
      throw err;
    }
  }
  let closing: Promise<void> | undefined;

  const close = (graceMs = 10000): Promise<void> => {
    closing ??= (async () => {
      if (opts.state) opts.state.draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled(drainHooks.map((hook) => hook()));
      server.closeIdleConnections();
      // Keep-alive sockets go idle as their last request finishes; close them as they do.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const deadline = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([closed, deadline]);
      clearInterval(sweep);
      server.closeAllConnections();
      await closed;
      await metricsServer?.close();
      opts.log?.info('server closed');
    })();
    return closing;
  };

  return {
    server,
    port,
    url: `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`,
    metricsUrl: metricsServer?.url,
    onDrain: (hook) => void drainHooks.push(hook),
    close,
  };
}

/**
 * Requests Node's parser refuses before any handler sees them (headers or URL beyond
 * maxHeaderSize, malformed request lines) still get the envelope, not a bare status line.
 */
function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const [status, reason, msg] =
    err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large', 'Request headers or URL too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout', 'Request timed out']
        : [400, 'Bad Request', 'Bad request'];
  const body = JSON.stringify({ result: 'error', msg, code: 'BAD_REQUEST' });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

export interface ServiceHandle {
  url: string;
  port: number;
  /** Where this service's GET /metrics answers (its METRICS_PORT). */
  metricsUrl?: string;
  stop(): Promise<void>;
}

/**
 * How long a stop may take before the process exits anyway: under Kubernetes' default grace
 * period of 30 s, so a stop stuck on a dependency that is gone (a Redis that never answers)
 * ends the process with an error rather than leaving it running until it is killed.
 */
export const STOP_DEADLINE_MS = 25_000;

/**
 * Entry point helper: start, then stop cleanly on SIGTERM/SIGINT (exit code 0). A stop that
 * fails, outlasts `stopDeadlineMs`, or is interrupted by a second signal exits with code 1.
 */
export function runService(name: string, start: () => Promise<ServiceHandle>, log: Logger, stopDeadlineMs = STOP_DEADLINE_MS): void {
  start()
    .then((handle) => {
      log.info({ url: handle.url }, `${name} listening`);
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) {
          log.error({ signal }, `${name} stopped by a second signal before its stop finished`);
          process.exit(1);
        }
        stopping = true;
        log.info({ signal }, `${name} stopping`);
        setTimeout(() => {
          log.error({ stopDeadlineMs }, `${name} did not stop in time`);
          process.exit(1);
        }, stopDeadlineMs).unref();
        handle
          .stop()
          .then(() => process.exit(0))
          .catch((err) => {
            log.error({ err }, 'shutdown failed');
            process.exit(1);
          });
      };
      process.on('SIGTERM', () => stop('SIGTERM'));
      process.on('SIGINT', () => stop('SIGINT'));
    })
    .catch((err) => {
      log.fatal({ err }, `${name} failed to start`);
      process.exit(1);
    });
}
