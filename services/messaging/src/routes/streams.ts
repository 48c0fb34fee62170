import type { Router } from 'express';
import { z } from 'zod';
import { endpoint } from '@chat/kit';
import { errors } from '@chat/contracts';
import { STREAM_GROUP_SETTING_NAMES } from '@chat/wire';
import { loadActor } from '../lib/caller';
import type { Services } from '../context';
import { getStream, getStreamId, isUserSubscribed, listStreams, streamMembers, streamTopics } from '../actions/stream-queries';
import { doArchiveStream, doUpdateStream, type StreamChanges } from '../actions/stream-admin';

const groupChange = z.object({ new: z.unknown(), old: z.unknown().optional() });

/** message_retention_days: a number of days, "unlimited" (-1) or "realm_default" (null). */
export function retentionDays(raw: string | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  const v = raw.replace(/^"|"$/g, '');
  if (v === 'unlimited') return -1;
  if (v === 'realm_default') return null;
  if (/^\d+$/.test(v) && Number(v) > 0) return Number(v);
  throw errors.badRequest('Bad value for \'message_retention_days\': ' + raw);
}

export function streamRoutes(router: Router, services: Services): void {
  for (const path of ['/streams', '/channels']) {
    router.get(
      path,
      endpoint(async (ctx) => {
        const { p } = ctx;
        const actor = await loadActor(services.db, ctx.identity);
        const streams = await listStreams(services, actor, {
          includePublic: p.bool('include_public', true),
          includeWebPublic: p.bool('include_web_public', false),
          includeSubscribed: p.bool('include_subscribed', true),
          excludeArchived: p.bool('exclude_archived', true),
          includeAllActive: p.bool('include_all_active', false) || p.bool('include_all', false),
          includeDefault: p.bool('include_default', false),
          includeOwnerSubscribed: p.bool('include_owner_subscribed', false),
          includeCanAccessContent: p.bool('include_can_access_content', false),
        });
        return { streams };
      }),
    );
  }

  router.get(
    '/streams/:stream_id',
    endpoint(async (ctx) => ({ stream: await getStream(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('stream_id')) })),
  );

  router.get(
    '/get_stream_id',
    endpoint(async (ctx) => ({ stream_id: await getStreamId(services, await loadActor(services.db, ctx.identity), ctx.p.reqStr('stream')) })),
  );

  router.get(
    '/streams/:stream_id/members',
    endpoint(async (ctx) => ({ subscribers: await streamMembers(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('stream_id')) })),
  );

  router.get(
    '/users/:user_id/subscriptions/:stream_id',
    endpoint(async (ctx) => {
      const actor = await loadActor(services.db, ctx.identity);
      const raw = ctx.p.pathStr('user_id');
      const userId = raw === 'me' ? actor.userId : ctx.p.pathInt('user_id');
      return { is_subscribed: await isUserSubscribed(services, actor, userId, ctx.p.pathInt('stream_id')) };
    }),
  );

  router.get(
    '/users/me/:stream_id/topics',
    endpoint(async (ctx) => {
      const actor = await loadActor(services.db, ctx.identity);
      return { topics: await streamTopics(services, actor, ctx.p.pathInt('stream_id'), ctx.p.bool('allow_empty_topic_name', false)) };
    }),
  );

  router.patch(
    '/streams/:stream_id',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(services.db, ctx.identity);
      const groups: StreamChanges['groups'] = {};
      for (const name of STREAM_GROUP_SETTING_NAMES) {
        const v = p.json(name, groupChange);
        if (v) groups[name] = v;
      }
      const folder = p.raw('folder_id');
      const changes: StreamChanges = {
        description: p.str('description'),
        newName: p.str('new_name'),
        isPrivate: p.bool('is_private'),
        isWebPublic: p.bool('is_web_public'),
        historyPublicToSubscribers: p.bool('history_public_to_subscribers'),
        topicsPolicy: p.str('topics_policy'),
        messageRetentionDays: retentionDays(p.str('message_retention_days')),
        folderId: folder === undefined ? undefined : p.json('folder_id', z.number().int().nullable()),
        isArchived: p.bool('is_archived'),
        isDefaultStream: p.bool('is_default_stream'),
        groups,
      };
      p.accept('stream_post_policy', 'is_announcement_only');
      await doUpdateStream(services, actor, p.pathInt('stream_id'), changes);
    }),
  );

  router.delete(
    '/streams/:stream_id',
    endpoint(async (ctx) => {
      await doArchiveStream(services, await loadActor(services.db, ctx.identity), ctx.p.pathInt('stream_id'));
    }),
  );
}
