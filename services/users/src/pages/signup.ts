import type { Router } from 'express';
import { ApiError, errors } from '@chat/contracts';
import type { Services } from '../context';
import { accessUsableInvite, doSignUpWithInvite } from '../actions/signup';
import { accessSignupConfirmation, AlreadyRegistered, doSendSignupConfirmation, doSignUpWithConfirmation, openSignupAllowed } from '../actions/email-signup';
import { checkPasswordStrength } from '../actions/password-login';
import { hashPassword, PASSWORD_MIN_LENGTH } from '../lib/passwords';
import { pageHandler, wantsJson, type PageCtx } from './context';
import { field, form, link, paragraph } from './layout';
import { logIn, type PageSecurity } from './session';

/**
 * Signing up: through an invitation link (`/join/<key>/`), or, where the realm lets anyone
 * join, by confirming an address (`/register/` → mail → `/accounts/do_confirm/<key>`). Either
 * way the form takes a full name and a password, and the new person is logged in.
 */

const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters, and not easy to guess.`;

type FieldName = 'email' | 'full_name' | 'password';

interface AccountForm {
  action: string;
  email?: string;
  /** The address is given by the invitation or the confirmation: shown, not editable. */
  emailFixed: boolean;
  fullName?: string;
  errors?: Partial<Record<FieldName, string>>;
  hidden?: string;
}

function accountForm(ctx: PageCtx, f: AccountForm): string {
  const e = f.errors ?? {};
  const inner =
    field({ name: 'email', label: 'Email', type: 'email', value: f.email, readonly: f.emailFixed, autocomplete: 'email', error: e.email }) +
    field({ name: 'full_name', label: 'Full name', value: f.fullName, autocomplete: 'name', error: e.full_name }) +
    field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', hint: PASSWORD_HINT, error: e.password }) +
    (f.hidden ?? '');
  return form(f.action, ctx.csrf(), inner, 'Sign up');
}

/** Which field an action's refusal is about, so the message sits next to it. */
function fieldOf(err: ApiError): FieldName {
  if (/password/i.test(err.message)) return 'password';
  if (/name/i.test(err.message) && !/email/i.test(err.message)) return 'full_name';
  return 'email';
}

/** Checks the password before anything is created: a weak one must not leave half an account. */
function readPassword(ctx: PageCtx): string {
  const password = ctx.str('password') ?? '';
  if (!password) throw errors.badRequest('Please choose a password.');
  checkPasswordStrength(password);
  return password;
}

async function welcome(ctx: PageCtx, user: { id: number; realmId: number; passwordHash: string | null }): Promise<void> {
  await logIn(ctx.req, user);
  ctx.res.redirect(303, '/?welcome=1');
}

function joinPages(router: Router, services: Services, security: PageSecurity): void {
  const page = (h: (ctx: PageCtx) => Promise<void>) => pageHandler(services, security, h);
  router.get(
    '/join/:key',
    page(async (ctx) => {
      const key = String(ctx.req.params.key);
      const invite = await accessUsableInvite(services.db, ctx.identity.realmId, key);
      const body = accountForm(ctx, { action: `/join/${encodeURIComponent(key)}/`, email: invite.email ?? undefined, emailFixed: invite.email !== null });
      await ctx.send({ title: 'Create your account', body });
    }),
  );
  router.post(
    '/join/:key',
    page(async (ctx) => {
      const key = String(ctx.req.params.key);
      const realm = { id: ctx.identity.realmId, url: ctx.identity.realmUrl };
      const input = { email: ctx.str('email') || undefined, fullName: ctx.str('full_name') ?? '' };
      if (wantsJson(ctx.req)) {
        // API clients: the account and its key; a password only if they give one.
        if (!ctx.str('full_name')) throw errors.missingArgument('full_name');
        const password = ctx.str('password');
        if (password) checkPasswordStrength(password);
        const user = await doSignUpWithInvite(services, realm, key, { ...input, passwordHash: password ? await hashPassword(password) : undefined });
        return void ctx.res.json({ result: 'success', msg: '', user_id: user.id, email: user.deliveryEmail, api_key: user.apiKey });
      }
      const invite = await accessUsableInvite(services.db, realm.id, key);
      try {
        const passwordHash = await hashPassword(readPassword(ctx));
        const user = await doSignUpWithInvite(services, realm, key, { ...input, passwordHash });
        await welcome(ctx, user);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status === 404 || err.status >= 500) throw err;
        const body = accountForm(ctx, {
          action: `/join/${encodeURIComponent(key)}/`,
          email: invite.email ?? input.email,
          emailFixed: invite.email !== null,
          fullName: input.fullName,
          errors: { [fieldOf(err)]: err.message },
        });
        await ctx.send({ title: 'Create your account', alert: err.message, body }, err.status);
      }
    }),
  );
}

function emailForm(ctx: PageCtx, email?: string, error?: string): string {
  return form('/accounts/home/', ctx.csrf(), field({ name: 'email', label: 'Email', type: 'email', value: email, autocomplete: 'email', error }), 'Sign up');
}

function confirmationPages(router: Router, services: Services, security: PageSecurity): void {
  const page = (h: (ctx: PageCtx) => Promise<void>) => pageHandler(services, security, h);
  const showHome = page(async (ctx) => {
    if (!(await openSignupAllowed(services, ctx.identity.realmId))) {
      const body = paragraph('This organization is invite-only: ask one of its administrators for an invitation.') + `<p>${link('/login/', 'Log in')}</p>`;
      return ctx.send({ title: 'Sign up', body });
    }
    await ctx.send({ title: 'Sign up', body: emailForm(ctx) + `<p>Already have an account? ${link('/login/', 'Log in')}</p>` });
  });
  router.get('/register', showHome);
  router.get('/accounts/home', showHome);
  router.post(
    '/accounts/home',
    page(async (ctx) => {
      const given = ctx.str('email') ?? '';
      try {
        const email = await doSendSignupConfirmation(services, { id: ctx.identity.realmId, url: ctx.identity.realmUrl }, given);
        ctx.res.redirect(303, `/accounts/send_confirm/?email=${encodeURIComponent(email)}`);
      } catch (err) {
        if (err instanceof AlreadyRegistered) return void ctx.res.redirect(303, `/login/?email=${encodeURIComponent(err.email)}&already_registered=1`);
        if (!(err instanceof ApiError) || wantsJson(ctx.req) || err.status >= 500) throw err;
        await ctx.send({ title: 'Sign up', alert: err.message, body: emailForm(ctx, given, err.message) }, err.status);
      }
    }),
  );
  router.get(
    '/accounts/send_confirm',
    page(async (ctx) => {
      const email = ctx.str('email') ?? 'your address';
      await ctx.send({
        title: 'Check your email',
        body: paragraph(`We have sent an email to ${email}. Click the link in it to finish creating your account.`),
      });
    }),
  );
  router.get(
    '/accounts/do_confirm/:key',
    page(async (ctx) => {
      const key = String(ctx.req.params.key);
      const email = await accessSignupConfirmation(services, ctx.identity.realmId, key);
      const hidden = `<input type="hidden" name="key" value="${encodeURIComponent(key)}">`;
      await ctx.send({ title: 'Create your account', body: accountForm(ctx, { action: '/accounts/register/', email, emailFixed: true, hidden }) });
    }),
  );
  router.post(
    '/accounts/register',
    page(async (ctx) => {
      const key = ctx.str('key') ?? '';
      const email = await accessSignupConfirmation(services, ctx.identity.realmId, key);
      const fullName = ctx.str('full_name') ?? '';
      try {
        const user = await doSignUpWithConfirmation(services, { id: ctx.identity.realmId, url: ctx.identity.realmUrl }, key, { fullName, password: readPassword(ctx) });
        await welcome(ctx, user);
      } catch (err) {
        if (!(err instanceof ApiError) || wantsJson(ctx.req) || err.status === 404 || err.status >= 500) throw err;
        const hidden = `<input type="hidden" name="key" value="${encodeURIComponent(key)}">`;
        const body = accountForm(ctx, { action: '/accounts/register/', email, emailFixed: true, fullName, hidden, errors: { [fieldOf(err)]: err.message } });
        await ctx.send({ title: 'Create your account', alert: err.message, body }, err.status);
      }
    }),
  );
}

export function signupPages(router: Router, services: Services, security: PageSecurity): void {
  joinPages(router, services, security);
  confirmationPages(router, services, security);
}
