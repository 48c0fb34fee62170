import type { Router } from 'express';
import type { Services } from '../context';
import { doConfirmEmailChange } from '../actions/email-change';
import { escapeHtml } from '../lib/render';
import { pageHandler, wantsJson, type PageCtx } from './context';
import type { PageSecurity } from './session';

/**
 * `/accounts/confirm_new_email/<key>/`, the link mailed to a new address: opening it makes the
 * change (as the family's link does, without asking to log in) and says so. An expired, used or
 * superseded link is the usual 404 page.
 */
export function emailChangePages(router: Router, services: Services, security: PageSecurity): void {
  const page = (h: (ctx: PageCtx) => Promise<void>) => pageHandler(services, security, h);
  router.get(
    '/accounts/confirm_new_email/:key',
    page(async (ctx) => {
      const key = String(ctx.req.params.key);
      const done = await doConfirmEmailChange(services, { id: ctx.identity.realmId, url: ctx.identity.realmUrl }, key);
      if (wantsJson(ctx.req)) return void ctx.res.json({ result: 'success', msg: '', old_email: done.oldEmail, new_email: done.newEmail });
      const mailto = (email: string) => `<a href="mailto:${escapeHtml(email)}">${escapeHtml(email)}</a>`;
      const body =
        `<p>This confirms that the email address for your account has changed from ${mailto(done.oldEmail)} to ${mailto(done.newEmail)}.</p>` +
        `<p><a href="/">Go to the organization</a></p>`;
      await ctx.send({ title: 'Email address changed', body });
    }),
  );
}
