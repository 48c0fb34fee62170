import type { Router } from 'express';
import { endpoint, Params } from '@chat/kit';
import { actorFromIdentity, checkAdmin, errors } from '@chat/contracts';
import type { Services } from '../context';
import { accessRealmImageUrl, checkSetRealmImage, doDeleteRealmImage, doSetRealmImage, realmImageKey, type RealmImageKind } from '../actions/realm-images';
import { receiveSmallFile } from '../lib/multipart';
import { serveStoredFile } from '../lib/serve';

const MAX_ICON_FILE_SIZE_MIB = 5;
const MAX_LOGO_FILE_SIZE_MIB = 5;

// A neutral wordmark placeholder for realms without a logo of their own.
const DEFAULT_LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="25" viewBox="0 0 200 25">' +
  '<rect width="200" height="25" rx="4" fill="#6c8ebf"/></svg>';

function nightParam(p: Params): boolean {
  const night = p.bool('night');
  if (night === undefined) throw errors.missingArgument('night');
  return night;
}

/**
 * GET /realm/icon and GET /realm/logo: a redirect to the current image. The request's query
 * string rides along after the image's own `?version=N`, as the reference server appends it.
 */
function redirectToRealmImage(services: Services, kindOf: (p: Params) => RealmImageKind) {
  return endpoint(async ({ req, res, p, identity }) => {
    let target = await accessRealmImageUrl(services, actorFromIdentity(identity), kindOf(p));
    const query = req.originalUrl.split('?')[1];
    if (query) target += `${target.includes('?') ? '&' : '?'}${query}`;
    // The target changes with every upload: the redirect itself must not be cached.
    res.setHeader('Cache-Control', 'private, max-age=0');
    res.redirect(302, target);
  });
}

export function realmImageApiRoutes(router: Router, services: Services): void {
  router.get('/realm/icon', redirectToRealmImage(services, () => 'icon'));
  router.get('/realm/logo', redirectToRealmImage(services, (p) => (nightParam(p) ? 'night_logo' : 'logo')));
  router.post(
    '/realm/icon',
    endpoint(async ({ req, res, identity }) => {
      const actor = actorFromIdentity(identity);
      // Permission first: a non-administrator's body is not worth reading.
      checkAdmin(actor);
      const image = await receiveSmallFile(req, res, MAX_ICON_FILE_SIZE_MIB, () => errors.badRequest('You must upload exactly one icon.'));
      return doSetRealmImage(services, actor, 'icon', image, await checkSetRealmImage(actor, 'icon', image));
    }),
  );
  router.delete(
    '/realm/icon',
    endpoint(async ({ identity }) => {
      const actor = actorFromIdentity(identity);
      checkAdmin(actor);
      return doDeleteRealmImage(services, actor, 'icon');
    }),
  );

  router.post(
    '/realm/logo',
    endpoint(async ({ req, res, p, identity }) => {
      const actor = actorFromIdentity(identity);
      checkAdmin(actor);
      p.accept('night');
      const image = await receiveSmallFile(req, res, MAX_LOGO_FILE_SIZE_MIB, () => errors.badRequest('You must upload exactly one logo.'));
      // `night` usually travels as a field of the multipart body, readable only once it is parsed.
      const night = nightParam(Params.fromRequest(req));
      const kind = night ? 'night_logo' : 'logo';
      await doSetRealmImage(services, actor, kind, image, await checkSetRealmImage(actor, kind, image));
      return {};
    }),
  );
  router.delete(
    '/realm/logo',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      checkAdmin(actor);
      await doDeleteRealmImage(services, actor, nightParam(p) ? 'night_logo' : 'logo');
      return {};
    }),
  );
}

export function realmImageFileRoutes(router: Router, services: Services): void {
  router.get(
    /^\/user_avatars\/(\d+)\/realm\/(icon|logo|night_logo)\.png$/,
    endpoint(
      async ({ req, res }) => {
        const params = req.params as Record<string, string>;
        const kind = params[1] as 'icon' | 'logo' | 'night_logo';
        const key = realmImageKey(Number(params[0]), kind);
        await serveStoredFile(services.storage, res, { key, filename: `${kind}.png`, contentType: 'image/png' }, 'public, max-age=86400');
      },
      { auth: 'optional' },
    ),
  );
  router.get(
    '/user_avatars/default/realm/logo.svg',
    endpoint(
      ({ res }) => {
        res.set('Cache-Control', 'public, max-age=86400').type('image/svg+xml').send(DEFAULT_LOGO_SVG);
      },
      { auth: 'optional' },
    ),
  );
}
