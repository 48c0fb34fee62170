import { ApiError, errors, ROLE, type Identity } from '@chat/contracts';
import type { Services } from '../context';

/** Development login: only where the server is not in production (server_settings says "dev"). */
function checkDevAuth(services: Services) {
  if (services.config.NODE_ENV === 'production') {
    throw new ApiError('BAD_REQUEST', 'DevAuthBackend not enabled.', 400);
  }
}

export async function devFetchApiKey(services: Services, identity: Identity, username: string) {
  checkDevAuth(services);
  const user = await services.db.user.findFirst({
    where: { realmId: identity.realmId, isBot: false, OR: [{ deliveryEmail: { equals: username, mode: 'insensitive' } }, { email: { equals: username, mode: 'insensitive' } }] },
  });
  if (!user) throw errors.authenticationFailed();
  if (!user.isActive) throw errors.userDeactivated();
  return { api_key: user.apiKey, email: user.email, user_id: user.id };
}

export async function devListUsers(services: Services, identity: Identity) {
  checkDevAuth(services);
  const users = await services.db.user.findMany({ where: { realmId: identity.realmId, isActive: true, isBot: false }, orderBy: { id: 'asc' } });
  const entry = (u: (typeof users)[number]) => ({ email: u.deliveryEmail, realm_uri: identity.realmUrl, realm_url: identity.realmUrl });
  return {
    direct_admins: users.filter((u) => u.role <= ROLE.ADMINISTRATOR).map(entry),
    direct_users: users.filter((u) => u.role > ROLE.ADMINISTRATOR).map(entry),
  };
}
