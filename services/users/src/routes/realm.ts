import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { actorOf } from '../actions/actor';
import { doUpdateRealm, parseRealmParam, REALM_PARAMS } from '../actions/realm';

export function realmRoutes(router: Router, services: Services): void {
  router.patch(
    '/realm',
    endpoint(async ({ p, identity }) =>
      doUpdateRealm(services, actorOf(identity), {
        names: REALM_PARAMS.filter((name) => p.has(name)),
        read: () => {
          const change: Record<string, unknown> = {};
          for (const name of REALM_PARAMS) if (p.has(name)) change[name] = parseRealmParam(name, p.raw(name));
          return change;
        },
      }),
    ),
  );
}
