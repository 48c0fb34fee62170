import type { Router } from 'express';
import { z } from 'zod';
import { endpoint } from '@chat/kit';
import { errors } from '@chat/contracts';
import { loadActor } from '../lib/caller';
import type { Services } from '../context';
import { doTyping } from '../actions/typing';
import { doCreateDrafts, doDeleteDraft, doEditDraft, listDrafts } from '../actions/drafts';
import { doLegacyMuteTopic, doUpdateUserTopic } from '../actions/user-topics';

const draftSchema = z.object({
  type: z.enum(['', 'stream', 'private']),
  to: z.array(z.number().int()),
  topic: z.string(),
  content: z.string(),
  timestamp: z.number().optional(),
});

export function otherRoutes(router: Router, services: Services): void {
  router.post(
    '/typing',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(services.db, ctx.identity);
      await doTyping(services, actor, {
        op: p.reqStr('op'),
        type: p.str('type') ?? 'direct',
        to: p.raw('to'),
        streamId: p.int('stream_id'),
        topic: p.str('topic'),
      });
    }),
  );

  router.get('/drafts', endpoint(async (ctx) => {
    const drafts = await listDrafts(services, await loadActor(services.db, ctx.identity));
    return { count: drafts.length, drafts };
  }));
  router.post('/drafts', endpoint(async (ctx) => {
    const drafts = ctx.p.jsonNulChecked('drafts', z.array(draftSchema)) ?? [];
    return { ids: await doCreateDrafts(services, await loadActor(services.db, ctx.identity), drafts) };
  }));
  router.patch('/drafts/:draft_id', endpoint(async (ctx) => {
    await doEditDraft(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('draft_id'), ctx.p.reqJsonNulChecked('draft', draftSchema));
  }));
  router.delete('/drafts/:draft_id', endpoint(async (ctx) => {
    await doDeleteDraft(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('draft_id'));
  }));

  router.post('/user_topics', endpoint(async (ctx) => {
    const { p } = ctx;
    await doUpdateUserTopic(services, await loadActor(services.db, ctx.identity), p.reqInt('stream_id'), p.reqStr('topic'), p.reqInt('visibility_policy'));
  }));

  // The older mute/unmute form (the family's path is /users/me/subscriptions/muted_topics).
  const mutedTopic = endpoint(async (ctx) => {
    const { p } = ctx;
    const actor = await loadActor(services.db, ctx.identity);
    const topic = p.reqStr('topic');
    const op = p.reqStr('op');
    if (op !== 'add' && op !== 'remove') throw errors.badRequest('Invalid op');
    await doLegacyMuteTopic(services, actor, { id: p.int('stream_id'), name: p.str('stream') }, topic, op);
  });
  router.patch('/users/me/subscriptions/muted_topics', mutedTopic);
  router.patch('/users/me/muted_topics', mutedTopic);
}
