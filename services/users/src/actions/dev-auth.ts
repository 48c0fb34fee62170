import { ApiError, errors, type Identity, isAdmin } from '@chat/contracts';
import { authenticationMethods } from '@chat/wire';
import type { Services } from '../context';

/**
 * Development login: any user's key without a password, for trying the apps against a local
 * cluster. Never in production (NODE_ENV=production); elsewhere while the realm keeps its Dev
 * method on. The messages are the API family's.
 */
async function checkDevAuth(services: Services, identity: Identity) {
  if (services.config.NODE_ENV === 'production') throw new ApiError('BAD_REQUEST', 'Endpoint not available in production.', 400);
  const realm = await services.db.realm.findUnique({ where: { id: identity.realmId } });
  if (!authenticationMethods(true, realm?.settings).dev) throw new ApiError('BAD_REQUEST', 'DevAuthBackend not enabled.', 400);
  return realm;
}

export async function devFetchApiKey(services: Services, identity: Identity, username: string) {
  const realm = await checkDevAuth(services, identity);
  if (!/^[^\s@]+@[^\s@]+$/.test(username.trim())) throw errors.badRequest('Enter a valid email address.');
  const user = await services.db.user.findFirst({
    where: { realmId: identity.realmId, isBot: false, OR: [{ deliveryEmail: { equals: username.trim(), mode: 'insensitive' } }, { email: { equals: username.trim(), mode: 'insensitive' } }] },
    orderBy: { id: 'asc' },
  });
  if (!user) throw errors.authenticationFailed();
  if (!user.isActive) throw errors.userDeactivated();
  if (realm?.deactivated) throw errors.realmDeactivated();
  return { api_key: user.apiKey, email: user.deliveryEmail, user_id: user.id };
}

export async function devListUsers(services: Services, identity: Identity) {
  await checkDevAuth(services, identity);
  const users = await services.db.user.findMany({ where: { realmId: identity.realmId, isActive: true, isBot: false }, orderBy: { id: 'asc' } });
  const entry = (u: (typeof users)[number]) => ({ email: u.deliveryEmail, realm_uri: identity.realmUrl, realm_url: identity.realmUrl });
  return {
    direct_admins: users.filter(isAdmin).map(entry),
    direct_users: users.filter((u) => !isAdmin(u)).map(entry),
  };
}
