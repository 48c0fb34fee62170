import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { ApiError, errors } from '@chat/contracts';
import type { Logger } from './logger';

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  code?: string;
  field?: string;
}

/** Maps anything thrown to the envelope; only programming errors become a 500. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = (err ?? {}) as HttpishError;
  if (e.type === 'entity.parse.failed') return errors.malformedJsonBody();
  if (e.type === 'entity.too.large' || e.code === 'LIMIT_FILE_SIZE') {
    return new ApiError('BAD_REQUEST', 'Request body too large', 413);
  }
  if (typeof e.code === 'string' && e.code.startsWith('LIMIT_')) {
    return errors.badRequest(e.code === 'LIMIT_UNEXPECTED_FILE' ? 'Unexpected file upload' : 'Invalid multipart body');
  }
  // A multipart body multer could not read (a part without a name, and the like).
  if ((err as Error | null)?.name === 'MulterError') return errors.badRequest('Invalid multipart body');
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
    return errors.badRequest('Unsupported request encoding');
  }
  const data = dataException(err);
  if (data) return data;
  const status = e.status ?? e.statusCode;
  if (status && status >= 400 && status < 500) return errors.badRequest('Bad request');
  return errors.internal();
}

/**
 * A value Postgres refuses as data (a number beyond its column's range, text it cannot store)
 * came from the request: the client's mistake, and nothing was written (the statement failed,
 * so its transaction rolled back).
 */
function dataException(err: unknown): ApiError | null {
  const e = err as { code?: string; meta?: { driverAdapterError?: { cause?: { originalCode?: string; kind?: string } } } } | null;
  const cause = e?.meta?.driverAdapterError?.cause;
  const sqlState = cause?.originalCode ?? '';
  if (e?.code === 'P2020' || cause?.kind === 'ValueOutOfRange' || sqlState === '22003') return errors.badRequest('Number out of range');
  if (sqlState === '22P05' || sqlState === '22021' || sqlState === '54000') return errors.badRequest('Invalid characters in request');
  return null;
}

/**
 * Answers with `err` in the envelope, on an express response or a bare Node one (the gateway's
 * long-poll path): logs what is a 500, and cuts off an answer that had already begun.
 */
export function renderError(log: Logger, res: ServerResponse, err: unknown, where: { method?: string; path?: string }): void {
  const apiError = toApiError(err);
  if (apiError.status >= 500) log.error({ err, ...where }, 'request failed');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (res.destroyed) return;
  sendError(res, apiError);
}

const withoutChallenge = new WeakSet<ServerResponse>();

/**
 * Marks an answer to a browser (the web app's `/json` requests, files fetched with a session
 * cookie): a 401 then carries no `WWW-Authenticate: Basic`, which would open the browser's
 * password dialog.
 */
export function omitBasicChallenge(res: ServerResponse): void {
  withoutChallenge.add(res);
}

export function basicChallengeOmitted(res: ServerResponse): boolean {
  return withoutChallenge.has(res);
}

/** The error envelope with its status, and the headers its code asks for. */
export function sendError(res: ServerResponse, apiError: ApiError): void {
  const body = JSON.stringify(apiError.toJSON());
  if (apiError.code === 'RATE_LIMIT_HIT') res.setHeader('Retry-After', String(apiError.extra['retry-after']));
  if (apiError.status === 401 && !withoutChallenge.has(res)) res.setHeader('WWW-Authenticate', 'Basic realm="chat"');
  res.writeHead(apiError.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export function errorRenderer(log: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    renderError(log, res, err, { path: req.path, method: req.method });
  };
}
