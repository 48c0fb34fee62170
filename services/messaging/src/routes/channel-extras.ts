import type { Router } from 'express';
import { z } from 'zod';
import { endpoint } from '@chat/kit';
import { loadActor } from '../lib/caller';
import type { Services } from '../context';
import { doCreateChannel } from '../actions/channel-create';
import { accessUserChannels } from '../actions/user-channels';
import { doDeleteTopic } from '../actions/delete-topic';
import { accessChannelEmailAddress } from '../actions/channel-email';
import { readNewStreamSettings } from './subscriptions';

/** POST /channels/create and the smaller channel operations beside it. */
export function channelExtraRoutes(router: Router, services: Services): void {
  router.post(
    '/channels/create',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(services.db, ctx.identity);
      // can_create_topic_group came after feature level 420: accepted and not stored.
      p.accept('send_new_subscription_messages', 'can_create_topic_group');
      return doCreateChannel(services, actor, {
        name: p.reqStr('name'),
        subscribers: p.reqJson('subscribers', z.array(z.number().int())),
        isDefaultStream: p.bool('is_default_stream', false),
        announce: p.bool('announce', false),
        settings: { ...readNewStreamSettings(p), description: p.str('description') },
      });
    }),
  );

  router.get(
    '/users/:user_id/channels',
    endpoint(async (ctx) => {
      const actor = await loadActor(services.db, ctx.identity);
      return { subscribed_channel_ids: await accessUserChannels(services, actor, ctx.p.pathInt('user_id')) };
    }),
  );

  router.post(
    '/streams/:stream_id/delete_topic',
    endpoint(async (ctx) => {
      const actor = await loadActor(services.db, ctx.identity);
      return doDeleteTopic(services, actor, ctx.p.pathInt('stream_id'), ctx.p.reqStr('topic_name'));
    }),
  );

  router.get(
    '/streams/:stream_id/email_address',
    endpoint(async (ctx) => {
      const actor = await loadActor(services.db, ctx.identity);
      return { email: await accessChannelEmailAddress(services, actor, ctx.p.pathInt('stream_id'), ctx.p.int('sender_id')) };
    }),
  );
}
