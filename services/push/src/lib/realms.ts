import type { Db } from '@chat/db';
import { realmUrlFor } from '@chat/kit';

export interface RealmInfo {
  realm_name: string;
  realm_url: string;
}

/**
 * Realm name and URL, which every notification payload carries so that a client logged in to
 * several organizations knows which one a push belongs to. Workers have no request (and so no
 * Host header) to take the URL from: it is built the way the gateway maps hosts to realms.
 */
export interface ExternalAddress {
  scheme: 'http' | 'https';
  host: string;
  rootRealm: string;
}

export function realmUrl(address: ExternalAddress, stringId: string): string {
  return realmUrlFor({ EXTERNAL_SCHEME: address.scheme, EXTERNAL_HOST: address.host, ROOT_REALM: address.rootRealm }, stringId);
}

const TTL_MS = 60_000;

/** Names change rarely and payloads are built per message: a short cache saves a query each. */
export class RealmDirectory {
  private readonly cache = new Map<number, { info: RealmInfo; at: number }>();

  constructor(
    private readonly db: Db,
    private readonly address: ExternalAddress,
  ) {}

  async get(realmId: number): Promise<RealmInfo> {
    const hit = this.cache.get(realmId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.info;
    const realm = await this.db.realm.findUniqueOrThrow({ where: { id: realmId }, select: { name: true, stringId: true } });
    const info = { realm_name: realm.name, realm_url: realmUrl(this.address, realm.stringId) };
    this.cache.set(realmId, { info, at: Date.now() });
    return info;
  }
}
