import type { Router } from 'express';
import { ApiError, errors } from '@chat/contracts';
import type { Services } from '../context';
import { accessPasswordResetLink, doResetPassword, doSendPasswordReset } from '../actions/password-reset';
import { PASSWORD_MIN_LENGTH } from '../lib/passwords';
import { pageHandler, wantsJson, type PageCtx } from './context';
import { field, form, link, paragraph } from './layout';
import { logOut, type PageSecurity } from './session';

/**
 * "Forgot password" at the family's paths: /accounts/password/reset/ asks for the address,
 * /accounts/password/reset/done/ says a message is on its way (whether or not the address has
 * an account), /accounts/password/reset/<uidb64>/<token>/ sets the new password, and
 * /accounts/password/done/ says it worked.
 */

function requestForm(ctx: PageCtx, email?: string, error?: string): string {
  return form('/accounts/password/reset/', ctx.csrf(), field({ name: 'email', label: 'Email', type: 'email', value: email, autocomplete: 'email', error }), 'Send reset link');
}

function newPasswordForm(ctx: PageCtx, action: string, errs: { new_password1?: string; new_password2?: string } = {}): string {
  const inner =
    field({ name: 'new_password1', label: 'New password', type: 'password', autocomplete: 'new-password', hint: `At least ${PASSWORD_MIN_LENGTH} characters, and not easy to guess.`, error: errs.new_password1 }) +
    field({ name: 'new_password2', label: 'Confirm new password', type: 'password', autocomplete: 'new-password', error: errs.new_password2 });
  return form(action, ctx.csrf(), inner, 'Set new password');
}

export function resetPages(router: Router, services: Services, security: PageSecurity): void {
  const page = (h: (ctx: PageCtx) => Promise<void>) => pageHandler(services, security, h);
  router.get('/accounts/password/reset', page((ctx) => ctx.send({ title: 'Reset your password', body: paragraph("Enter your email address and we'll send you a link to set a new password.") + requestForm(ctx) })));
  router.post(
    '/accounts/password/reset',
    page(async (ctx) => {
      const email = ctx.str('email') ?? '';
      try {
        await doSendPasswordReset(services, { id: ctx.identity.realmId, url: ctx.identity.realmUrl }, email);
      } catch (err) {
        if (!(err instanceof ApiError) || wantsJson(ctx.req) || err.status >= 500) throw err;
        if (err.code === 'RATE_LIMIT_HIT') ctx.res.setHeader('Retry-After', String(err.extra['retry-after']));
        return ctx.send({ title: 'Reset your password', alert: err.message, body: requestForm(ctx, email, err.message) }, err.status);
      }
      if (wantsJson(ctx.req)) return void ctx.res.json({ result: 'success', msg: '' });
      ctx.res.redirect(303, '/accounts/password/reset/done/');
    }),
  );
  router.get(
    '/accounts/password/reset/done',
    page((ctx) => ctx.send({ title: 'Check your email', body: paragraph('If an account exists for that address, we have sent it a link to reset the password. The link expires in 24 hours.') })),
  );
  router.get(
    '/accounts/password/reset/:uidb64/:token',
    page(async (ctx) => {
      const { uidb64, token } = ctx.req.params as { uidb64: string; token: string };
      await accessPasswordResetLink(services, ctx.identity.realmId, uidb64, token);
      await ctx.send({ title: 'Set a new password', body: newPasswordForm(ctx, ctx.req.path.endsWith('/') ? ctx.req.path : `${ctx.req.path}/`) });
    }),
  );
  router.post(
    '/accounts/password/reset/:uidb64/:token',
    page(async (ctx) => {
      const { uidb64, token } = ctx.req.params as { uidb64: string; token: string };
      await accessPasswordResetLink(services, ctx.identity.realmId, uidb64, token);
      const first = ctx.str('new_password1') ?? '';
      const second = ctx.str('new_password2') ?? '';
      const action = ctx.req.path.endsWith('/') ? ctx.req.path : `${ctx.req.path}/`;
      try {
        if (!first) throw errors.badRequest('Please choose a password.');
        if (first !== second) throw errors.badRequest("The two password fields didn't match.");
        await doResetPassword(services, ctx.identity.realmId, uidb64, token, first);
      } catch (err) {
        if (!(err instanceof ApiError) || wantsJson(ctx.req) || err.status === 404 || err.status >= 500) throw err;
        const errs = /match/.test(err.message) ? { new_password2: err.message } : { new_password1: err.message };
        return ctx.send({ title: 'Set a new password', alert: err.message, body: newPasswordForm(ctx, action, errs) }, err.status);
      }
      // A session of this browser from before the reset is over; the person logs in anew.
      await logOut(ctx.req);
      if (wantsJson(ctx.req)) return void ctx.res.json({ result: 'success', msg: '' });
      ctx.res.redirect(303, '/accounts/password/done/');
    }),
  );
  router.get(
    '/accounts/password/done',
    page((ctx) => ctx.send({ title: 'Password reset', body: paragraph('Your password has been set. You can now log in with it.') + `<p>${link('/login/', 'Log in')}</p>` })),
  );
}
