import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { Pool } from 'pg';
import { createBlockingRedis, createRedis, redisKeys } from '@chat/bus';
import {
  bodyParsers, basicAuth, createApp, counterOf, createLogger, edgeIdentity, gaugeOf, hasSessionCookie, listen, LoginFailureLimiter,
  omitBasicChallenge, stripInternalHeaders, type ServiceHandle,
} from '@chat/kit';
import { ApiError, errors, resolveApiRoute, resolveFileRoute, type RouteRule } from '@chat/contracts';
import { AckBatcher, QueueStore, QueueWaiter } from '@chat/queues';
import { readConfig } from './config';
import { RealmResolver } from './realms';
import { Authenticator, type AuthedRequest, type AuthUser } from './auth';
import type { Services } from './context';
import { Forwarder } from './proxy';
import { fileLoginRedirect } from './login-redirect';
import { KnownKeys } from './known-keys';
import { IdentityTokens } from './tokens';
import { deleteEvents } from './events';
import { longPollInterceptor } from './longpoll';
import { proxyInterceptor, type ProxiedRule } from './proxy-path';
import { StaticFiles } from './static-files';
import { SessionAuthenticator, type SessionUser } from './sessions';
import { WebApp } from './web-app';

const API_PREFIX = '/api/v1';
/** The web app's name for /api/v1: the same routes, authenticated by the browser session. */
const JSON_PREFIX = '/json';

/** How a request is authenticated: HTTP Basic (/api/v1), the browser session (/json), or either (files). */
type Via = 'api' | 'json' | 'file';

