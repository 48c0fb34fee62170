import type { Router } from 'express';
import type { User } from '@chat/db';
import type { Services } from '../context';
import { escapeHtml } from '../lib/render';
import { pageHandler, type PageCtx } from './context';
import { paragraph } from './layout';
import type { PageSecurity } from './session';

/**
 * `/accounts/api_key/` shows a logged-in person their key with their zuliprc file to download;
 * anyone else is sent to the login page. (`/` is the web app, which the gateway serves.)
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
