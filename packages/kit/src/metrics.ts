import http from 'node:http';
import type { AddressInfo } from 'node:net';
import client from 'prom-client';
import type { NextFunction, Request, Response } from 'express';

export interface Metrics {
  registry: client.Registry;
  httpDuration: client.Histogram<'method' | 'route' | 'status'>;
}

/** One registry per app, so several services in one test process do not collide. */
export function createMetrics(service: string): Metrics {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service });
  client.collectDefaultMetrics({ register: registry });
  const httpDuration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route template',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60],
    registers: [registry],
  });
  return { registry, httpDuration };
}

export function metricsMiddleware(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction) => {
    const end = metrics.httpDuration.startTimer();
    res.on('finish', () => {
      // Route templates, never raw paths: ids in paths would explode label cardinality. A
      // router that matches paths itself (the gateway's route table) names the template in
      // res.locals.route. Express has left the mounted router (and reset req.baseUrl) by the
      // time the response finishes, so the app notes its mount point in res.locals.routeBase.
      const route =
        (res.locals.route as string | undefined) ??
        (req.route?.path ? `${(res.locals.routeBase as string | undefined) ?? req.baseUrl}${String(req.route.path)}` : 'unmatched');
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}

/** A gauge read at scrape time, so the hot path never updates it. */
export function gaugeOf(metrics: Metrics, name: string, help: string, read: () => number): void {
  new client.Gauge({
    name,
    help,
    registers: [metrics.registry],
    collect() {
      this.set(read());
    },
  });
}

/** A counter kept by its owner as a plain number and read at scrape time, like gaugeOf. */
export function counterOf(metrics: Metrics, name: string, help: string, read: () => number): void {
  new client.Counter({
    name,
    help,
    registers: [metrics.registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

export interface MetricsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves GET /metrics on a port of its own, which deployments keep off the public network
 * (the gateway's public port answers 404 there). Port 0 picks a free port (tests).
 */
export async function serveMetrics(metrics: Metrics, host: string, port: number): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A gauge read at scrape time from something that takes a round trip (Redis, Postgres). */
export function asyncGaugeOf(metrics: Metrics, name: string, help: string, read: () => Promise<number>): void {
  new client.Gauge({
    name,
    help,
    registers: [metrics.registry],
    async collect() {
      this.set(await read());
    },
  });
}

export function histogramOf(metrics: Metrics, name: string, help: string, buckets: number[]): client.Histogram {
  return new client.Histogram({ name, help, buckets, registers: [metrics.registry] });
}
