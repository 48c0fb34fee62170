import { actorFromIdentity, errors } from '@chat/contracts';
import type { Request, Router } from 'express';
import { z } from 'zod';
import { endpoint, multipartWithFiles, uploadedFiles } from '@chat/kit';
import type { Services } from '../context';
import { accessBot } from '../actions/user-access';
import { doCreateBot, doRegenerateBotKey, doUpdateBot, listBots } from '../actions/bots';
import { doDeactivateUser } from '../actions/manage-users';

/** Requests whose multipart body the bot routes read themselves (files beside the fields). */
export function takesBotAvatar(req: Request): boolean {
  return (req.method === 'POST' && /^\/bots\/?$/.test(req.path)) || (req.method === 'PATCH' && /^\/bots\/\d+\/?$/.test(req.path));
}

export function botRoutes(router: Router, services: Services): void {
  router.get('/bots', endpoint(async ({ identity }) => ({ bots: await listBots(services, actorFromIdentity(identity)) })));
  // The family's web app sends the creation form as multipart, with the avatar as its one file.
  const avatarFile = multipartWithFiles({ maxFileMib: services.config.MAX_AVATAR_FILE_SIZE_MIB, maxFiles: 1, tooMany: errors.oneFileAtATime });
  router.post(
    '/bots',
    avatarFile,
    endpoint(async ({ req, p, identity }) => {
      const [avatar] = uploadedFiles(req);
      return doCreateBot(services, actorFromIdentity(identity), {
        fullName: p.reqStr('full_name'),
        shortName: p.reqStr('short_name'),
        botType: p.int('bot_type'),
        payloadUrl: p.str('payload_url'),
        interfaceType: p.int('interface_type'),
        serviceName: p.str('service_name'),
        configData: p.json('config_data', z.record(z.string(), z.string())),
        ...(avatar ? { avatar: avatar.data } : {}),
      });
    }),
  );
  // The family's settings page sends a new avatar the same way, as the form's one file.
  router.patch(
    '/bots/:bot_id',
    avatarFile,
    endpoint(async ({ req, p, identity }) => {
      const [avatar] = uploadedFiles(req);
      return doUpdateBot(services, actorFromIdentity(identity), p.pathInt('bot_id'), {
        fullName: p.str('full_name'),
        botOwnerId: p.int('bot_owner_id'),
        servicePayloadUrl: p.str('service_payload_url'),
        serviceInterface: p.int('service_interface'),
        ...(avatar ? { avatar: avatar.data } : {}),
      });
    }),
  );
  router.delete(
    '/bots/:bot_id',
    endpoint(async ({ p, identity }) => {
      await doDeactivateUser(services, actorFromIdentity(identity), p.pathInt('bot_id'), { bot: true });
    }),
  );
  // The key as it stands, for the bot's owner or an administrator (the same rule as regenerating it).
  router.get(
    '/bots/:bot_id/api_key',
    endpoint(async ({ p, identity }) => ({ api_key: (await accessBot(services.db, actorFromIdentity(identity), p.pathInt('bot_id'))).apiKey })),
  );
  router.post(
    '/bots/:bot_id/api_key/regenerate',
    endpoint(async ({ p, identity }) => ({ api_key: await doRegenerateBotKey(services, actorFromIdentity(identity), p.pathInt('bot_id')) })),
  );
}
