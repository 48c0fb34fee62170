import type { Router } from 'express';
import { z } from 'zod';
import { endpoint, type Params } from '@chat/kit';
import type { Services } from '../context';
import { accessUserByEmail, accessUserById, getOwnProfile, getUser, getUsers } from '../actions/read-users';

const readOptions = (p: Params, clientGravatarDefault = true) => ({
  clientGravatar: p.bool('client_gravatar', clientGravatarDefault),
  includeProfile: p.bool('include_custom_profile_fields', false),
});

/** `/users/{user}` takes an id, or (as clients of this API also send) an email address. */
function accessTarget(services: Services, realmId: number, p: Params) {
  const raw = p.pathStr('user');
  return /^\d+$/.test(raw) ? accessUserById(services.db, realmId, p.pathInt('user')) : accessUserByEmail(services.db, realmId, raw);
}

export function usersRoutes(router: Router, services: Services): void {
  router.get(
    '/users',
    endpoint(async ({ p, identity }) => {
      const userIds = p.json('user_ids', z.array(z.number().int()));
      return { members: await getUsers(services, identity, { ...readOptions(p), userIds }) };
    }),
  );
  router.get(
    '/users/me',
    endpoint(async ({ identity }) => getOwnProfile(services, identity)),
  );
  router.get(
    '/users/:user',
    endpoint(async ({ p, identity }) => {
      const target = await accessTarget(services, identity.realmId, p);
      return { user: await getUser(services, identity, target, readOptions(p)) };
    }),
  );
}
