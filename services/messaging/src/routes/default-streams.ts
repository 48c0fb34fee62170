import type { Router } from 'express';
import { z } from 'zod';
import { endpoint } from '@chat/kit';
import { loadActor, type Deps } from '../lib/context';
import { doAddDefaultStream, doRemoveDefaultStream } from '../actions/default-streams';
import {
  doCreateDefaultStreamGroup,
  doRemoveDefaultStreamGroup,
  doUpdateDefaultStreamGroupInfo,
  doUpdateDefaultStreamGroupStreams,
} from '../actions/default-stream-groups';

const names = z.array(z.string());

/** Default channels and default channel groups (administrators only). */
export function defaultStreamRoutes(router: Router, deps: Deps): void {
  router.post(
    '/default_streams',
    endpoint(async (ctx) => {
      await doAddDefaultStream(deps, await loadActor(deps.db, ctx.identity), ctx.p.reqInt('stream_id'));
    }),
  );

  router.delete(
    '/default_streams',
    endpoint(async (ctx) => {
      await doRemoveDefaultStream(deps, await loadActor(deps.db, ctx.identity), ctx.p.reqInt('stream_id'));
    }),
  );

  router.post(
    '/default_stream_groups/create',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(deps.db, ctx.identity);
      await doCreateDefaultStreamGroup(deps, actor, p.reqStrNulChecked('group_name'), p.reqStrNulChecked('description'), p.reqJson('stream_names', names));
    }),
  );

  router.patch(
    '/default_stream_groups/:group_id',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(deps.db, ctx.identity);
      await doUpdateDefaultStreamGroupInfo(deps, actor, p.pathInt('group_id'), p.strNulChecked('new_group_name'), p.strNulChecked('new_description'));
    }),
  );

  router.delete(
    '/default_stream_groups/:group_id',
    endpoint(async (ctx) => {
      await doRemoveDefaultStreamGroup(deps, await loadActor(deps.db, ctx.identity), ctx.p.pathInt('group_id'));
    }),
  );

  router.patch(
    '/default_stream_groups/:group_id/streams',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(deps.db, ctx.identity);
      await doUpdateDefaultStreamGroupStreams(deps, actor, p.pathInt('group_id'), p.reqStr('op'), p.reqJson('stream_names', names));
    }),
  );
}
