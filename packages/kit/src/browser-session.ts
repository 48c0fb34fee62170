/**
 * Browser sessions: the one place that says what a session cookie is, where its record lives,
 * how a password change ends it, and what a CSRF token is. The users service writes sessions
 * (its account pages log people in and out, through express-session); the gateway reads them
 * to let the web app use the API at `/json/...` and fetch files (ADR 0036). Both must agree
 * on every rule here, so neither keeps a copy.
 *
 * - Cookie `sessionid`: express-session's signed value (`s:<id>.<signature>`, cookie-signature),
 *   signed with a secret derived from INTERNAL_SECRET.
 * - Record: `<REDIS_PREFIX>session:<id>` (@chat/bus keys: pageSession), express-session's JSON
 *   with the fields of `BrowserSessionFields`; Redis expires it with the session.
 * - Password: the record keeps a fingerprint of the hash it was started with, so a new password
 *   ends the sessions started before it; a person who changes their own from a session keeps
 *   that one (`keepBrowserSession`).
 * - CSRF: csrf-csrf's signed double submit, bound to the session id: the token is in the
 *   `csrftoken` cookie and must come back in the `X-CSRFToken` header (or, on a form, the
 *   `csrfmiddlewaretoken` field), as on the family's server.
 */
import { createHash, createHmac } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import cookieParser from 'cookie-parser';
import { doubleCsrf } from 'csrf-csrf';

export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
/** The form field a page's form carries its token in. */
export const CSRF_FIELD = 'csrfmiddlewaretoken';
/** The header the web app sends its token in (Node lower-cases incoming names). */
export const CSRF_HEADER = 'x-csrftoken';

/** What a logged-in session records, beside express-session's own `cookie`. */
export interface BrowserSessionFields {
  /** Set once logged in. */
  userId?: number;
  realmId?: number;
  /** `passwordFingerprint` of the password hash at login: a new password ends older sessions. */
  authHash?: string;
  /** Marks an anonymous session kept so that its forms' CSRF tokens stay valid. */
  forms?: true;
}

export interface BrowserSessionRecord extends BrowserSessionFields {
  cookie?: { expires?: string | null };
}

/** Secrets of browser sessions, derived from INTERNAL_SECRET so a deployment has one secret to keep. */
export function browserSecret(internalSecret: string, purpose: 'session' | 'csrf'): string {
  return createHmac('sha256', internalSecret).update(`pages:${purpose}`).digest('hex');
}

/**
 * A short digest of a stored password hash: sessions and reset links remember it, so that
 * setting a new password voids the ones made before.
 */
export function passwordFingerprint(passwordHash: string | null): string {
  return createHash('sha256').update(passwordHash ?? '').digest('base64url').slice(0, 22);
}

/** A request as these helpers need it: the bare Node one, or express's. */
export type CookieRequest = IncomingMessage & { cookies?: Record<string, string>; sessionID?: string; body?: unknown };

const parseCookies = cookieParser();

/** Parses the Cookie header into `req.cookies` (once), as express's cookie-parser does. */
export function browserCookies(req: CookieRequest): Record<string, string> {
  if (!req.cookies) parseCookies(req as Request, undefined as unknown as Response, () => undefined);
  return req.cookies ?? {};
}

/** The express middleware form of `browserCookies`, for pages. */
export const browserCookieParser = parseCookies;

/** Whether the request carries a session cookie at all (good or not). */
export function hasSessionCookie(req: CookieRequest): boolean {
  return browserCookies(req)[SESSION_COOKIE] !== undefined;
}

/** The session id the request's `sessionid` cookie names, or null when it has none or its signature is wrong. */
export function sessionIdOf(req: CookieRequest, internalSecret: string): string | null {
  const raw = browserCookies(req)[SESSION_COOKIE];
  // express-session writes `s:` + cookie-signature's signed value; anything else is not ours.
  if (typeof raw !== 'string' || !raw.startsWith('s:')) return null;
  const id = cookieParser.signedCookie(raw, browserSecret(internalSecret, 'session'));
  return typeof id === 'string' && id !== '' ? id : null;
}

/** The record of one session (`key`: @chat/bus pageSession of its id), or null when it ended. */
export async function readBrowserSession(
  redis: { get(key: string): Promise<string | null> },
  key: string,
): Promise<BrowserSessionRecord | null> {
  const raw = await redis.get(key);
  if (!raw) return null;
  const record = JSON.parse(raw) as BrowserSessionRecord;
  // Redis expires the key with the session; this only covers a clock or TTL gone astray.
  const expires = record.cookie?.expires ? Date.parse(record.cookie.expires) : NaN;
  return expires < Date.now() ? null : record;
}

