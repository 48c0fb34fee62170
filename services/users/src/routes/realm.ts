import { actorFromIdentity } from '@chat/contracts';
import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { doUpdateRealm, parseRealmParam, REALM_PARAMS } from '../actions/realm';
import { checkRealmAuthenticationMethods, doSetRealmAuthenticationMethods } from '../actions/realm-auth-methods';

export function realmRoutes(router: Router, services: Services): void {
  router.patch(
    '/realm',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      // Checked first and written last, so a refusal of any parameter writes nothing.
      const methods = p.has('authentication_methods') ? await checkRealmAuthenticationMethods(services, actor, p.raw('authentication_methods')) : null;
      const changed = await doUpdateRealm(services, actor, {
        names: REALM_PARAMS.filter((name) => p.has(name)),
        read: () => {
          const change: Record<string, unknown> = {};
          for (const name of REALM_PARAMS) if (p.has(name)) change[name] = parseRealmParam(name, p.raw(name));
          return change;
        },
      });
      if (methods) await doSetRealmAuthenticationMethods(services, actor, methods);
      return changed;
    }),
  );
}
