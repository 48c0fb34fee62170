import { actorFromIdentity } from '@chat/contracts';
import type { Router } from 'express';
import { endpoint } from '@chat/kit';
import type { Services } from '../context';
import { doAddPlayground, doRemovePlayground } from '../actions/playgrounds';

export function playgroundRoutes(router: Router, services: Services): void {
  router.post(
    '/realm/playgrounds',
    endpoint(async ({ p, identity }) => ({
      id: await doAddPlayground(services, actorFromIdentity(identity), () => ({
        name: p.reqStr('name'),
        urlTemplate: p.reqStr('url_template'),
        pygmentsLanguage: p.reqStr('pygments_language'),
      })),
    })),
  );
  router.delete(
    '/realm/playgrounds/:playground_id',
    endpoint(async ({ p, identity }) => {
      await doRemovePlayground(services, actorFromIdentity(identity), p.pathInt('playground_id'));
    }),
  );
}
