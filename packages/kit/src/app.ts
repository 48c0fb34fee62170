import express, { type Express, type Router } from 'express';
import multer from 'multer';
import pinoHttp from 'pino-http';
import { randomUUID } from 'node:crypto';
import { errors, REQUEST_ID_HEADER } from '@chat/contracts';
import type { Logger } from './logger';
import { createMetrics, metricsMiddleware, type Metrics } from './metrics';
import { requireGatewayIdentity } from './identity';
import { errorRenderer } from './render';

export interface AppOptions {
  service: string;
  log: Logger;
  /** Secret that verifies the gateway's identity header; absent only for the gateway itself. */
  internalSecret?: string;
  metrics?: Metrics;
  /** Throws when the service cannot serve (database or Redis down). */
  ready?: () => Promise<void>;
  /** Routes below /api/v1. */
  api?: (router: Router) => void;
  /** Routes outside /api/v1 (served files, sign-up pages). Same identity rules. */
  site?: (router: Router) => void;
  /** Set false where a route streams multipart bodies itself (uploads). */
  parseMultipart?: boolean;
  /** Set false where bodies must pass through untouched (the gateway streams them on). */
  parseBodies?: boolean;
  /** Largest form or JSON body accepted by the generic parsers. */
  bodyLimit?: string;
}

export interface AppState {
  draining: boolean;
}

/** Query parameters whose values never reach a log line. */
const SECRET_PARAMS = /^(password|old_password|new_password|api_key|key|token|otp|mobile_flow_otp|desktop_flow_otp|csrf_token|json_web_token)$/i;

/** The URL with the values of secret query parameters replaced by "[Redacted]". */
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

export function createApp(opts: AppOptions): { app: Express; state: AppState; metrics: Metrics } {
  const app = express();
  const state: AppState = { draining: false };
  const metrics = opts.metrics ?? createMetrics(opts.service);
  app.disable('x-powered-by');
  // API answers are never cached by clients; hashing every body for an ETag is wasted work.
  app.set('etag', false);
  app.set('trust proxy', true);
  app.set('query parser', 'simple');
  const httpLogger = pinoHttp({
    logger: opts.log,
    genReqId: (req, res) => {
      const id = (req.headers[REQUEST_ID_HEADER] as string | undefined) ?? randomUUID();
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    // Never log credentials or the signed identity. Bodies are not logged at all; a secret sent
    // in the query string (some clients do) is masked in the logged URL.
    redact: ['req.headers.authorization', 'req.headers["x-chat-identity"]', 'req.headers.cookie'],
    serializers: {
      req: (req: { url?: string; query?: unknown }) => {
        if (typeof req.url === 'string') req.url = maskSecretParams(req.url);
        delete req.query;
        return req;
      },
    },
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' },
  });
  app.use(httpLogger);
  app.use(metricsMiddleware(metrics));

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    if (state.draining) return void res.status(503).json({ status: 'draining' });
    try {
      await opts.ready?.();
      res.json({ status: 'ready' });
    } catch (err) {
      res.status(503).json({ status: 'unavailable', reason: (err as Error).message });
    }
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });

  const parsers = opts.parseBodies === false ? [] : bodyParsers(opts);
  const identity = opts.internalSecret ? [requireGatewayIdentity(opts.internalSecret)] : [];
  if (opts.api) {
    const api = express.Router();
    opts.api(api);
    api.use((_req, _res, next) => next(errors.notFound()));
    app.use('/api/v1', ...identity, ...parsers, api);
  }
  if (opts.site) {
    const site = express.Router();
    opts.site(site);
    app.use(...identity, ...parsers, site);
  }
  app.use((_req, _res, next) => next(errors.notFound()));
  app.use(errorRenderer(opts.log));
  return { app, state, metrics };
}

export function bodyParsers(opts: Pick<AppOptions, 'bodyLimit' | 'parseMultipart'>): express.RequestHandler[] {
  const limit = opts.bodyLimit ?? '5mb';
  const list: express.RequestHandler[] = [
    express.urlencoded({ extended: false, limit, parameterLimit: 10000 }),
    express.json({ limit, strict: false }),
  ];
  if (opts.parseMultipart !== false) {
    // Text fields only: files belong to the uploads service, which streams them itself.
    const fields = multer({ limits: { fieldSize: 1024 * 1024, files: 0 } }).none();
    list.push((req, res, next) => (req.is('multipart/form-data') ? fields(req, res, next) : next()));
  }
  return list;
}
