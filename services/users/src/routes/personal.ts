import type { Router } from 'express';
import { z } from 'zod';
import { errors, actorFromIdentity } from '@chat/contracts';
import { endpoint, type Params } from '@chat/kit';
import type { Services } from '../context';
import {
  doAddAlertWords, doAddView, doCreateSnippet, doDeleteSnippet, doEditSnippet, doRemoveAlertWords, doRemoveView,
  doUpdateView, listAlertWords, listSnippets, listViews,
} from '../actions/personal';

/** A view's fragment may itself contain slashes ("narrow/is/starred"), sent encoded or not. */
function fragmentOf(p: Params, req: { params: Record<string, unknown> }): string {
  p.accept('fragment');
  const raw = req.params.fragment;
  return Array.isArray(raw) ? raw.join('/') : String(raw ?? '');
}

const words = z.array(z.string());

export function personalRoutes(router: Router, services: Services): void {
  router.get('/navigation_views', endpoint(async ({ identity }) => ({ navigation_views: await listViews(services, actorFromIdentity(identity)) })));
  router.post(
    '/navigation_views',
    endpoint(async ({ p, identity }) => {
      const isPinned = p.bool('is_pinned');
      const fragment = p.reqStr('fragment');
      if (isPinned === undefined) throw errors.missingArgument('is_pinned');
      const rawName = p.raw('name');
      await doAddView(services, actorFromIdentity(identity), { fragment, isPinned, name: rawName === undefined || rawName === null || rawName === 'null' ? null : String(rawName) });
    }),
  );
  router.patch(
    '/navigation_views/*fragment',
    endpoint(async ({ p, identity, req }) => {
      await doUpdateView(services, actorFromIdentity(identity), fragmentOf(p, req), { isPinned: p.bool('is_pinned'), name: p.str('name') });
    }),
  );
  router.delete(
    '/navigation_views/*fragment',
    endpoint(async ({ p, identity, req }) => {
      await doRemoveView(services, actorFromIdentity(identity), fragmentOf(p, req));
    }),
  );

  router.get('/saved_snippets', endpoint(async ({ identity }) => ({ saved_snippets: await listSnippets(services, actorFromIdentity(identity)) })));
  router.post(
    '/saved_snippets',
    endpoint(async ({ p, identity }) => ({
      saved_snippet_id: await doCreateSnippet(services, actorFromIdentity(identity), p.reqStr('title'), p.reqStr('content')),
    })),
  );
  router.patch(
    '/saved_snippets/:snippet_id',
    endpoint(async ({ p, identity }) => {
      await doEditSnippet(services, actorFromIdentity(identity), p.pathInt('snippet_id'), { title: p.str('title'), content: p.str('content') });
    }),
  );
  router.delete(
    '/saved_snippets/:snippet_id',
    endpoint(async ({ p, identity }) => {
      await doDeleteSnippet(services, actorFromIdentity(identity), p.pathInt('snippet_id'));
    }),
  );

  router.get('/users/me/alert_words', endpoint(async ({ identity }) => ({ alert_words: await listAlertWords(services.db, identity.userId) })));
  router.post(
    '/users/me/alert_words',
    endpoint(async ({ p, identity }) => ({ alert_words: await doAddAlertWords(services, actorFromIdentity(identity), p.reqJson('alert_words', words)) })),
  );
  router.delete(
    '/users/me/alert_words',
    endpoint(async ({ p, identity }) => ({ alert_words: await doRemoveAlertWords(services, actorFromIdentity(identity), p.reqJson('alert_words', words)) })),
  );
}
