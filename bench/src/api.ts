/**
 * The bench's client of the public API: form-encoded requests through the gateway, with the
 * realm chosen by the Host header as any client's would be.
 */
import http from 'node:http';
import { ChatClient } from '@chat/client';

export interface Account {
  id: number;
  email: string;
  auth: string;
}

export interface Site {
  url: string;
  /** Host header naming the bench realm: `<string id>.<EXTERNAL_HOST>`. */
  host: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

export function basicAuth(email: string, apiKey: string): string {
  return `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
}

export function form(params: Record<string, unknown>): string {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    out.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return out.toString();
}

export interface Answer<T> {
  status: number;
  body: T & { result: string; msg?: string };
  bytes: number;
  /** From the request's start to its answer's last byte. */
  ms: number;
}

/** One request; resolves with the parsed envelope whatever the status. */
export function call<T = Record<string, unknown>>(site: Site, auth: string, method: string, path: string, params: Record<string, unknown> = {}): Promise<Answer<T>> {
  const target = new URL(site.url);
  const encoded = form(params);
  const withQuery = method === 'GET' || method === 'DELETE';
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname, port: target.port, agent, method,
        path: `/api/v1${path}${withQuery && encoded ? `?${encoded}` : ''}`,
        headers: {
          host: site.host, authorization: auth,
          ...(withQuery ? {} : { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(encoded) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          // A request's time runs to its answer's last byte, as a load generator's does: the
          // parse below is this client's own work, and in the bench's long-lived process (the
          // whole run's heap) it cost a few milliseconds more than in a fresh one.
          const ms = performance.now() - started;
          const raw = Buffer.concat(chunks);
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(raw.toString()), bytes: raw.length, ms });
          } catch {
            reject(new Error(`${method} ${path}: ${res.statusCode} ${raw.toString().slice(0, 200)}`));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(withQuery ? undefined : encoded);
  });
}

/**
 * The shared API client (packages/client) as `account`, for the bench's set-up and its web
 * phase. Its calls go over this module's keep-alive agent with the realm's Host header, which
 * fetch cannot send. The load cells keep `call`: they record each answer's status, size and
 * time to the last byte, which the client's success-or-throw calls do not expose.
 */
export function clientFor(site: Site, account: Pick<Account, 'auth'>): ChatClient {
  const target = new URL(site.url);
  const viaAgent = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> =>
    new Promise((resolve, reject) => {
      const url = new URL(String(input));
      const body = typeof init.body === 'string' ? init.body : undefined;
      const headers: Record<string, string | number> = { ...(init.headers as Record<string, string>), host: site.host, authorization: account.auth };
      if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
      const req = http.request({ host: target.hostname, port: target.port, agent, method: init.method ?? 'GET', path: url.pathname + url.search, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status }));
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  return new ChatClient({ baseUrl: site.url, auth: { kind: 'none' }, fetch: viaAgent as typeof fetch });
}

/** A request that must succeed. */
export async function must<T = Record<string, unknown>>(site: Site, auth: string, method: string, path: string, params: Record<string, unknown> = {}): Promise<Answer<T>> {
  const a = await call<T>(site, auth, method, path, params);
  if (a.body.result !== 'success') throw new Error(`${method} ${path}: ${a.status} ${a.body.msg}`);
  return a;
}

/** Runs `fn` over `items` with at most `width` at once. */
export async function inParallel<I, O>(items: I[], width: number, fn: (item: I, index: number) => Promise<O>): Promise<O[]> {
  const out: O[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function summary(latencies: number[]): { p50: number; p90: number; p99: number; n: number } {
  const s = [...latencies].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 100) / 100;
  return { p50: r(percentile(s, 50)), p90: r(percentile(s, 90)), p99: r(percentile(s, 99)), n: s.length };
}
