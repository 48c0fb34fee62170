import { actorFromIdentity } from '@chat/contracts';
import type { Router } from 'express';
import { z } from 'zod';
import { endpoint, type Ctx } from '@chat/kit';
import type { Services } from '../context';
import { doInviteUsers, doResendInvite } from '../actions/email-invites';
import { checkMemberOrAdmin, doCreateMultiuseInvite, doRevokeInvite, listInvites, type InviteInput } from '../actions/invites';

const ids = z.array(z.number().int());

/** The terms both kinds of invitation take. */
function readInviteTerms(p: Ctx['p'], streamIds: number[]): InviteInput {
  return {
    expiresInMinutes: p.has('invite_expires_in_minutes') ? p.json('invite_expires_in_minutes', z.number().int().nullable()) : undefined,
    inviteAs: p.int('invite_as'),
    streamIds,
    groupIds: p.json('group_ids', ids) ?? [],
    includeRealmDefaultSubscriptions: p.bool('include_realm_default_subscriptions', false),
    welcomeMessageCustomText: p.has('welcome_message_custom_text') ? readNullableString(p.raw('welcome_message_custom_text')) : undefined,
  };
}

export function inviteRoutes(router: Router, services: Services): void {
  router.post(
    '/invites',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      // Guests and bots are turned away before their parameters are looked at.
      checkMemberOrAdmin(actor);
      const inviteeEmails = p.reqStr('invitee_emails');
      await doInviteUsers(services, actor, {
        inviteeEmails,
        ...readInviteTerms(p, p.reqJson('stream_ids', ids)),
        notifyReferrerOnJoin: p.bool('notify_referrer_on_join', true),
      });
    }),
  );
  router.post(
    '/invites/multiuse',
    endpoint(async ({ p, identity }) => {
      const actor = actorFromIdentity(identity);
      checkMemberOrAdmin(actor);
      const invite_link = await doCreateMultiuseInvite(services, actor, readInviteTerms(p, p.json('stream_ids', ids) ?? []));
      return { invite_link };
    }),
  );
  router.get('/invites', endpoint(async ({ identity }) => ({ invites: await listInvites(services, actorFromIdentity(identity)) })));
  router.delete(
    '/invites/multiuse/:invite_id',
    endpoint(async ({ p, identity }) => {
      await doRevokeInvite(services, actorFromIdentity(identity), p.pathInt('invite_id'), true);
    }),
  );
  router.delete(
    '/invites/:invite_id',
    endpoint(async ({ p, identity }) => {
      await doRevokeInvite(services, actorFromIdentity(identity), p.pathInt('invite_id'), false);
    }),
  );
  router.post(
    '/invites/:invite_id/resend',
    endpoint(async ({ p, identity }) => {
      await doResendInvite(services, actorFromIdentity(identity), p.pathInt('invite_id'));
    }),
  );
}

/** Form bodies cannot carry null: the JSON literal `null` stands for it, as clients send it. */
function readNullableString(raw: unknown): string | null {
  if (raw === null || raw === 'null') return null;
  return String(raw);
}
