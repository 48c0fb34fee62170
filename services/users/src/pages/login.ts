import type { Router } from 'express';
import { ApiError, errors } from '@chat/contracts';
import type { User } from '@chat/db';
import type { Services } from '../context';
import { doNotifyNewLogin } from '../actions/login-notice';
import { accessUserByPassword } from '../actions/password-login';
import { checkOtpParams, desktopFlowData, mobileFlowRedirect } from '../lib/app-login';
import { issueToken, takeToken, TOKEN_SHAPE } from '../lib/one-time-tokens';
import { pageHandler, safeNext, wantsJson, type PageCtx } from './context';
import { field, form, hiddenField, link, paragraph } from './layout';
import { logIn, logOut, type PageSecurity } from './session';

/** The family keeps a desktop login token this long: the app redeems it at once. */
const DESKTOP_TOKEN_SECONDS = 15;

interface LoginForm {
  email?: string;
  next?: string;
  mobileFlowOtp?: string;
  desktopFlowOtp?: string;
  error?: string;
  notice?: string;
}

function loginForm(ctx: PageCtx, f: LoginForm): string {
  const fields =
    field({ name: 'username', label: 'Email', type: 'email', value: f.email, autocomplete: 'username', error: f.error }) +
    field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password' }) +
    hiddenField('next', f.next) +
    hiddenField('mobile_flow_otp', f.mobileFlowOtp) +
    hiddenField('desktop_flow_otp', f.desktopFlowOtp);
  return (
    (f.notice ? paragraph(f.notice) : '') +
    form('/accounts/login/', ctx.csrf(), fields, 'Log in') +
    `<p>${link('/accounts/password/reset/', 'Forgot your password?')}</p>` +
    `<p>${link('/register/', 'Sign up')}</p>`
  );
}

function flowParams(ctx: PageCtx) {
  const mobileFlowOtp = ctx.str('mobile_flow_otp') || undefined;
  const desktopFlowOtp = ctx.str('desktop_flow_otp') || undefined;
  checkOtpParams(mobileFlowOtp, desktopFlowOtp);
  return { mobileFlowOtp, desktopFlowOtp };
}

async function showLogin(ctx: PageCtx): Promise<void> {
  const flows = flowParams(ctx);
  const next = ctx.str('next');
  // An app flow needs the password typed here, even in a browser already logged in.
  if (!flows.mobileFlowOtp && !flows.desktopFlowOtp && (await ctx.user())) return void ctx.res.redirect(safeNext(next));
  const realm = await ctx.services.db.realm.findUnique({ where: { id: ctx.identity.realmId } });
  if (realm?.deactivated) throw errors.realmDeactivated();
  const notice = ctx.str('already_registered') ? "You've already registered with this email address. Please log in below." : undefined;
  await ctx.send({ title: `Log in to ${realm?.name ?? 'the organization'}`, body: loginForm(ctx, { ...flows, next, email: ctx.str('email'), notice }) });
}

/** Ends a successful login: the app's flow, or a browser session and the page asked for. */
async function finishLogin(ctx: PageCtx, user: User, flows: { mobileFlowOtp?: string; desktopFlowOtp?: string }, next: string | undefined) {
  const realmUrl = ctx.identity.realmUrl;
  if (flows.mobileFlowOtp) {
    // res.redirect would do, but the family answers a bare 302 for its custom scheme.
    ctx.res.status(302).setHeader('Location', mobileFlowRedirect(realmUrl, user, flows.mobileFlowOtp));
    ctx.res.end();
    return;
  }
  if (flows.desktopFlowOtp) {
    const token = await issueToken(ctx.services, 'desktop', { userId: user.id, realmId: user.realmId }, DESKTOP_TOKEN_SECONDS);
    const data = desktopFlowData(flows.desktopFlowOtp, token);
    await ctx.send({
      title: 'Finish logging in',
      body:
        `<label for="desktop-data">Copy this login token and return to your app to finish logging in:</label>` +
        `<input id="desktop-data" type="text" readonly value="${data}">` +
        paragraph('You may then close this window.') +
        `<p>${link('/login/', 'Or, continue in your browser.')}</p>`,
    });
    return;
  }
  await logIn(ctx.req, user);
  if (wantsJson(ctx.req)) return void ctx.res.json({ result: 'success', msg: '', user_id: user.id, email: user.deliveryEmail });
  ctx.res.redirect(303, safeNext(next));
}

async function submitLogin(ctx: PageCtx): Promise<void> {
  const flows = flowParams(ctx);
  const next = ctx.str('next');
  const username = (ctx.str('username') ?? '').trim();
  try {
    const user = await accessUserByPassword(ctx.services, {
      realmId: ctx.identity.realmId,
      username,
      password: ctx.str('password') ?? '',
      ip: ctx.identity.clientIp ?? ctx.req.ip ?? '',
    });
    await doNotifyNewLogin(ctx.services, ctx.identity, user, { userAgent: ctx.req.get('user-agent') ?? '', ip: ctx.identity.clientIp ?? ctx.req.ip ?? '' });
    await finishLogin(ctx, user, flows, next);
  } catch (err) {
    if (!(err instanceof ApiError) || wantsJson(ctx.req) || err.status >= 500) throw err;
    if (err.code === 'RATE_LIMIT_HIT') ctx.res.setHeader('Retry-After', String(err.extra['retry-after']));
    await ctx.send({ title: 'Log in', alert: err.message, body: loginForm(ctx, { ...flows, next, email: username, error: err.message }) }, err.status);
  }
}

export function loginPages(router: Router, services: Services, security: PageSecurity): void {
  const page = (h: (ctx: PageCtx) => Promise<void>) => pageHandler(services, security, h);
  for (const path of ['/login', '/accounts/login']) {
    router.get(path, page(showLogin));
    router.post(path, page(submitLogin));
  }
  router.post(
    '/accounts/logout',
    page(async (ctx) => {
      await logOut(ctx.req);
      ctx.res.redirect(303, '/login/');
    }),
  );
  // The desktop app redeems its login token here, in its own browser window.
  router.get(
    '/accounts/login/subdomain/:token',
    page(async (ctx) => {
      const token = String(ctx.req.params.token);
      if (!TOKEN_SHAPE.test(token)) throw errors.badRequest('Invalid login token');
      const data = await takeToken<{ userId: number; realmId: number }>(services, 'desktop', token);
      const user = data && data.realmId === ctx.identity.realmId ? await services.db.user.findUnique({ where: { id: data.userId } }) : null;
      if (!user || !user.isActive) throw errors.badRequest('The login token is invalid or has expired. Please log in again.');
      await logIn(ctx.req, user);
      ctx.res.redirect(303, '/');
    }),
  );
}
