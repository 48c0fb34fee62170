import { actorFromIdentity } from '@chat/contracts';
import type { Router } from 'express';
import { z } from 'zod';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { doCreateFolder, doReorderFolders, doUpdateFolder, listFolders } from '../actions/channel-folders';

export function channelFolderRoutes(router: Router, services: Services): void {
  router.post(
    '/channel_folders/create',
    endpoint(async ({ p, identity }) => {
      // Parameters are read after the permission check, as administrators-only endpoints do.
      const read = () => ({ name: p.reqStr('name'), description: p.reqStr('description') });
      return { channel_folder_id: await doCreateFolder(services, actorFromIdentity(identity), read) };
    }),
  );
  router.get(
    '/channel_folders',
    endpoint(async ({ p, identity }) => ({
      channel_folders: await listFolders(services, identity.realmId, p.bool('include_archived', false)),
    })),
  );
  router.patch(
    '/channel_folders',
    endpoint(async ({ p, identity }) => {
      await doReorderFolders(services, actorFromIdentity(identity), p.reqJson('order', z.array(z.number().int())));
    }),
  );
  router.patch(
    '/channel_folders/:folder_id',
    endpoint(async ({ p, identity }) => {
      await doUpdateFolder(services, actorFromIdentity(identity), p.pathInt('folder_id'), {
        name: p.str('name'),
        description: p.str('description'),
        isArchived: p.bool('is_archived'),
      });
    }),
  );
}
