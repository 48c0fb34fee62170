import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type Router } from 'express';
import multer from 'multer';
import { errors } from '@chat/contracts';
import type { Logger } from './logger';
import { createMetrics, metricsMiddleware, type Metrics } from './metrics';
import { requireGatewayIdentity } from './identity';
import { errorRenderer, toApiError } from './render';
import { rejectBadPaths } from './guards';
import { requestLog } from './request-log';

export { maskSecretParams, requestLog } from './request-log';

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
  /**
   * Set false where a route streams multipart bodies itself (uploads); a function keeps the
   * generic parser for the requests it accepts and leaves the others' bodies to their route
   * (one that takes a file beside its fields, `multipartWithFiles`).
   */
  parseMultipart?: boolean | ((req: express.Request) => boolean);
  /** Set false where bodies must pass through untouched (the gateway streams them on). */
  parseBodies?: boolean;
  /** Largest form or JSON body accepted by the generic parsers. */
  bodyLimit?: string;
}

export interface AppState {
  draining: boolean;
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
  app.use(requestLog(opts.log));
  app.use(metricsMiddleware(metrics));
  app.use(securityHeaders);
  app.use(rejectBadPaths);

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
  // GET /metrics is served on a port of its own (serveMetrics, METRICS_PORT), never here.

  const parsers = opts.parseBodies === false ? [] : bodyParsers(opts);
  const identity = opts.internalSecret ? [requireGatewayIdentity(opts.internalSecret)] : [];
  if (opts.api) {
    const api = express.Router();
    opts.api(api);
    api.use((_req, _res, next) => next(errors.notFound()));
    const base: express.RequestHandler = (_req, res, next) => {
      res.locals.routeBase = '/api/v1';
      next();
    };
    app.use('/api/v1', base, ...identity, ...parsers, api);
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

/**
 * Every answer: no sniffing, no framing, no referrer leaks; pages are the ones that need it.
 * Also run on bare Node requests (the gateway's proxied routes).
 */
export function securityHeaders(_req: IncomingMessage, res: ServerResponse, next: () => void): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  next();
}

export function bodyParsers(opts: Pick<AppOptions, 'bodyLimit' | 'parseMultipart'>): express.RequestHandler[] {
  const limit = opts.bodyLimit ?? '5mb';
  // The bytes as sent stay beside the parsed body: an incoming webhook's signature is over them.
  const keepRaw = (req: IncomingMessage, _res: ServerResponse, buf: Buffer) => {
    (req as express.Request).rawBody = buf;
  };
  const list: express.RequestHandler[] = [
    express.urlencoded({ extended: false, limit, parameterLimit: 10000, verify: keepRaw }),
    express.json({ limit, strict: false, verify: keepRaw }),
  ];
  const parseMultipart = opts.parseMultipart ?? true;
  if (parseMultipart !== false) {
    // Text fields only: files belong to the uploads service, which streams them itself.
    const fields = multer({ limits: { fieldSize: 1024 * 1024, files: 0 } }).none();
    // Whatever breaks in a multipart body (a nameless field, a cut-off part, a bad boundary) is
    // the client's: multer and busboy report some of it without a status.
    const badBody = (err: unknown) => {
      const known = toApiError(err);
      return known.status >= 500 ? errors.badRequest('Invalid multipart body') : known;
    };
    const wanted = (req: express.Request) => req.is('multipart/form-data') && (parseMultipart === true || parseMultipart(req));
    list.push((req, res, next) => (wanted(req) ? fields(req, res, (err?: unknown) => next(err ? badBody(err) : undefined)) : next()));
  }
  return list;
}

export interface MultipartFilesOptions {
  /** Largest file accepted, in MiB (named in the refusal). */
  maxFileMib: number;
  /** Files accepted; one more is refused with `tooMany`. */
  maxFiles: number;
  tooMany: () => Error;
}

/**
 * A route's own multipart parser for a form with a few small files (a bot's avatar beside its
 * fields): text fields into `req.body`, files into memory (`req.files`), before the handler reads
 * its parameters. The app must leave such requests to it (`parseMultipart` as a function). A
 * body announcing more than the limits allow is refused before it is read.
 */
export function multipartWithFiles(opts: MultipartFilesOptions): express.RequestHandler {
  const maxBytes = opts.maxFileMib * 1024 * 1024;
  const parse = multer({ storage: multer.memoryStorage(), limits: { fileSize: maxBytes, files: opts.maxFiles, fieldSize: 1024 * 1024 } }).any();
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) return next();
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes * opts.maxFiles + 1024 * 1024) {
      res.setHeader('Connection', 'close');
      return next(errors.fileTooLarge(opts.maxFileMib));
    }
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const code = (err as { code?: string }).code;
      if (code === 'LIMIT_FILE_SIZE') return next(errors.fileTooLarge(opts.maxFileMib));
      if (code === 'LIMIT_FILE_COUNT') return next(opts.tooMany());
      next(errors.badRequest('Invalid multipart body'));
    });
  };
}

/** The files a `multipartWithFiles` parser read, in the order they came. */
export function uploadedFiles(req: express.Request): Array<{ field: string; name: string; type: string; data: Buffer }> {
  const files = (req.files as Express.Multer.File[] | undefined) ?? [];
  return files.map((f) => ({ field: f.fieldname, name: f.originalname, type: f.mimetype, data: f.buffer }));
}
