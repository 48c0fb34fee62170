import type { NextFunction, Request, RequestHandler, Response } from 'express';
import session, { type SessionData, Store } from 'express-session';
import helmet from 'helmet';
import { redisKeys } from '@chat/bus';
import type { User } from '@chat/db';
import {
  browserCookieParser, browserCsrf, browserSecret, passwordFingerprint, SESSION_COOKIE, type BrowserSessionFields,
} from '@chat/kit';
import type { Services } from '../context';
import { wantsJson } from './layout';

/**
 * Browser sessions of the account pages. The session lives in Redis (any replica serves any
 * request) under a random id the `sessionid` cookie carries: HttpOnly, SameSite=Lax, Secure
 * when the realm's URL is https. Forms carry a CSRF token (csrf-csrf's signed double submit,
 * bound to the session id) that a POST must echo. What a session cookie, its record and a
 * token are is @chat/kit's browser-session, which the gateway reads by too (ADR 0036): this
 * service writes sessions, the gateway lets the web app use them.
 */

declare module 'express-session' {
  // The fields kit's browser-session defines, so the gateway reads what is written here; an
  // empty body because this merges into express-session's own interface.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface SessionData extends BrowserSessionFields {}
}

/** As the family's server: a login lasts two weeks; an anonymous form session one hour. */
export const LOGGED_IN_MAX_AGE_MS = 14 * 86_400_000;
const ANONYMOUS_MAX_AGE_MS = 3_600_000;

/** express-session's store over the service's own ioredis client (standalone or cluster). */
export class RedisSessionStore extends Store {
  constructor(
    private readonly redis: Services['redis'],
    /** Names the key of one session (@chat/bus keys: pageSession). */
    private readonly key: (sid: string) => string,
  ) {
    super();
  }

  private static ttl(sess: SessionData): number {
    const ms = sess.cookie?.maxAge ?? ANONYMOUS_MAX_AGE_MS;
    return Math.max(1, Math.ceil(ms / 1000));
  }

  override get(sid: string, cb: (err: unknown, sess?: SessionData | null) => void): void {
    this.redis.get(this.key(sid)).then((raw) => cb(null, raw ? (JSON.parse(raw) as SessionData) : null), cb);
  }

  override set(sid: string, sess: SessionData, cb?: (err?: unknown) => void): void {
    this.redis.set(this.key(sid), JSON.stringify(sess), 'EX', RedisSessionStore.ttl(sess)).then(() => cb?.(), (err) => cb?.(err));
  }

  override touch(sid: string, sess: SessionData, cb?: (err?: unknown) => void): void {
    this.redis.expire(this.key(sid), RedisSessionStore.ttl(sess)).then(() => cb?.(), (err) => cb?.(err));
  }

  override destroy(sid: string, cb?: (err?: unknown) => void): void {
    this.redis.del(this.key(sid)).then(() => cb?.(), (err) => cb?.(err));
  }
}

export function isHttps(req: Request): boolean {
  return (req.identity?.realmUrl ?? '').startsWith('https:');
}

export interface PageSecurity {
  /** helmet, cookies, the session and the CSRF check, in order. */
  middleware: RequestHandler[];
  /** The token a form must carry; keeps the anonymous session so the token stays valid. */
  csrfToken(req: Request, res: Response): string;
  isCsrfError(err: unknown): boolean;
}

export function pageSecurity(services: Services): PageSecurity {
  const store = new RedisSessionStore(services.redis, redisKeys(services.config.REDIS_PREFIX).pageSession);
  const sessions = session({
    name: SESSION_COOKIE,
    secret: browserSecret(services.config.INTERNAL_SECRET, 'session'),
    store,
    resave: false,
    saveUninitialized: false,
    // Behind the gateway: whether the request was https comes from X-Forwarded-Proto.
    proxy: true,
    cookie: { httpOnly: true, sameSite: 'lax', path: '/', maxAge: ANONYMOUS_MAX_AGE_MS },
  });
  // An API client signing up through an invitation gets a key, not a browser session: with
  // no session cookie there is no ambient authority for a forged request to borrow.
  const csrf = browserCsrf(services.config.INTERNAL_SECRET, {
    skip: (req) => wantsJson(req) && req.path.startsWith('/join/') && !req.cookies?.[SESSION_COOKIE],
  });
  const secureCookies = (req: Request, _res: Response, next: NextFunction) => {
    if (req.session) req.session.cookie.secure = isHttps(req);
    next();
  };
  const headers = helmet({
    contentSecurityPolicy: {
      // form-action also governs where a submitted form may be redirected: the mobile flow's
      // login ends in a redirect to the app's zulip:// scheme.
      directives: { defaultSrc: ["'none'"], styleSrc: ["'unsafe-inline'"], formAction: ["'self'", 'zulip:'], frameAncestors: ["'none'"], baseUri: ["'none'"] },
    },
    // Only pages on https realms ask browsers to stay on https.
    strictTransportSecurity: false,
  });
  const hsts = helmet.strictTransportSecurity();
  return {
    middleware: [
      headers,
      (req, res, next) => (isHttps(req) ? hsts(req, res, next) : next()),
      (req, res, next) => {
        // Pages hold API keys and one-time tokens: never cached.
        res.setHeader('Cache-Control', 'no-store');
        next();
      },
      browserCookieParser,
      sessions,
      secureCookies,
      csrf.protect,
    ],
    csrfToken(req, res) {
      if (!req.session.userId) {
        req.session.forms = true;
      }
      return csrf.token(req, res, isHttps(req));
    },
    isCsrfError: (err) => csrf.isRefusal(err),
  };
}

/** Starts a logged-in session under a fresh id, so an id known before login is worth nothing. */
export function logIn(req: Request, user: Pick<User, 'id' | 'realmId' | 'passwordHash'>): Promise<void> {
  return new Promise((resolve, reject) => {
    req.session.regenerate((err) => {
      if (err) return reject(err);
      req.session.userId = user.id;
      req.session.realmId = user.realmId;
      req.session.authHash = passwordFingerprint(user.passwordHash);
      req.session.cookie.maxAge = LOGGED_IN_MAX_AGE_MS;
      req.session.cookie.secure = isHttps(req);
      req.session.save((e) => (e ? reject(e) : resolve()));
    });
  });
}

/** Ends the session (its row goes) and carries on with a fresh, empty one. */
export function logOut(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
}

/**
 * The session's user, if it is still good: same realm as the request, active, and the password
 * unchanged since login. A stale session is ended.
 */
export async function sessionUser(services: Services, req: Request): Promise<User | null> {
  const { userId, realmId, authHash } = req.session;
  if (userId === undefined) return null;
  const user = realmId === req.identity?.realmId ? await services.db.user.findUnique({ where: { id: userId } }) : null;
  const realm = user ? await services.db.realm.findUnique({ where: { id: user.realmId }, select: { deactivated: true } }) : null;
  if (!user || !user.isActive || user.isBot || !realm || realm.deactivated || authHash !== passwordFingerprint(user.passwordHash)) {
    await logOut(req);
    return null;
  }
  return user;
}
