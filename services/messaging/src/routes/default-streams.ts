import type { Router } from 'express';
import { z } from 'zod';
import { endpoint } from '@chat/kit';
import { loadActor } from '../lib/caller';
import type { Services } from '../context';
import { doAddDefaultStream, doRemoveDefaultStream } from '../actions/default-streams';
import {
  doCreateDefaultStreamGroup,
  doRemoveDefaultStreamGroup,
  doUpdateDefaultStreamGroupInfo,
  doUpdateDefaultStreamGroupStreams,
} from '../actions/default-stream-groups';

const names = z.array(z.string());

/** Default channels and default channel groups (administrators only). */
export function defaultStreamRoutes(router: Router, services: Services): void {
  router.post(
    '/default_streams',
    endpoint(async (ctx) => {
      await doAddDefaultStream(services, await loadActor(services.db, ctx.identity), ctx.p.reqInt('stream_id'));
    }),
  );

  router.delete(
    '/default_streams',
    endpoint(async (ctx) => {
      await doRemoveDefaultStream(services, await loadActor(services.db, ctx.identity), ctx.p.reqInt('stream_id'));
    }),
  );

  router.post(
    '/default_stream_groups/create',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(services.db, ctx.identity);
      await doCreateDefaultStreamGroup(services, actor, p.reqStrNulChecked('group_name'), p.reqStrNulChecked('description'), p.reqJson('stream_names', names));
    }),
  );

  router.patch(
    '/default_stream_groups/:group_id',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(services.db, ctx.identity);
      await doUpdateDefaultStreamGroupInfo(services, actor, p.pathInt('group_id'), p.strNulChecked('new_group_name'), p.strNulChecked('new_description'));
    }),
  );

  router.delete(
    '/default_stream_groups/:group_id',
    endpoint(async (ctx) => {
      await doRemoveDefaultStreamGroup(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('group_id'));
    }),
  );

  router.patch(
    '/default_stream_groups/:group_id/streams',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(services.db, ctx.identity);
      await doUpdateDefaultStreamGroupStreams(services, actor, p.pathInt('group_id'), p.reqStr('op'), p.reqJson('stream_names', names));
    }),
  );
}
