import type { Request, Response, Router } from 'express';
import multer, { MulterError } from 'multer';
import { endpoint } from '@chat/kit';
import { errors, type Identity } from '@chat/contracts';
import { realmPolicies } from '@chat/realm';
import type { Services } from '../context';
import { avatarTarget, checkAndDeleteAvatar, checkAndSetAvatar, findAvatarUser, gravatarUrl } from '../actions/avatars';
import { serveStoredFile } from '../lib/serve';

/** Reads the single avatar file of a multipart body; avatars are small enough to hold. */
async function receiveAvatar(req: Request, res: Response, maxMib: number): Promise<Buffer> {
  if (!req.is('multipart/form-data')) throw errors.exactlyOneAvatar();
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxMib * 1024 * 1024 + 64 * 1024) {
    res.setHeader('Connection', 'close');
    throw errors.fileTooLarge(maxMib);
  }
  const parse = multer({ storage: multer.memoryStorage(), limits: { fileSize: maxMib * 1024 * 1024, files: 1, fields: 20 } }).any();
  try {
    await new Promise<void>((resolve, reject) => parse(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  } catch (err) {
    if (err instanceof MulterError && err.code === 'LIMIT_FILE_SIZE') throw errors.fileTooLarge(maxMib);
    if (err instanceof MulterError && err.code === 'LIMIT_FILE_COUNT') throw errors.exactlyOneAvatar();
    throw errors.badRequest('Invalid multipart body');
  }
  const files = (req.files as Express.Multer.File[] | undefined) ?? [];
  if (files.length !== 1) throw errors.exactlyOneAvatar();
  return files[0].buffer;
}

export function avatarApiRoutes(router: Router, s: Services): void {
  router.post(
    '/users/me/avatar',
    endpoint(async ({ req, res, identity }) =>
      checkAndSetAvatar(s, identity, await receiveAvatar(req, res, s.config.MAX_AVATAR_FILE_SIZE_MIB)),
    ),
  );
  router.delete(
    '/users/me/avatar',
    endpoint(({ identity }) => checkAndDeleteAvatar(s, identity)),
  );
}

/** GET /avatar/{id or email}[/medium]: a redirect to the user's current avatar. */
export function avatarRedirectRoutes(router: Router, s: Services): void {
  const redirect = (medium: boolean) =>
    endpoint(
      async ({ req, res, identity }) => {
        if (identity.userId === undefined) await requireSpectatorAccess(s, identity);
        const key = (req.params as Record<string, string>).user;
        const user = await findAvatarUser(s, identity.realmId, key);
        // Nobody by that id or address: the Gravatar of whatever was asked for, as for a new user.
        let target = user ? avatarTarget(s.config.AVATAR_SALT, user, medium) : gravatarUrl(key, 1, medium);
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

async function requireSpectatorAccess(s: Services, identity: Identity): Promise<void> {
  const realm = await s.db.realm.findUnique({ where: { id: identity.realmId }, select: { settings: true } });
  if (!realm || !realmPolicies(realm.settings).enable_spectator_access) throw errors.notLoggedIn();
}

/** The avatar files themselves: public within reach of their unguessable names, like Gravatar. */
export function avatarFileRoutes(router: Router, s: Services): void {
  router.get(
    /^\/user_avatars\/(\d+)\/([0-9a-f]{40})(-medium)?\.png$/,
    endpoint(
      async ({ req, res }) => {
        const params = req.params as Record<string, string | undefined>;
        const key = `avatars/${params[0]}/${params[1]}${params[2] ?? ''}.png`;
        await serveStoredFile(s.storage, res, { key, filename: 'avatar.png', contentType: 'image/png' }, 'public, max-age=86400');
      },
      { auth: 'optional' },
    ),
  );
}