/**
 * Sets the record's value only while it is still `seen`, keeping its TTL: Redis 7 has no
 * SET IFEQ, and a plain SET could bring back a session that a logout deleted meanwhile, or
 * undo a write of the pages that came in between.
 */
const REPLACE_IF_UNCHANGED = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1`;

/**
 * Keeps the session a person changed their own password from (the family's
 * `update_session_auth_hash`): its record takes the new password's fingerprint, so it stays
 * good while every other session of theirs, still holding the old one, is refused at its next
 * request. Called once the new hash is stored. The id stays as it is (Django cycles it; here
 * the CSRF token is bound to the id, and a new one would break the page that made the change).
 * Only a record that still exists and names `userId` is touched; resolves to whether one was.
 */
export async function keepBrowserSession(
  redis: { get(key: string): Promise<string | null>; eval(script: string, numKeys: number, ...args: string[]): Promise<unknown> },
  key: string,
  userId: number,
  passwordHash: string | null,
): Promise<boolean> {
  // A concurrent write of the same record (rare: the pages write a logged-in record only at
  // login and logout) makes the first attempt fail; a second one reads it again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const raw = await redis.get(key);
    if (!raw) return false;
    const record = JSON.parse(raw) as BrowserSessionRecord;
    if (record.userId !== userId) return false;
    const next = JSON.stringify({ ...record, authHash: passwordFingerprint(passwordHash) });
    if (Number(await redis.eval(REPLACE_IF_UNCHANGED, 1, key, raw, next)) === 1) return true;
  }
  return false;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

export function isSafeMethod(method: string | undefined): boolean {
  return SAFE_METHODS.has(method ?? 'GET');
}

function tokenIn(req: { body?: unknown; headers: IncomingHttpHeaders }): string | undefined {
  const field = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
  if (typeof field === 'string') return field;
  const header = req.headers[CSRF_HEADER];
  return typeof header === 'string' ? header : undefined;
}

export interface BrowserCsrf {
  /** express middleware: refuses an unsafe request without a good token (with `isRefusal`'s error). */
  protect: (req: Request, res: Response, next: (err?: unknown) => void) => void;
  isRefusal(err: unknown): boolean;
  /**
   * The token for the session `req.sessionID`, setting the `csrftoken` cookie (Secure when
   * `secure`); the cookie's token when it is already good for this session.
   */
  token(req: Request, res: Response, secure: boolean): string;
  /**
   * Why an unsafe request fails the check, in the words of the family's server (Django's
   * reasons), or null when it passes or is safe. `req.sessionID` must be set.
   */
  refusal(req: CookieRequest): string | null;
}

/**
 * The CSRF check of browser sessions. `skip` exempts requests that carry no ambient authority
 * (the users service's API sign-up through an invitation).
 */
export function browserCsrf(internalSecret: string, opts: { skip?: (req: Request) => boolean } = {}): BrowserCsrf {
  const secret = browserSecret(internalSecret, 'csrf');
  const csrf = doubleCsrf({
    getSecret: () => secret,
    // express-session sets it; typed here without its global augmentation of express's Request.
    getSessionIdentifier: (req) => (req as CookieRequest).sessionID ?? '',
    cookieName: CSRF_COOKIE,
    cookieOptions: { httpOnly: true, sameSite: 'lax', path: '/', secure: false },
    getCsrfTokenFromRequest: tokenIn,
    errorConfig: { statusCode: 403, message: 'CSRF verification failed.', code: 'EBADCSRFTOKEN' },
    skipCsrfProtection: opts.skip,
  });
  return {
    protect: csrf.doubleCsrfProtection,
    isRefusal: (err) => err === csrf.invalidCsrfTokenError,
    token(req, res, secure) {
      browserCookies(req);
      return csrf.generateCsrfToken(req, res, { cookieOptions: { secure } });
    },
    refusal(req) {
      if (isSafeMethod(req.method)) return null;
      if (!browserCookies(req)[CSRF_COOKIE]) return 'CSRF cookie not set.';
      if (!tokenIn(req)) return 'CSRF token missing.';
      return csrf.validateRequest(req as Request) ? null : 'CSRF token incorrect.';
    },
  };
}
