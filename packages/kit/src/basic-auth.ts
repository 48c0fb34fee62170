import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { errors } from '@chat/contracts';

export type BasicVerify<U> = (req: Request, email: string, apiKey: string) => Promise<U>;

/**
 * HTTP Basic `email:api_key`. `verify` returns the user or throws an ApiError (invalid key,
 * deactivated user or realm); the caller decides whether a missing header is allowed for the
 * route.
 *
 * The header is read exactly as passport-http's BasicStrategy read it before (split on single
 * spaces, the password up to the next colon, an empty email or key refused without asking
 * `verify`): the gateway ran every request through passport, whose per-request machinery and
 * deprecated `new Buffer()` (a stack walk per call) cost more CPU than the rest of the check.
 */
export function basicAuth<U>(verify: BasicVerify<U>): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const credentials = basicCredentials(req.headers.authorization);
    if (credentials instanceof Error) return next(credentials);
    verify(req, credentials.email, credentials.apiKey).then(
      (user) => {
        if (!user) return next(errors.invalidApiKey());
        (req as Request & { authUser?: U }).authUser = user;
        next();
      },
      (err: unknown) => next(err),
    );
  };
}

/** The `email` and `apiKey` of an HTTP Basic header, or the ApiError that refuses it. */
export function basicCredentials(header: string | undefined): { email: string; apiKey: string } | Error {
  if (!header) return errors.missingAuthHeader();
  const [scheme, encoded] = header.split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'basic') return errors.basicAuthRequired();
  const decoded = Buffer.from(encoded ?? '', 'base64').toString('utf8');
  if (!decoded.includes(':')) return errors.invalidAuthHeader();
  // From here on, passport-http's reading (lib/passport-http/strategies/basic.js, 0.3.0).
  const parts = header.split(' ');
  if (parts.length < 2 || !/Basic/i.test(parts[0]!)) return errors.invalidApiKey();
  const fields = (parts[1] === encoded ? decoded : Buffer.from(parts[1]!, 'base64').toString()).split(':');
  if (fields.length < 2 || !fields[0] || !fields[1]) return errors.invalidApiKey();
  return { email: fields[0], apiKey: fields[1] };
}
