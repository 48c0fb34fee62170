import passport from 'passport';
import { BasicStrategy } from 'passport-http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { errors } from '@chat/contracts';

export type BasicVerify<U> = (req: Request, email: string, apiKey: string) => Promise<U>;

/**
 * HTTP Basic `email:api_key` through passport-http. `verify` returns the user or throws an
 * ApiError (invalid key, deactivated user or realm); the caller decides whether a missing
 * header is allowed for the route.
 */
export function basicAuth<U>(verify: BasicVerify<U>): RequestHandler {
  const instance = new passport.Passport();
  instance.use(
    new BasicStrategy({ passReqToCallback: true }, (req: Request, email: string, apiKey: string, done: (err: unknown, user?: unknown) => void) => {
      verify(req, email, apiKey).then(
        (user) => done(null, user),
        (err) => done(err),
      );
    }),
  );
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization;
    // No credentials at all is the family's "Not logged in" (its missing-header text is only
    // reachable from its own decorators, never through its request dispatcher).
    if (!header) return next(errors.notLoggedIn());
    const [scheme, encoded] = header.split(/\s+/, 2);
    if (scheme?.toLowerCase() !== 'basic') return next(errors.basicAuthRequired());
    const decoded = Buffer.from(encoded ?? '', 'base64').toString('utf8');
    if (!decoded.includes(':')) return next(errors.invalidAuthHeader());
    instance.authenticate('basic', { session: false }, (err: unknown, user: U | false) => {
      if (err) return next(err);
      if (!user) return next(errors.invalidApiKey());
      (req as Request & { authUser?: U }).authUser = user;
      next();
    })(req, res, next);
  };
}
