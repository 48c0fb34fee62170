import { actorFromIdentity } from '@chat/contracts';
import type { Router } from 'express';
import { z } from 'zod';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { accessBotStorage, checkStorageEntries, doRemoveBotStorage, doSetBotStorage } from '../actions/bot-storage';

const keyList = z.array(z.string());

export function botStorageRoutes(router: Router, services: Services): void {
  router.get(
    '/bot_storage',
    endpoint(async ({ p, identity }) => ({ storage: await accessBotStorage(services, actorFromIdentity(identity), p.json('keys', keyList)) })),
  );
  router.put(
    '/bot_storage',
    endpoint(async ({ p, identity }) => {
      await doSetBotStorage(services, actorFromIdentity(identity), checkStorageEntries(p.reqJson('storage', z.unknown())));
    }),
  );
  router.delete(
    '/bot_storage',
    endpoint(async ({ p, identity }) => {
      await doRemoveBotStorage(services, actorFromIdentity(identity), p.json('keys', keyList));
    }),
  );
}
