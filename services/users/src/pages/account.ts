import type { Router } from 'express';
import type { User } from '@chat/db';
import type { Services } from '../context';
import { escapeHtml } from '../lib/render';
import { pageHandler, type PageCtx } from './context';
import { link, paragraph } from './layout';
import type { PageSecurity } from './session';

/**
 * What a logged-in person sees: `/` says where to go next (the apps, their API key), and
 * `/accounts/api_key/` shows the key with their zuliprc file to download. Anyone else is sent to
 * the login page.
 */

export function zuliprc(user: Pick<User, 'deliveryEmail' | 'apiKey'>, realmUrl: string): string {
  return `[api]\nemail=${user.deliveryEmail}\nkey=${user.apiKey}\nsite=${realmUrl}\n`;
}

async function requireUser(ctx: PageCtx): Promise<User | null> {
  const user = await ctx.user();
  if (!user) ctx.res.redirect(303, `/login/?next=${encodeURIComponent(ctx.req.originalUrl)}`);
  return user;
}

export function accountPages(router: Router, services: Services, security: PageSecurity): void {
  const page = (h: (ctx: PageCtx) => Promise<void>) => pageHandler(services, security, h);
  router.get(
    '/',
    page(async (ctx) => {
      const user = await requireUser(ctx);
      if (!user) return;
      const realm = await services.db.realm.findUniqueOrThrow({ where: { id: user.realmId } });
      const body =
        (ctx.str('welcome') ? paragraph(`Welcome to ${realm.name}, ${user.fullName}! Your account is ready.`) : '') +
        '<h2>Where to go next</h2><ul>' +
        `<li>Log in from the mobile, desktop or terminal apps with the organization URL <code>${escapeHtml(ctx.identity.realmUrl)}</code>, your email and your password.</li>` +
        `<li>${link('/accounts/api_key/', 'Get your API key and zuliprc file')} for bots, scripts and terminal clients.</li>` +
        '</ul>';
      await ctx.send({ title: realm.name, body });
    }),
  );
  router.get(
    '/accounts/api_key',
    page(async (ctx) => {
      const user = await requireUser(ctx);
      if (!user) return;
      const body =
        paragraph('Your API key lets programs act as you. Keep it secret.') +
        `<p><label for="api-key">API key</label><input id="api-key" type="text" readonly value="${escapeHtml(user.apiKey)}"></p>` +
        `<h2>zuliprc</h2><pre aria-label="zuliprc file">${escapeHtml(zuliprc(user, ctx.identity.realmUrl))}</pre>` +
        `<p><a href="/accounts/api_key/zuliprc" download="zuliprc">Download zuliprc</a></p>`;
      await ctx.send({ title: 'Your API key', body });
    }),
  );
  router.get(
    '/accounts/api_key/zuliprc',
    page(async (ctx) => {
      const user = await requireUser(ctx);
      if (!user) return;
      ctx.res.attachment('zuliprc').type('text/plain').send(zuliprc(user, ctx.identity.realmUrl));
    }),
  );
}
