import type { Request, Router } from 'express';
import { z } from 'zod';
import { ApiError } from '@chat/contracts';
import { endpoint, type Ctx } from '@chat/kit';
import type { Services } from '../context';
import { actorOf } from '../actions/actor';
import { doInviteUsers, doResendInvite } from '../actions/email-invites';
import { checkMemberOrAdmin, doCreateMultiuseInvite, doRevokeInvite, listInvites, type InviteInput } from '../actions/invites';
import { accessUsableInvite, doSignUpWithInvite } from '../actions/signup';
import { escapeHtml } from '../lib/render';

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
      const actor = actorOf(identity);
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
      const actor = actorOf(identity);
      checkMemberOrAdmin(actor);
      const invite_link = await doCreateMultiuseInvite(services, actor, readInviteTerms(p, p.json('stream_ids', ids) ?? []));
      return { invite_link };
    }),
  );
  router.get('/invites', endpoint(async ({ identity }) => ({ invites: await listInvites(services, actorOf(identity)) })));
  router.delete(
    '/invites/multiuse/:invite_id',
    endpoint(async ({ p, identity }) => {
      await doRevokeInvite(services, actorOf(identity), p.pathInt('invite_id'), true);
    }),
  );
  router.delete(
    '/invites/:invite_id',
    endpoint(async ({ p, identity }) => {
      await doRevokeInvite(services, actorOf(identity), p.pathInt('invite_id'), false);
    }),
  );
  router.post(
    '/invites/:invite_id/resend',
    endpoint(async ({ p, identity }) => {
      await doResendInvite(services, actorOf(identity), p.pathInt('invite_id'));
    }),
  );
}

/** Form bodies cannot carry null: the JSON literal `null` stands for it, as clients send it. */
function readNullableString(raw: unknown): string | null {
  if (raw === null || raw === 'null') return null;
  return String(raw);
}

function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json';
}

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

/** The sign-up page behind an invitation link: a form, and the account it creates. */
export function joinRoutes(router: Router, services: Services): void {
  const guard = (handler: (ctx: Ctx) => Promise<void>) =>
    endpoint(async (ctx) => {
      try {
        await handler(ctx);
      } catch (err) {
        if (!(err instanceof ApiError) || wantsJson(ctx.req)) throw err;
        ctx.res.status(err.status).type('html').send(page('Sign up', `<p>${escapeHtml(err.message)}</p>`));
      }
    }, { auth: 'optional' });

  router.get(
    '/join/:key',
    guard(async ({ p, identity, res }) => {
      const key = p.pathStr('key');
      const invite = await accessUsableInvite(services.db, identity.realmId, key);
      // An email invitation was sent to one address: the form shows it, fixed.
      const emailField =
        invite.email === null
          ? '<input name="email" type="email" required>'
          : `<input name="email" type="email" value="${escapeHtml(invite.email)}" readonly>`;
      res.type('html').send(
        page(
          'Sign up',
          `<form method="post" action="/join/${encodeURIComponent(key)}/">` +
            `<label>Email ${emailField}</label> ` +
            '<label>Full name <input name="full_name" required></label> ' +
            '<button type="submit">Create account</button></form>',
        ),
      );
    }),
  );
  router.post(
    '/join/:key',
    guard(async ({ p, identity, req, res }) => {
      const user = await doSignUpWithInvite(services, { id: identity.realmId, url: identity.realmUrl }, p.pathStr('key'), {
        email: p.str('email'),
        fullName: p.reqStr('full_name'),
      });
      if (wantsJson(req)) {
        res.json({ result: 'success', msg: '', user_id: user.id, email: user.email, api_key: user.apiKey });
        return;
      }
      const zuliprc = `[api]\nemail=${user.email}\nkey=${user.apiKey}\nsite=${identity.realmUrl}\n`;
      res.type('html').send(page('Welcome!', `<p>Your account is ready.</p><pre>${escapeHtml(zuliprc)}</pre>`));
    }),
  );
}
