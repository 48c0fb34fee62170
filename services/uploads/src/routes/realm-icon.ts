import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import { errors, ROLE } from '@chat/contracts';
import type { Services } from '../context';
import { checkDeleteRealmIcon, checkSetRealmIcon, realmIconKey } from '../actions/realm-icon';
import { receiveSmallFile } from '../lib/multipart';
import { serveStoredFile } from '../lib/serve';

const MAX_ICON_FILE_SIZE_MIB = 5;

export function realmIconApiRoutes(router: Router, s: Services): void {
  router.post(
    '/realm/icon',
    endpoint(async ({ req, res, identity }) => {
      // Permission first: a non-administrator's body is not worth reading.
      if (identity.role === undefined || identity.role > ROLE.ADMINISTRATOR) throw errors.mustBeAdmin();
      const image = await receiveSmallFile(req, res, MAX_ICON_FILE_SIZE_MIB, () => errors.badRequest('You must upload exactly one icon.'));
      return checkSetRealmIcon(s, identity, image);
    }),
  );
  router.delete(
    '/realm/icon',
    endpoint(({ identity }) => checkDeleteRealmIcon(s, identity)),
  );
}

export function realmIconFileRoutes(router: Router, s: Services): void {
  router.get(
    /^\/user_avatars\/(\d+)\/realm\/icon\.png$/,
    endpoint(
      async ({ req, res }) => {
        const realmId = Number((req.params as Record<string, string>)[0]);
        await serveStoredFile(s.storage, res, { key: realmIconKey(realmId), filename: 'icon.png', contentType: 'image/png' }, 'public, max-age=86400');
      },
      { auth: 'optional' },
    ),
  );
}
