import type { UsersConfig } from '../config';

/**
 * A realm's URL as the gateway maps host names to realms: `<scheme>://<string_id>.<host>`, the
 * ROOT_REALM's `<scheme>://<host>`. For mail written without a request to take the host from.
 */
export function realmUrlOf(config: Pick<UsersConfig, 'EXTERNAL_SCHEME' | 'EXTERNAL_HOST' | 'ROOT_REALM'>, stringId: string): string {
  const host = stringId === config.ROOT_REALM ? config.EXTERNAL_HOST : `${stringId}.${config.EXTERNAL_HOST}`;
  return `${config.EXTERNAL_SCHEME}://${host}`;
}
