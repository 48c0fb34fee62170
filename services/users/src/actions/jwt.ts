import jwt from 'jsonwebtoken';
import { errors, type Identity } from '@chat/contracts';
import type { Services } from '../context';
import { userObject } from '@chat/wire';

/** Algorithms a realm may accept; "none" is never among them, so every token must be signed. */
export const JWT_ALGORITHMS = ['HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'] as const;

/**
 * POST /jwt/fetch_api_key: exchanges a token signed with the realm's configured key for the API
 * key of the user its `email` claim names.
 */
export async function fetchApiKeyWithJwt(services: Services, identity: Identity, token: string, includeProfile: boolean) {
  const config = await services.db.realmJwtConfig.findUnique({ where: { realmId: identity.realmId } });
  if (!config) throw errors.badRequest('JWT authentication is not enabled for this organization');
  if (!token) throw errors.badRequest('No JSON web token passed in request');
  const algorithms = config.algorithms.filter((a): a is (typeof JWT_ALGORITHMS)[number] => (JWT_ALGORITHMS as readonly string[]).includes(a));
  let payload: jwt.JwtPayload | string;
  try {
    payload = jwt.verify(token, config.key, { algorithms });
  } catch {
    throw errors.badRequest('Bad JSON web token');
  }
  const email = typeof payload === 'object' ? payload.email : undefined;
  if (typeof email !== 'string' || email === '') throw errors.badRequest('No email specified in JSON web token claims');
  const realm = await services.db.realm.findUnique({ where: { id: identity.realmId } });
  if (!realm) throw errors.nonexistentRealm();
  if (realm.deactivated) throw errors.realmDeactivated();
  const user = await services.db.user.findFirst({
    where: { realmId: realm.id, OR: [{ deliveryEmail: { equals: email, mode: 'insensitive' } }, { email: { equals: email, mode: 'insensitive' } }] },
  });
  if (!user) throw errors.authenticationFailed();
  if (!user.isActive) throw errors.userDeactivated();
  const result: Record<string, unknown> = { api_key: user.apiKey, email: user.email };
  if (includeProfile) {
    result.user = userObject(user, { id: user.id, role: user.role }, { realmUrl: identity.realmUrl, clientGravatar: false });
  }
  return result;
}