export async function start(overrides: Record<string, string | undefined> = {}): Promise<ServiceHandle> {
  const config = readConfig(overrides);
  const log = createLogger('gateway', config.LOG_LEVEL);
  // Two indexed lookups, both cached: plain pg keeps the gateway's footprint small (ADR 0003).
  const pool = new Pool({ connectionString: config.DATABASE_URL, max: 10, application_name: 'gateway' });
  // An idle client whose server went away (a Postgres restart) emits 'error' on the pool;
  // unheard, that ends the process. The pool drops the client and connects anew on next use.
  pool.on('error', (err) => log.warn({ err }, 'postgres connection lost'));
  const redis = createRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'gateway' });
  const subscriber = createBlockingRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'gateway-wake' });
  const store = new QueueStore(redis, config.REDIS_PREFIX);
  const keys = redisKeys(config.REDIS_PREFIX);
  const wakePrefix = store.wakeChannel('');
  const waiter = new QueueWaiter(subscriber, (q) => store.wakeChannel(q), (c) => c.slice(wakePrefix.length));
  // Re-polls held without reading their queue are acknowledged together (ADR 0026); a queue
  // found gone wakes its polls, which then read it and answer the error.
  const acks = new AckBatcher(store, (queueIds, err) => {
    if (err) log.warn({ err }, 'held-back acknowledgements failed');
    for (const q of queueIds) waiter.poke(q);
  }, config.EVENTS_ACK_BATCH_MS);
  const realms = new RealmResolver(pool, config);
  // Each replica's recent keys, dropped on every forget message of the users service (ADR 0022).
  const authForgets = config.AUTH_CACHE_SECONDS > 0 && config.AUTH_LOCAL_CACHE_SECONDS > 0
    ? createBlockingRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'gateway-auth' })
    : null;
  const known = authForgets ? new KnownKeys<AuthUser>(config.AUTH_LOCAL_CACHE_SECONDS * 1000) : undefined;
  // The people of browser sessions, kept as briefly and dropped by the same messages (ADR 0036).
  const knownSessionUsers = authForgets ? new KnownKeys<SessionUser>(config.AUTH_LOCAL_CACHE_SECONDS * 1000) : undefined;
  if (authForgets) {
    known!.listen(authForgets, keys.authForgetChannel());
    knownSessionUsers!.listen(authForgets, keys.authForgetChannel());
  }
  const tokens = new IdentityTokens(config.INTERNAL_SECRET);
  const authenticator = new Authenticator(pool, redis, keys.authCache, config.AUTH_CACHE_SECONDS, known);
  const sessions = new SessionAuthenticator(pool, redis, keys.pageSession, config.INTERNAL_SECRET, knownSessionUsers);
  const forwarder = new Forwarder(
    {
      messaging: new URL(config.MESSAGING_URL),
      users: new URL(config.USERS_URL),
      events: new URL(config.EVENTS_URL),
      uploads: new URL(config.UPLOADS_URL),
      push: new URL(config.PUSH_URL),
    },
    log,
    config.UPSTREAM_TIMEOUT_MS,
  );
  const limiter = config.RATE_LIMIT_PER_MINUTE
    ? new RateLimiterRedis({ storeClient: redis, keyPrefix: keys.rateLimitPrefix(), points: config.RATE_LIMIT_PER_MINUTE, duration: 60 })
    : null;
  const basicFailures = new LoginFailureLimiter(redis, (subject) => keys.loginFailurePrefix('basic', subject), {
    perIp: { failures: config.BASIC_AUTH_FAILURES_PER_IP, windowSeconds: config.BASIC_AUTH_FAILURES_PER_IP_SECONDS },
    perAccount: { failures: config.BASIC_AUTH_FAILURES_PER_EMAIL, windowSeconds: config.BASIC_AUTH_FAILURES_PER_EMAIL_SECONDS },
  });
  const basic = basicAuth<AuthUser>(async (req, email, key) => {
    const realm = (req as AuthedRequest).realm!;
    const ip = clientAddress(req, config.TRUSTED_PROXY_HOPS);
    // An address that has guessed too often is refused before the database lookup a guess costs
    // (a cached, known-good key never reaches it, so the hot path stays one Redis read); an email
    // over its limit only turns further wrong keys into 429s, so its right key always gets through.
    try {
      return await authenticator.verify(realm, email, key, () => basicFailures.check({ ip }));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_API_KEY') {
        const wait = await basicFailures.failed({ ip, account: `${realm.id}:${email}` });
        if (wait !== null) throw errors.rateLimited(wait);
      }
      throw err;
    }
  });
  const authenticate = (req: IncomingMessage, res: ServerResponse) =>
    new Promise<void>((resolve, reject) => basic(req as Request, res as Response, (err?: unknown) => (err ? reject(err) : resolve())));
  /** A webhook's caller: HTTP Basic when sent, else the `api_key` query parameter. */
  const authenticateWebhook = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.authorization) return authenticate(req, res);
    const apiKey = new URL(req.url ?? '/', 'http://x').searchParams.get('api_key');
    if (!apiKey) throw errors.missingArgument('api_key');
    const authed = req as AuthedRequest;
    const ip = clientAddress(req, config.TRUSTED_PROXY_HOPS);
    try {
      authed.authUser = await authenticator.verifyKey(authed.realm!, apiKey, () => basicFailures.check({ ip }));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_API_KEY') {
        const wait = await basicFailures.failed({ ip, account: `${authed.realm!.id}:webhook` });
        if (wait !== null) throw errors.rateLimited(wait);
      }
      throw err;
    }
  };
  const services: Services = {
    log, realms, store, waiter, acks, heartbeatMs: config.EVENTS_HEARTBEAT_SECONDS * 1000, eventsUrl: config.EVENTS_URL,
    internalSecret: config.INTERNAL_SECRET,
  };
  const serveDeleteEvents = deleteEvents(services);
  const parseBody = bodyParsers({});
  const staticFiles = new StaticFiles();
  const webApp = new WebApp(config.WEB_DIST_DIR, log);

  /**
   * The realm, the caller if the route asks for one (or one is offered), and the identity.
   * /json: the browser session only, which an unsafe method must back with its CSRF token.
   * Files: HTTP Basic when offered, else the browser session when the cookie is there.
   */
  const admit = async (req: IncomingMessage, res: ServerResponse, rule: RouteRule, via: Via) => {
    const authed = req as AuthedRequest;
    const realm = (authed.realm = await realms.resolve(req.headers.host));
    const browser = via === 'json' || (via === 'file' && !req.headers.authorization);
    // As on the family's server, only /api/v1 asks for HTTP Basic: in a browser the challenge
    // opens a password dialog.
    if (browser) omitBasicChallenge(res);
    let sessionId: string | undefined;
    const required = rule.auth === 'required' || rule.auth === 'webhook';
    if (browser && (required || (rule.auth === 'optional' && hasSessionCookie(req)))) {
      // Where a caller is optional, a session no longer good leaves a spectator, as on the
      // family's server; where one is required, it is a 401.
      const login = required ? await sessions.require(req, realm) : await sessions.login(req, realm);
      if (login) {
        sessions.checkCsrf(req);
        authed.authUser = login.user;
        sessionId = login.sessionId;
      }
    } else if (!browser && rule.auth === 'webhook') {
      await authenticateWebhook(req, res);
    } else if (!browser && (rule.auth === 'required' || (rule.auth === 'optional' && req.headers.authorization))) {
      await authenticate(req, res);
    }
    const user = authed.authUser;
    return { user, realm, identity: edgeIdentity(realm, user, clientAddress(req, config.TRUSTED_PROXY_HOPS), sessionId) };
  };

  /**
   * A route another service owns: admitted, rate limited, forwarded with its signed identity.
   * A /json path goes on as its /api/v1 twin: services cannot tell a session from an API key.
   */
  const serveProxied = async (req: IncomingMessage, res: ServerResponse, rule: ProxiedRule, url: string) => {
    const via = viaOf(url);
    const { user, realm, identity } = await admit(req, res, rule, via);
    if (user && limiter) await consumeRateLimit(limiter, user.userId, res);
    const target = via === 'json' ? API_PREFIX + url.slice(JSON_PREFIX.length) : url;
    // A browser's file request with no login (no Authorization header, no good session): the
    // service's 401, if it answers one, leads to the login page as on the family's server.
    const toLogin = via === 'file' && !user && !req.headers.authorization ? fileLoginRedirect(req, url) : undefined;
    forwarder.forward(req, res, rule.service, tokens.sign(identity, user, realm), String(req.id), target, toLogin);
  };

  /** The shell's session: the same checks as /json's. */
  const shellSession = async (req: Request) => {
    const realm = await realms.resolve(req.headers.host);
    return (await sessions.login(req, realm)) ? { secure: realm.url.startsWith('https:') } : null;
  };

  // What the proxy path (proxy-path.ts) leaves to express: the gateway's own routes, unknown
  // paths, and paths it does not take as plain.
  const dispatch = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const rule = routeOf(req);
      if (!rule) throw errors.notFound();
      res.locals.route = routeLabel(rule, prefixOf(req.path));
      if (rule.service !== 'gateway') return await serveProxied(req, res, rule as ProxiedRule, req.originalUrl);
      // The gateway's own files are the same for every realm: no realm, no identity.
      if (staticFiles.has(req.path)) return staticFiles.serve(req, res);
      if (webApp.owns(req.path)) return await webApp.serve(req, res, shellSession, (q, r, secure) => sessions.csrf.token(q, r, secure));
      req.identity = (await admit(req, res, rule, viaOf(req.path))).identity;
      serveEvents(req, res, next);
    } catch (err) {
      next(err);
    }
  };

  const serveEvents = (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'DELETE') return runAll(parseBody, req, res, () => serveDeleteEvents(req, res, next), next);
    // GET never gets here: the long-poll interceptor answers it ahead of express.
    next(errors.methodNotAllowed(['GET', 'DELETE']));
  };

  const { app, state, metrics } = createApp({
    service: 'gateway',
    log,
    parseBodies: false,
    ready: async () => {
      await pool.query('SELECT 1');
      await redis.ping();
    },
    site: (router) => {
      router.use(dispatch);
    },
  });
  gaugeOf(metrics, 'gateway_longpolls_waiting', 'GET /events requests held open, waiting for events', () => waiter.size);
  counterOf(metrics, 'gateway_repolls_held_unread_total', 'GET /events held without reading the queue, right after an answer from a wake-up (ADR 0026)', () => acks.deferred);
  const longPoll = longPollInterceptor(services, { basic, sessions, metrics });
  const proxy = proxyInterceptor({
    log, metrics, serve: serveProxied,
    route: (path, method) => {
      const rule = resolveRoute(path, method);
      return rule && rule.service !== 'gateway' ? { rule: rule as ProxiedRule, label: routeLabel(rule, prefixOf(path)) } : undefined;
    },
  });
  const intercept = (req: IncomingMessage, res: ServerResponse) => longPoll(req, res) || proxy(req, res);
  const server = await listen(app, { host: config.HOST, port: config.PORT, state, log, intercept, metrics, metricsPort: config.METRICS_PORT });
  // Draining: waiting long-polls answer now (empty) and clients re-poll another replica.
  server.onDrain(() => waiter.closeAll());
  return {
    url: server.url,
    metricsUrl: server.metricsUrl,
    port: server.port,
    async stop() {
      await server.close(config.SHUTDOWN_GRACE_MS);
      await acks.flush();
      forwarder.close();
      subscriber.disconnect();
      authForgets?.disconnect();
      await redis.quit().catch(() => undefined);
      await pool.end();
    },
  };
}

