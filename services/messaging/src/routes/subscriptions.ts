import type { Router } from 'express';
import { z } from 'zod';
import { endpoint, type Params } from '@chat/kit';
import type { NewStream } from '../actions/streams';
import { errors } from '@chat/contracts';
import { STREAM_GROUP_SETTING_NAMES } from '@chat/wire';
import { loadActor } from '../lib/caller';
import type { Services } from '../context';
import { doAddSubscriptions, doRemoveSubscriptions, doUpdateOwnSubscriptions } from '../actions/subscribe';
import { doUpdateSubscriptionProperties } from '../actions/subscription-properties';
import { listSubscriptions } from '../actions/stream-queries';
import { TOPICS_POLICIES } from '../actions/stream-admin';
import { retentionDays } from './streams';

const principalsSchema = z.array(z.union([z.number().int(), z.string()]));
const streamSpecs = z.array(z.object({ name: z.string(), description: z.string().optional() }).passthrough());
const propertyChanges = z.array(z.object({ stream_id: z.number().int(), property: z.string(), value: z.unknown() }));

/** The settings of a channel being created, as POST /users/me/subscriptions and POST /channels/create take them. */
export function readNewStreamSettings(p: Params): Omit<NewStream, 'name' | 'description'> {
  const topicsPolicy = p.str('topics_policy');
  if (topicsPolicy !== undefined && !TOPICS_POLICIES.includes(topicsPolicy)) throw errors.badRequest('Invalid topics_policy');
  return {
    inviteOnly: p.bool('invite_only', false),
    isWebPublic: p.bool('is_web_public', false),
    historyPublicToSubscribers: p.bool('history_public_to_subscribers'),
    topicsPolicy,
    messageRetentionDays: retentionDays(p.str('message_retention_days')) ?? null,
    folderId: p.json('folder_id', z.number().int().nullable()) ?? null,
    groups: Object.fromEntries(STREAM_GROUP_SETTING_NAMES.map((name) => [name, p.json(name, z.unknown())])),
  };
}

export function subscriptionRoutes(router: Router, services: Services): void {
  router.get(
    '/users/me/subscriptions',
    endpoint(async (ctx) => {
      const actor = await loadActor(services.db, ctx.identity);
      const include = ctx.p.str('include_subscribers');
      return { subscriptions: await listSubscriptions(services, actor, include === 'true' || include === 'partial') };
    }),
  );

  router.post(
    '/users/me/subscriptions',
    endpoint(async (ctx) => {
      const { p } = ctx;
      const actor = await loadActor(services.db, ctx.identity);
      p.accept('send_new_subscription_messages', 'stream_post_policy');
      return doAddSubscriptions(services, actor, {
        streams: p.reqJson('subscriptions', streamSpecs),
        principals: p.json('principals', principalsSchema),
        authorizationErrorsFatal: p.bool('authorization_errors_fatal', true),
        isDefaultStream: p.bool('is_default_stream', false),
        announce: p.bool('announce', false),
        create: readNewStreamSettings(p),
      });
    }),
  );

  router.delete(
    '/users/me/subscriptions',
    endpoint(async (ctx) => {
      const actor = await loadActor(services.db, ctx.identity);
      return doRemoveSubscriptions(services, actor, ctx.p.reqJson('subscriptions', z.array(z.string())), ctx.p.json('principals', principalsSchema));
    }),
  );

  // Adds and removes the caller's subscriptions in one request.
  router.patch(
    '/users/me/subscriptions',
    endpoint(async (ctx) => {
      const actor = await loadActor(services.db, ctx.identity);
      return doUpdateOwnSubscriptions(services, actor, ctx.p.json('add', streamSpecs) ?? [], ctx.p.json('delete', z.array(z.string())) ?? []);
    }),
  );

  router.post(
    '/users/me/subscriptions/properties',
    endpoint(async (ctx) => {
      const actor = await loadActor(services.db, ctx.identity);
      const changes = ctx.p.reqJson('subscription_data', propertyChanges);
      await doUpdateSubscriptionProperties(services, actor, changes);
      // The request is no longer echoed back (the family stopped at feature level 111).
    }),
  );

  // The older single-property form.
  router.patch(
    '/users/me/subscriptions/:stream_id',
    endpoint(async (ctx) => {
      const actor = await loadActor(services.db, ctx.identity);
      const property = ctx.p.reqStr('property');
      let value: unknown = ctx.p.raw('value');
      if (value === undefined) throw errors.missingArgument('value');
      if (typeof value === 'string' && property !== 'color') {
        try {
          value = JSON.parse(value);
        } catch {
          // left as the string; the property's check reports it
        }
      }
      await doUpdateSubscriptionProperties(services, actor, [{ stream_id: ctx.p.pathInt('stream_id'), property, value }]);
    }),
  );
}
