import type { Router } from 'express';
import { z } from 'zod';
import { actorFromIdentity, errors, isAdmin, isGuest, ROLE, type Actor } from '@chat/contracts';
import { endpoint, type Params } from '@chat/kit';
import type { Services } from '../context';
import { accessUserByEmail, accessUserById, getOwnProfile, getUser, getUsers } from '../actions/read-users';
import {
  doCreateUserByAdmin, doDeactivateSelf, doDeactivateUser, doReactivateUser, doUpdateUser,
} from '../actions/manage-users';
import { doRegenerateApiKey } from '../actions/api-keys';

const readOptions = (p: Params, clientGravatarDefault = true) => ({
  clientGravatar: p.bool('client_gravatar', clientGravatarDefault),
  includeProfile: p.bool('include_custom_profile_fields', false),
});

export const profileDataSchema = z.array(
  z.object({ id: z.number().int(), value: z.union([z.string(), z.array(z.number().int()), z.null()]) }),
);

/** `/users/{user}` takes an id, or (as clients of this API also send) an email address. */
function accessTarget(services: Services, actor: Actor, p: Params) {
  const raw = p.pathStr('user');
  if (/^\d+$/.test(raw)) return accessUserById(services.db, actor.realmId, p.pathInt('user'));
  return accessUserByEmail(services.db, actor, raw);
}

/** `role`, or the legacy is_admin / is_guest pair older clients send. */
function readRole(p: Params, current: () => Promise<number>): Promise<number | undefined> | number | undefined {
  const role = p.int('role');
  const isAdminFlag = p.bool('is_admin');
  const isGuestFlag = p.bool('is_guest');
  if (role !== undefined) return role;
  if (isAdminFlag && isGuestFlag) throw errors.badRequest('Guests cannot be organization administrators');
  if (isAdminFlag) return ROLE.ADMINISTRATOR;
  if (isGuestFlag) return ROLE.GUEST;
  if (isAdminFlag === false || isGuestFlag === false) {
    return current().then((role) => ((isAdminFlag === false && isAdmin({ role })) || (isGuestFlag === false && isGuest({ role })) ? ROLE.MEMBER : undefined));
  }
  return undefined;
}

export function usersRoutes(router: Router, services: Services): void {
  router.get(
    '/users',
    endpoint(async ({ p, identity }) => {
      const userIds = p.json('user_ids', z.array(z.number().int()));
      return { members: await getUsers(services, actorFromIdentity(identity), { ...readOptions(p), userIds }) };
    }),
  );
  router.post(
    '/users',
    endpoint(async ({ p, identity }) => {
      const email = p.reqStr('email');
      const fullName = p.reqStr('full_name');
      const password = p.str('password');
      return { user_id: await doCreateUserByAdmin(services, actorFromIdentity(identity), { email, fullName, password }) };
    }),
  );
  router.get('/users/me', endpoint(async ({ identity }) => getOwnProfile(services, actorFromIdentity(identity))));
  router.delete(
    '/users/me',
    endpoint(async ({ identity }) => {
      await doDeactivateSelf(services, actorFromIdentity(identity));
    }),
  );
  router.post(
    '/users/me/api_key/regenerate',
    endpoint(async ({ identity }) => {
      const me = await accessUserById(services.db, identity.realmId, identity.userId);
      return { api_key: await doRegenerateApiKey(services, me) };
    }),
  );
  router.get(
    '/users/:user',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      const target = await accessTarget(services, actor, p);
      return { user: await getUser(services, actor, target, readOptions(p)) };
    }),
  );
  router.patch(
    '/users/:user',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      const target = await accessTarget(services, actor, p);
      const role = await readRole(p, async () => target.role);
      await doUpdateUser(services, actor, target.id, {
        fullName: p.str('full_name'),
        role,
        profileData: p.json('profile_data', profileDataSchema),
        newEmail: p.str('new_email'),
      });
    }),
  );
  router.delete(
    '/users/:user',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      const target = await accessTarget(services, actor, p);
      await doDeactivateUser(services, actor, target.id, { bot: false });
    }),
  );
  router.post(
    '/users/:user/reactivate',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      const target = await accessTarget(services, actor, p);
      await doReactivateUser(services, actor, target.id);
    }),
  );
}
