import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError, errors, type Identity } from '@chat/contracts';
import type { User } from '@chat/db';
import { toApiError } from '@chat/kit';
import type { Services } from '../context';
import { renderPage, sendErrorPage, wantsJson, type PageOptions } from './layout';
import { sessionUser, type PageSecurity } from './session';

/** What a page handler gets: the request, the realm, its session's user and form helpers. */
export interface PageCtx {
  req: Request;
  res: Response;
  services: Services;
  identity: Identity;
  /** A form field from the body, else the query string; only plain strings count. */
  str(name: string): string | undefined;
  /** The CSRF token for a form on this page. */
  csrf(): string;
  /** The logged-in person, if the session holds a good one. */
  user(): Promise<User | null>;
  /** Sends a page; `status` 200 unless given. */
  send(opts: Omit<PageOptions, 'account'>, status?: number): Promise<void>;
}

export type PageHandler = (ctx: PageCtx) => Promise<void>;

export function pageHandler(services: Services, security: PageSecurity, handler: PageHandler): RequestHandler {
  return async (req, res, next) => {
    try {
      if (!req.identity) throw errors.missingIdentity();
      let user: Promise<User | null> | undefined;
      const ctx: PageCtx = {
        req,
        res,
        services,
        identity: req.identity,
        str(name) {
          const fromBody = (req.body as Record<string, unknown> | undefined)?.[name];
          if (typeof fromBody === 'string') return fromBody;
          const fromQuery = (req.query as Record<string, unknown>)[name];
          return typeof fromQuery === 'string' ? fromQuery : undefined;
        },
        csrf: () => security.csrfToken(req, res),
        user: () => (user ??= sessionUser(services, req)),
        async send(opts, status = 200) {
          const me = await ctx.user();
          const account = me ? { email: me.deliveryEmail, csrf: ctx.csrf() } : undefined;
          res.status(status).type('html').send(renderPage({ ...opts, account }));
        },
      };
      await handler(ctx);
    } catch (err) {
      next(err);
    }
  };
}

/** The last word on any error of a page: the message as a page (or envelope), never a stack. */
export function pageErrors(services: Services, security: PageSecurity) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const apiError = security.isCsrfError(err) ? errors.csrfFormFailed() : toApiError(err);
    if (apiError.status >= 500) services.log.error({ err, path: req.path }, 'page failed');
    if (res.headersSent) return void res.destroy();
    sendErrorPage(req, res, apiError, titleFor(apiError));
  };
}

function titleFor(err: ApiError): string {
  if (err.code === 'CSRF_FAILED') return 'Forbidden';
  if (err.code === 'RATE_LIMIT_HIT') return 'Too many requests';
  if (err.status === 404) return 'Page not found';
  return 'Something went wrong';
}

/**
 * A local path to go to after login, its query and fragment kept (the web app's deep links are
 * `/#narrow/...`): only same-site paths, never another host. Browsers drop tabs and newlines
 * from a URL, so `/<tab>/host` would become `//host`: control characters are refused too.
 */
export function safeNext(next: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || /[\u0000-\u001f\u007f]/.test(next)) return '/';
  return next;
}

export { wantsJson };