function routeOf(req: Request): RouteRule | undefined {
  stripInternalHeaders(req.headers);
  return resolveRoute(req.path, req.method);
}

function resolveRoute(path: string, method: string): RouteRule | undefined {
  const prefix = prefixOf(path);
  return prefix ? resolveApiRoute(path.slice(prefix.length) || '/', method) : resolveFileRoute(path);
}

/** /api/v1 or /json when the path (or URL) is below one of them, else '' (a file route). */
function prefixOf(url: string): string {
  for (const prefix of [API_PREFIX, JSON_PREFIX]) {
    const next = url.charAt(prefix.length);
    if (url.startsWith(prefix) && (next === '' || next === '/' || next === '?')) return prefix;
  }
  return '';
}

function viaOf(url: string): Via {
  const prefix = prefixOf(url);
  return prefix === API_PREFIX ? 'api' : prefix === JSON_PREFIX ? 'json' : 'file';
}

const routeLabels = new Map<string, string>();

/**
 * The route table's pattern as a readable template (`/api/v1/messages/*`, `/avatar/{name}`):
 * the gateway's metrics label, bounded by the table's size whatever paths clients send.
 */
export function routeLabel(rule: RouteRule, prefix: string): string {
  const key = `${prefix}${rule.pattern.source}`;
  let label = routeLabels.get(key);
  if (label === undefined) {
    label = prefix + rule.pattern.source
      .replace(/^\^/, '')
      .replace(/(\\\/\?)?\$$/, '')
      .replace(/\(\\\/\.\*\)\?/g, '/*')
      .replace(/\\d\+/g, '{id}')
      .replace(/\[\^\/\]\+/g, '{name}')
      .replace(/\.\+/g, '*')
      .replace(/\\(.)/g, '$1');
    routeLabels.set(key, label);
  }
  return label;
}

