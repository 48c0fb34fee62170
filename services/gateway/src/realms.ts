import type { Pool } from 'pg';
import { errors } from '@chat/contracts';
import { realmUrlFor } from '@chat/kit';
import type { GatewayConfig } from './config';

export interface ResolvedRealm {
  id: number;
  url: string;
  deactivated: boolean;
}

/** Realm rows change rarely; a short in-process cache keeps them off the request path. */
const CACHE_MS = 30000;

/**
 * Maps the Host header to a realm: `<sub>.<EXTERNAL_HOST>` is the realm with that string id;
 * any other host (the bare EXTERNAL_HOST, an IP, a load balancer name) is ROOT_REALM.
 */
export class RealmResolver {
  private readonly cache = new Map<string, { realm: ResolvedRealm | null; at: number }>();

  constructor(
    private readonly pool: Pool,
    private readonly config: GatewayConfig,
  ) {}

  subdomainOf(host: string | undefined): string {
    const h = (host ?? '').toLowerCase();
    const base = this.config.EXTERNAL_HOST.toLowerCase();
    return h.endsWith(`.${base}`) ? h.slice(0, -base.length - 1) : this.config.ROOT_REALM;
  }

  async resolve(host: string | undefined): Promise<ResolvedRealm> {
    const sub = this.subdomainOf(host);
    const hit = this.cache.get(sub);
    if (hit && Date.now() - hit.at < CACHE_MS) {
      if (!hit.realm) throw errors.nonexistentRealm();
      return hit.realm;
    }
    const { rows } = await this.pool.query<{ id: number; deactivated: boolean }>(
      'SELECT id, deactivated FROM realms WHERE string_id = $1',
      [sub],
    );
    const row = rows[0];
    const realm = row ? { id: row.id, deactivated: row.deactivated, url: realmUrlFor(this.config, sub) } : null;
    this.cache.set(sub, { realm, at: Date.now() });
    if (!realm) throw errors.nonexistentRealm();
    return realm;
  }
}
