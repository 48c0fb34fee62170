import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { errors, speaksFamilyDialect, toFamilyDialect, type Identity } from '@chat/contracts';
import { jsonBytes } from './json-bytes';
import { Params } from './params';

export interface AuthedIdentity extends Identity {
  userId: number;
  email: string;
  role: number;
  isBot: boolean;
}

export interface Ctx {
  req: Request;
  res: Response;
  p: Params;
  identity: Identity;
}

export interface AuthedCtx extends Ctx {
  identity: AuthedIdentity;
}

type Result = Record<string, unknown> | void;

/**
 * Wraps a thin route handler: reads parameters, requires a user unless told otherwise,
 * renders `{result: "success", msg: "", ...data}` and reports unsupported parameters.
 * A handler that wrote its own response (a file, a redirect) returns nothing.
 */
export function endpoint(handler: (ctx: AuthedCtx) => Promise<Result> | Result): RequestHandler;
export function endpoint(handler: (ctx: Ctx) => Promise<Result> | Result, opts: { auth: 'optional' }): RequestHandler;
export function endpoint(
  handler: (ctx: never) => Promise<Result> | Result,
  opts: { auth: 'required' | 'optional' } = { auth: 'required' },
): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const identity = req.identity;
      if (!identity) throw errors.missingIdentity();
      if (opts.auth === 'required' && identity.userId === undefined) throw errors.notLoggedIn();
      const p = Params.fromRequest(req);
      const data = await (handler as (ctx: Ctx) => Promise<Result> | Result)({ req, res, p, identity });
      if (res.headersSent) return;
      sendSuccess(res, data ?? {}, p.unsupported());
    } catch (err) {
      next(err);
    }
  };
}

export function sendSuccess(res: Response, data: Record<string, unknown>, ignored: string[] = []): void {
  const body: Record<string, unknown> = { result: 'success', msg: '', ...data };
  // Sorted, as the family lists them (not in the order the request gave them).
  if (ignored.length) body.ignored_parameters_unsupported = [...ignored].sort();
  // Serialised here rather than by res.json so the text can follow the client's dialect, and in
  // pieces so that a large answer never becomes one large string (json-bytes.ts).
  const family = speaksFamilyDialect(res.req?.header('user-agent'));
  res.status(200).set('Content-Type', 'application/json; charset=utf-8').send(jsonBytes(body, family ? toFamilyDialect : undefined));
}
