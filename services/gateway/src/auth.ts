import { timingSafeEqual } from 'node:crypto';
import type Redis from 'ioredis';
import type { Request } from 'express';
import type { Pool } from 'pg';
import { errors } from '@chat/contracts';
import type { KnownKeys } from './known-keys';
import type { ResolvedRealm } from './realms';

export interface AuthUser {
  userId: number;
  realmId: number;
  email: string;
  /** The real address; clients may log in with it or with the API email. */
  deliveryEmail: string;
  role: number;
  isBot: boolean;
  isActive: boolean;
}

/**
 * Looks up `email:api_key` for the realm of the request: this process's recent keys first (when
 * given, ADR 0022), then Redis, then Postgres.
 */
export class Authenticator {
  constructor(
    private readonly pool: Pool,
    private readonly redis: Redis,
    /** Names the cache entry of one API key (@chat/bus keys: authCache). */
    private readonly cacheKey: (apiKey: string) => string,
    private readonly cacheSeconds: number,
    private readonly known?: KnownKeys<AuthUser>,
  ) {}

  /**
   * `beforeDatabase` runs only when the key is not in the cache, i.e. before the lookup that a
   * guessed key costs (the failure limiter's check); a cached, known-good key skips it.
   */
  async verify(realm: ResolvedRealm, email: string, apiKey: string, beforeDatabase?: () => Promise<void>): Promise<AuthUser> {
    if (realm.deactivated) throw errors.realmDeactivated();
    const user = await this.lookup(apiKey, beforeDatabase);
    const knownAs = user && (sameEmail(user.email, email) || sameEmail(user.deliveryEmail, email));
    if (!user || user.realmId !== realm.id || !knownAs) throw errors.invalidApiKey();
    if (!user.isActive) throw errors.userDeactivated();
    return user;
  }

  /**
   * An incoming webhook's `api_key` query parameter (docs/integrations.md): the key alone names
   * the caller, as on the family's server, since providers are given a URL and nothing else.
   */
  async verifyKey(realm: ResolvedRealm, apiKey: string, beforeDatabase?: () => Promise<void>): Promise<AuthUser> {
    if (realm.deactivated) throw errors.realmDeactivated();
    const user = await this.lookup(apiKey, beforeDatabase);
    if (!user || user.realmId !== realm.id) throw errors.invalidApiKey();
    if (!user.isActive) throw errors.userDeactivated();
    return user;
  }

  private async lookup(apiKey: string, beforeDatabase?: () => Promise<void>): Promise<AuthUser | null> {
    const known = this.known?.get(apiKey);
    if (known) return known;
    // Taken before the Redis read: a forget that arrives while it is under way may have raced it.
    const generation = this.known?.generation ?? 0;
    const key = this.cacheKey(apiKey);
    if (this.cacheSeconds > 0) {
      const cached = await this.redis.get(key);
      if (cached) {
        const user = JSON.parse(cached) as AuthUser;
        this.known?.keep(apiKey, user, generation);
        return user;
      }
    }
    await beforeDatabase?.();
    const { rows } = await this.pool.query<{
      id: number; realm_id: number; email: string; delivery_email: string; role: number; is_bot: boolean; is_active: boolean; api_key: string;
    }>('SELECT id, realm_id, email, delivery_email, role, is_bot, is_active, api_key FROM users WHERE api_key = $1', [apiKey]);
    const row = rows[0];
    // The unique index found it; compare anyway in constant time so the lookup is not an oracle.
    if (!row || !constantTimeEqual(row.api_key, apiKey)) return null;
    const user: AuthUser = {
      userId: row.id, realmId: row.realm_id, email: row.email, deliveryEmail: row.delivery_email, role: row.role, isBot: row.is_bot, isActive: row.is_active,
    };
    // A forget heard meanwhile may be about this very row, read before its change committed:
    // cached, the old state would outlive the delete that was meant to end it.
    if (this.known && this.known.generation !== generation) return user;
    if (this.cacheSeconds > 0) await this.redis.set(key, JSON.stringify(user), 'EX', this.cacheSeconds);
    this.known?.keep(apiKey, user, generation);
    return user;
  }
}

function sameEmail(a: string | undefined, b: string): boolean {
  return !!a && a.toLowerCase() === b.trim().toLowerCase();
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export type AuthedRequest = Request & { authUser?: AuthUser; realm?: ResolvedRealm };
