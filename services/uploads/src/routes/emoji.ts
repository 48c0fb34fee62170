import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import { actorFromIdentity, errors } from '@chat/contracts';
import type { Services } from '../context';
import { checkAddRealmEmoji, checkRemoveRealmEmoji, doAddRealmEmoji, doRemoveRealmEmoji, realmEmojiDicts } from '../actions/emoji';
import { receiveSmallFile } from '../lib/multipart';
import { serveStoredFile } from '../lib/serve';

/** Largest custom emoji image accepted, as clients of this API family expect. */
const MAX_EMOJI_FILE_SIZE_MIB = 5;

export function emojiApiRoutes(router: Router, services: Services): void {
  router.get(
    '/realm/emoji',
    endpoint(async ({ identity }) => ({ emoji: await realmEmojiDicts(services.db, identity.realmId) })),
  );
  router.post(
    '/realm/emoji/:emoji_name',
    endpoint(async ({ req, res, p, identity }) => {
      const name = p.pathStr('emoji_name');
      const image = await receiveSmallFile(req, res, MAX_EMOJI_FILE_SIZE_MIB, () => errors.badRequest('You must upload exactly one file.'));
      const actor = actorFromIdentity(identity);
      await doAddRealmEmoji(services, actor, await checkAddRealmEmoji(services, actor, name, image), image);
    }),
  );
  router.delete(
    '/realm/emoji/:emoji_name',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      await doRemoveRealmEmoji(services, actor, await checkRemoveRealmEmoji(services, actor, p.pathStr('emoji_name')));
    }),
  );
}

/** Emoji images: public, like avatars, since rendered messages embed them. */
export function emojiFileRoutes(router: Router, services: Services): void {
  router.get(
    /^\/user_avatars\/(\d+)\/emoji\/images\/((?:still\/)?\d+\.(?:png|gif))$/,
    endpoint(
      async ({ req, res }) => {
        const params = req.params as Record<string, string>;
        const file = params[1];
        const contentType = file.endsWith('.gif') ? 'image/gif' : 'image/png';
        await serveStoredFile(services.storage, res, { key: `avatars/${params[0]}/emoji/images/${file}`, filename: file.split('/').pop()!, contentType }, 'public, max-age=86400');
      },
      { auth: 'optional' },
    ),
  );
}
