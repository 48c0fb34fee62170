import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import { actorFromIdentity, errors, type Identity } from '@chat/contracts';
import { realmPolicies } from '@chat/realm';
import type { Services } from '../context';
import { avatarTarget, checkDeleteAvatar, checkSetAvatar, doDeleteAvatar, doSetAvatar, findAvatarUser, gravatarUrl } from '../actions/avatars';
import { receiveSmallFile } from '../lib/multipart';
import { serveStoredFile } from '../lib/serve';

export function avatarApiRoutes(router: Router, services: Services): void {
  router.post(
    '/users/me/avatar',
    endpoint(async ({ req, res, identity }) => {
      const actor = actorFromIdentity(identity);
      const image = await receiveSmallFile(req, res, services.config.MAX_AVATAR_FILE_SIZE_MIB, errors.exactlyOneAvatar);
      return doSetAvatar(services, actor, image, await checkSetAvatar(services, actor, image));
    }),
  );
  router.delete(
    '/users/me/avatar',
    endpoint(async ({ identity }) => {
      const actor = actorFromIdentity(identity);
      await checkDeleteAvatar(services, actor);
      return doDeleteAvatar(services, actor);
    }),
  );
}

/** GET /avatar/{id or email}[/medium]: a redirect to the user's current avatar. */
export function avatarRedirectRoutes(router: Router, services: Services): void {
  const redirect = (medium: boolean) =>
    endpoint(
      async ({ req, res, identity }) => {
        if (identity.userId === undefined) await requireSpectatorAccess(services, identity);
        const key = (req.params as Record<string, string>).user;
        const user = await findAvatarUser(services, identity.realmId, key);
        // Nobody by that id or address: the Gravatar of whatever was asked for, as for a new user.
        let target = user ? avatarTarget(services.config.AVATAR_SALT, user, medium) : gravatarUrl(key, 1, medium);
        const query = req.originalUrl.split('?')[1];
        if (query) target += `${target.includes('?') ? '&' : '?'}${query}`;
        res.setHeader('Cache-Control', 'private, max-age=0');
        res.redirect(302, target);
      },
      { auth: 'optional' },
    );
  router.get('/avatar/:user', redirect(false));
  router.get('/avatar/:user/medium', redirect(true));
}

async function requireSpectatorAccess(services: Services, identity: Identity): Promise<void> {
  const realm = await services.db.realm.findUnique({ where: { id: identity.realmId }, select: { settings: true } });
  if (!realm || !realmPolicies(realm.settings).enable_spectator_access) throw errors.notLoggedIn();
}

/** The avatar files themselves: public within reach of their unguessable names, like Gravatar. */
export function avatarFileRoutes(router: Router, services: Services): void {
  router.get(
    /^\/user_avatars\/(\d+)\/([0-9a-f]{40})(-medium)?\.png$/,
    endpoint(
      async ({ req, res }) => {
        const params = req.params as Record<string, string | undefined>;
        const key = `avatars/${params[0]}/${params[1]}${params[2] ?? ''}.png`;
        await serveStoredFile(services.storage, res, { key, filename: 'avatar.png', contentType: 'image/png' }, 'public, max-age=86400');
      },
      { auth: 'optional' },
    ),
  );
}
