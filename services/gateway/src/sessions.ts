import type { IncomingMessage } from 'node:http';
import type { Pool } from 'pg';
import { errors } from '@chat/contracts';
import { browserCsrf, passwordFingerprint, readBrowserSession, sessionIdOf, type BrowserCsrf, type CookieRequest } from '@chat/kit';
import type { AuthUser } from './auth';
import type { KnownKeys } from './known-keys';
import type { ResolvedRealm } from './realms';

/** A person as a session authenticates them: the API key's user, and their password's fingerprint. */
export interface SessionUser extends AuthUser {
  fingerprint: string;
}

/** A request whose browser session was found good. */
export interface SessionLogin {
  user: AuthUser;
  sessionId: string;
}

/**
 * The browser sessions the users service's pages write (kit's browser-session, ADR 0036), read
 * here so that the web app can use the API at `/json/...` and fetch files with its cookie.
 *
 * Each request reads its session record from Redis, never from a copy: logging out deletes
 * it, and the very next request (the next long-poll included) is refused. The person is read
 * from Postgres and kept in this process for a few seconds (`known`, dropped with the API keys
 * on every forget message of the users service, which sends one after a deactivation, a role
 * change or a new password), so the web app's steady requests cost one Redis read each.
 */
export class SessionAuthenticator {
  readonly csrf: BrowserCsrf;

  constructor(
    private readonly pool: Pool,
    private readonly redis: { get(key: string): Promise<string | null> },
    /** Names the record of one session (@chat/bus keys: pageSession). */
    private readonly sessionKey: (sessionId: string) => string,
    private readonly internalSecret: string,
    private readonly known?: KnownKeys<SessionUser>,
  ) {
    this.csrf = browserCsrf(internalSecret);
  }

  /**
   * The logged-in person of the request's session cookie, or null when there is none or it is
   * no longer good: forged or unknown, ended, another realm's, a deactivated organization or
   * person, a bot, or a password changed since login.
   */
  async login(req: IncomingMessage, realm: ResolvedRealm): Promise<SessionLogin | null> {
    const sessionId = sessionIdOf(req, this.internalSecret);
    if (!sessionId || realm.deactivated) return null;
    const session = await readBrowserSession(this.redis, this.sessionKey(sessionId));
    if (session?.userId === undefined || session.realmId !== realm.id) return null;
    const user = await this.lookup(session.userId, session.authHash);
    if (!user || user.realmId !== realm.id || !user.isActive || user.isBot || user.fingerprint !== session.authHash) return null;
    // csrf-csrf binds tokens to express-session's id, which it reads from the request.
    (req as CookieRequest).sessionID = sessionId;
    return { user, sessionId };
  }

  /** `login`, refusing with the family's 401 when no session is good. */
  async require(req: IncomingMessage, realm: ResolvedRealm): Promise<SessionLogin> {
    const found = await this.login(req, realm);
    if (!found) throw errors.notLoggedIn();
    return found;
  }

  /** Refuses an unsafe request of a logged-in session that lacks a good X-CSRFToken header. */
  checkCsrf(req: IncomingMessage): void {
    const reason = this.csrf.refusal(req);
    if (reason) throw errors.csrfFailed(reason);
  }

  /**
   * The person, kept or read. A kept row is used only when it agrees with the record's
   * fingerprint (`authHash`): after a password change from a session, that session's record
   * carries the new fingerprint before this process hears the forget, and the row kept
   * meanwhile is the older one. Reading again then accepts the kept session and, by keeping
   * the new row, refuses the others at once. A session the change ended costs one read per
   * request, as a person not kept does.
   */
  private async lookup(userId: number, authHash: string | undefined): Promise<SessionUser | null> {
    const key = String(userId);
    const kept = this.known?.get(key);
    if (kept && kept.fingerprint === authHash) return kept;
    // Taken before the read: a forget heard meanwhile may be about this very row.
    const generation = this.known?.generation ?? 0;
    const { rows } = await this.pool.query<{
      id: number; realm_id: number; email: string; delivery_email: string; role: number; is_bot: boolean; is_active: boolean; password: string | null;
    }>('SELECT id, realm_id, email, delivery_email, role, is_bot, is_active, password FROM users WHERE id = $1', [userId]);
    const row = rows[0];
    if (!row) return null;
    const user: SessionUser = {
      userId: row.id, realmId: row.realm_id, email: row.email, deliveryEmail: row.delivery_email, role: row.role,
      isBot: row.is_bot, isActive: row.is_active, fingerprint: passwordFingerprint(row.password),
    };
    this.known?.keep(key, user, generation);
    return user;
  }
}
