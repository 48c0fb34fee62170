import { actorFromIdentity } from '@chat/contracts';
import type { Router } from 'express';
import { z } from 'zod';
import { endpoint, type Params } from '@chat/kit';
import type { Services } from '../context';
import {
  doAddLinkifier, doRemoveLinkifier, doReorderLinkifiers, doUpdateLinkifier, listLinkifiers, type LinkifierInput,
} from '../actions/linkifiers';

function linkifierInput(p: Params): () => LinkifierInput {
  return () => ({
    pattern: p.reqStr('pattern'),
    urlTemplate: p.reqStr('url_template'),
    reverseTemplate: p.has('reverse_template') ? nullable(p.raw('reverse_template')) : undefined,
    alternativeUrlTemplates: p.json('alternative_url_templates', z.array(z.string())),
    exampleInput: p.has('example_input') ? nullable(p.raw('example_input')) : undefined,
  });
}

function nullable(raw: unknown): string | null {
  return raw === null || raw === 'null' ? null : String(raw);
}

export function linkifierRoutes(router: Router, services: Services): void {
  router.get('/realm/linkifiers', endpoint(async ({ identity }) => ({ linkifiers: await listLinkifiers(services.db, identity.realmId) })));
  router.patch(
    '/realm/linkifiers',
    endpoint(async ({ p, identity }) => {
      await doReorderLinkifiers(services, actorFromIdentity(identity), () => p.reqJson('ordered_linkifier_ids', z.array(z.number().int())));
    }),
  );
  router.post(
    '/realm/filters',
    endpoint(async ({ p, identity }) => ({ id: await doAddLinkifier(services, actorFromIdentity(identity), linkifierInput(p)) })),
  );
  router.patch(
    '/realm/filters/:filter_id',
    endpoint(async ({ p, identity }) => {
      await doUpdateLinkifier(services, actorFromIdentity(identity), p.pathInt('filter_id'), linkifierInput(p));
    }),
  );
  router.delete(
    '/realm/filters/:filter_id',
    endpoint(async ({ p, identity }) => {
      await doRemoveLinkifier(services, actorFromIdentity(identity), p.pathInt('filter_id'));
    }),
  );
}
