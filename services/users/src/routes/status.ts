import { actorFromIdentity } from '@chat/contracts';
import type { Router } from 'express';
import { endpoint, type Params } from '@chat/kit';
import type { Services } from '../context';
import { doUpdateStatus, getStatus } from '../actions/status';

/**
 * Another user's status (administrators) has no `away`, as in the family: the parameter is left
 * unread there, so the answer lists it in ignored_parameters_unsupported.
 */
function statusInput(p: Params, own: boolean) {
  return {
    statusText: p.str('status_text'),
    away: own ? p.bool('away') : undefined,
    emojiName: p.str('emoji_name'),
    emojiCode: p.str('emoji_code'),
    reactionType: p.str('reaction_type'),
  };
}

export function statusRoutes(router: Router, services: Services): void {
  router.post(
    '/users/me/status',
    endpoint(async ({ p, identity }) => {
      await doUpdateStatus(services, actorFromIdentity(identity), { id: identity.userId, asAdmin: false }, statusInput(p, true));
    }),
  );
  router.get(
    '/users/me/status',
    endpoint(async ({ identity }) => ({ status: await getStatus(services, actorFromIdentity(identity), identity.userId) })),
  );
  router.post(
    '/users/:user_id/status',
    endpoint(async ({ p, identity }) => {
      await doUpdateStatus(services, actorFromIdentity(identity), { id: p.pathInt('user_id'), asAdmin: true }, statusInput(p, false));
    }),
  );
  router.get(
    '/users/:user_id/status',
    endpoint(async ({ p, identity }) => ({ status: await getStatus(services, actorFromIdentity(identity), p.pathInt('user_id')) })),
  );
}
