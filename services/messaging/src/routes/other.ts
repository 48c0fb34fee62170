import type { Router } from 'express';
import { z } from 'zod';
import { endpoint } from '@chat/kit';
import { errors } from '@chat/contracts';
import { loadActor, type Deps } from '../lib/context';
import { doTyping } from '../actions/typing';
import { doCreateDrafts, doDeleteDraft, doEditDraft, listDrafts } from '../actions/drafts';
import { doUpdateUserTopic, VISIBILITY } from '../actions/user-topics';
import { findStream } from '../actions/streams-access';

const draftSchema = z.object({
  type: z.enum(['', 'stream', 'private']),
  to: z.array(z.number().int()),
  topic: z.string(),
  content: z.string(),
  timestamp: z.number().optional(),
});

export function otherRoutes(router: Router, deps: Deps): void {
  router.post(
    '/typing',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(deps.db, ctx.identity);
      await doTyping(deps, actor, {
        op: p.reqStr('op'),
        type: p.str('type') ?? 'direct',
        to: p.raw('to'),
        streamId: p.int('stream_id'),
        topic: p.str('topic'),
      });
    }),
  );

  router.get('/drafts', endpoint(async (ctx) => {
    const drafts = await listDrafts(deps, await loadActor(deps.db, ctx.identity));
    return { count: drafts.length, drafts };
  }));
  router.post('/drafts', endpoint(async (ctx) => {
    const drafts = ctx.p.json('drafts', z.array(draftSchema)) ?? [];
    return { ids: await doCreateDrafts(deps, await loadActor(deps.db, ctx.identity), drafts) };
  }));
  router.patch('/drafts/:draft_id', endpoint(async (ctx) => {
    await doEditDraft(deps, await loadActor(deps.db, ctx.identity), ctx.p.pathInt('draft_id'), ctx.p.reqJson('draft', draftSchema));
  }));
  router.delete('/drafts/:draft_id', endpoint(async (ctx) => {
    await doDeleteDraft(deps, await loadActor(deps.db, ctx.identity), ctx.p.pathInt('draft_id'));
  }));

  router.post('/user_topics', endpoint(async (ctx) => {
    const { p } = ctx;
    await doUpdateUserTopic(deps, await loadActor(deps.db, ctx.identity), p.reqInt('stream_id'), p.reqStr('topic'), p.reqInt('visibility_policy'));
  }));

  // The older mute/unmute form: stream (name) or stream_id, topic, op add|remove.
  router.patch('/users/me/muted_topics', endpoint(async (ctx) => {
    const { p } = ctx;
    const actor = await loadActor(deps.db, ctx.identity);
    const name = p.str('stream');
    const id = p.int('stream_id');
    if ((name === undefined) === (id === undefined)) throw errors.badRequest('Please choose one: stream or stream_id.');
    const stream = await findStream(deps.db, actor.realmId, id !== undefined ? { id } : { name: name! });
    if (!stream) throw errors.invalidStreamId();
    const op = p.reqStr('op');
    if (op !== 'add' && op !== 'remove') throw errors.badRequest('Invalid op');
    await doUpdateUserTopic(deps, actor, stream.id, p.reqStr('topic'), op === 'add' ? VISIBILITY.MUTED : VISIBILITY.INHERIT);
  }));
}
