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
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
    return errors.badRequest('Unsupported request encoding');
  }
  const status = e.status ?? e.statusCode;
  if (status && status >= 400 && status < 500) return errors.badRequest('Bad request');
  return errors.internal();
}

export function errorRenderer(log: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const apiError = toApiError(err);
    if (apiError.status >= 500) log.error({ err, path: req.path, method: req.method }, 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (apiError.code === 'RATE_LIMIT_HIT') res.setHeader('Retry-After', String(apiError.extra['retry-after']));
    if (apiError.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="chat"');
    res.status(apiError.status).json(apiError.toJSON());
  };
}