/**
 * The client's address: the socket's peer, or with trusted proxies in front the entry they
 * appended to X-Forwarded-For. Entries left of that are the client's to write, never trusted.
 */
export function clientAddress(req: IncomingMessage, trustedHops: number): string {
  const peer = req.socket.remoteAddress ?? '';
  if (trustedHops === 0) return peer;
  const header = req.headers['x-forwarded-for'];
  const chain = [...(Array.isArray(header) ? header.join(',') : (header ?? '')).split(','), peer].map((a) => a.trim()).filter(Boolean);
  return chain[Math.max(0, chain.length - 1 - trustedHops)] ?? peer;
}

async function consumeRateLimit(limiter: RateLimiterRedis, userId: number, res: ServerResponse): Promise<void> {
  try {
    const r = await limiter.consume(String(userId));
    res.setHeader('X-RateLimit-Limit', String(limiter.points));
    res.setHeader('X-RateLimit-Remaining', String(r.remainingPoints));
    res.setHeader('X-RateLimit-Reset', String(Math.ceil((Date.now() + r.msBeforeNext) / 1000)));
  } catch (err) {
    if (err instanceof RateLimiterRes) {
      res.setHeader('X-RateLimit-Limit', String(limiter.points));
      res.setHeader('X-RateLimit-Remaining', '0');
      throw errors.rateLimited(Math.ceil(err.msBeforeNext / 1000));
    }
    throw err;
  }
}

type Middleware = (req: Request, res: Response, next: (err?: unknown) => void) => void;

function runAll(chain: Middleware[], req: Request, res: Response, done: () => void, fail: (err: unknown) => void): void {
  const step = (i: number) => {
    if (i === chain.length) return done();
    chain[i]!(req, res, (err?: unknown) => (err ? fail(err) : step(i + 1)));
  };
  step(0);
}
