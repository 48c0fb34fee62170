import type { Identity } from '@chat/contracts';
import type { Services } from '../context';
import { realmPolicies } from '@chat/realm';
import { authenticationMethods as wireAuthenticationMethods, realmIconUrl, versionFields } from '@chat/wire';
import { renderDescription } from '../lib/render';

/** Login methods this server offers at a realm (@chat/wire authenticationMethods). */
export function authenticationMethods(services: Services, realmSettings?: unknown): Record<string, boolean> {
  return wireAuthenticationMethods(services.config.NODE_ENV !== 'production', realmSettings);
}

export async function getServerSettings(services: Services, identity: Identity): Promise<Record<string, unknown>> {
  const realm = await services.db.realm.findUnique({ where: { id: identity.realmId } });
  // Where no realm answers (a root domain) the server-wide defaults are reported.
  const methods = authenticationMethods(services, realm?.settings);
  const base: Record<string, unknown> = {
    authentication_methods: methods,
    external_authentication_methods: [],
    ...versionFields(services.config.MERGE_BASE),
    push_notifications_enabled: services.config.PUSH_NOTIFICATIONS_ENABLED,
    is_incompatible: false,
    email_auth_enabled: methods.email,
    // Login names are always email addresses here (no LDAP usernames).
    require_email_format_usernames: true,
  };
  // Realm-specific keys are left out where no realm answers at this address (a root domain).
  if (!realm) return base;
  const settings = realmPolicies(realm.settings);
  const webPublicExists = settings.enable_spectator_access
    ? (await services.db.stream.count({ where: { realmId: realm.id, isWebPublic: true, isArchived: false } })) > 0
    : false;
  return {
    ...base,
    realm_url: identity.realmUrl,
    realm_uri: identity.realmUrl,
    realm_name: realm.name,
    realm_icon: realmIconUrl(realm),
    realm_description: renderDescription(realm.description),
    realm_web_public_access_enabled: webPublicExists,
  };
}
