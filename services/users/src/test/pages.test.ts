/**
 * The account pages through the real app, one cookie jar per simulated browser: CSRF refusal,
 * login and its failures, the app flows' pads, sign-up, the API key page, and password-reset
 * links that are bad, expired or already used.
 */
import { createDecipheriv } from 'node:crypto';
import request from 'supertest';
import { IDENTITY_HEADER } from '@chat/contracts';
import { signIdentity } from '@chat/kit';
import { identityHeaders, TEST_INTERNAL_SECRET } from '@chat/testing';
import { doSetPassword } from '../actions/password-login';
import { otpDecryptApiKey } from '../lib/app-login';
import { readMailLog, tempMailDir, type LoggedMail } from './mail-log';
import { startHarness, type Harness } from './support';

let h: Harness;
let mailDir: string;
const PASSWORD = 'correct horse battery staple';
const PAD = 'a1'.repeat(32);

beforeAll(async () => {
  mailDir = tempMailDir();
  h = await startHarness({ EMAIL_LOG_DIR: mailDir, EMAIL_RETRY_BASE_MS: '50' });
  await doSetPassword(h.app.services, h.realm.member.id, PASSWORD);
});
afterAll(() => h?.close());

/** A browser: keeps cookies, and the CSRF token of the last form it was shown. */
function browser() {
  const agent = request.agent(h.app.url);
  let token = '';
  const remember = (res: request.Response) => {
    const m = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(res.text ?? '');
    if (m) token = m[1]!;
    return res;
  };
  const headers = () => identityHeaders(h.realm.realmId);
  return {
    get: async (path: string) => remember(await agent.get(path).set(headers())),
    post: async (path: string, form: Record<string, string>, opts: { csrf?: boolean } = {}) =>
      remember(await agent.post(path).set(headers()).type('form').send(opts.csrf === false ? form : { csrfmiddlewaretoken: token, ...form })),
    postJson: (path: string, form: Record<string, string>) => agent.post(path).set(headers()).set('Accept', 'application/json').type('form').send(form),
  };
}

async function mailTo(to: string, nth = 1): Promise<LoggedMail> {
  for (let i = 0; i < 100; i++) {
    const mails = (await readMailLog(mailDir)).filter((m) => m.to === to);
    if (mails.length >= nth) return mails[nth - 1]!;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to}`);
}

describe('security of the pages', () => {
  it('serves an accessible login form with secure cookies and headers', async () => {
    const res = await browser().get('/login/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<html lang="en">');
    expect(res.text).toContain('<label for="id_username">Email</label>');
    expect(res.text).toContain('<h1>Log in to Test Organization</h1>');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("form-action 'self' zulip:");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(cookies.find((c) => c.startsWith('sessionid='))).toMatch(/HttpOnly.*SameSite=Lax/);
    expect(cookies.find((c) => c.startsWith('csrftoken='))).toMatch(/HttpOnly.*SameSite=Lax/);
    // The realm is http here: no Secure flag, or the browser would drop the cookie.
    expect(cookies.join(';')).not.toMatch(/Secure/);
  });

  it('marks cookies Secure and asks for HSTS on an https realm', async () => {
    const https = { [IDENTITY_HEADER]: signIdentity(TEST_INTERNAL_SECRET, { realmId: h.realm.realmId, realmUrl: 'https://chat.test' }) };
    const res = await request(h.app.url).get('/login/').set(https).set('X-Forwarded-Proto', 'https');
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(cookies.find((c) => c.startsWith('sessionid='))).toMatch(/Secure/);
    expect(cookies.find((c) => c.startsWith('csrftoken='))).toMatch(/Secure/);
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('refuses a form posted without its CSRF token, as a page and as an envelope', async () => {
    const b = browser();
    await b.get('/login/');
    const page = await b.post('/accounts/login/', { username: h.realm.member.email, password: PASSWORD }, { csrf: false });
    expect(page.status).toBe(403);
    expect(page.text).toContain('CSRF verification failed');
    const json = await b.postJson('/accounts/login/', { username: h.realm.member.email, password: PASSWORD, csrfmiddlewaretoken: 'forged.token' });
    expect(json.status).toBe(403);
    expect(json.body).toMatchObject({ result: 'error', code: 'CSRF_FAILED' });
    // A token from another browser's session does not do either.
    const other = browser();
    await other.get('/login/');
    const stolen = /csrftoken=([^;]+)/.exec(([] as string[]).concat((await request(h.app.url).get('/login/').set(identityHeaders(h.realm.realmId))).headers['set-cookie'] ?? []).join(';'))![1]!;
    expect((await b.post('/accounts/login/', { username: h.realm.member.email, password: PASSWORD, csrfmiddlewaretoken: decodeURIComponent(stolen) }, { csrf: false })).status).toBe(403);
  });
});

describe('login', () => {
  it('says so on the page when the password is wrong, tied to the field', async () => {
    const b = browser();
    await b.get('/login/');
    const res = await b.post('/accounts/login/', { username: h.realm.member.email, password: 'wrong password' });
    expect(res.status).toBe(401);
    expect(res.text).toContain('Your username or password is incorrect');
    expect(res.text).toContain('aria-invalid="true"');
    expect(res.text).toContain('aria-describedby="id_username_error"');
    expect(res.text).toContain(`value="${h.realm.member.email}"`);
  });

  it('logs in, shows the API key and zuliprc, and logs out', async () => {
    const b = browser();
    expect((await b.get('/accounts/api_key/')).headers.location).toBe('/login/?next=%2Faccounts%2Fapi_key%2F');
    await b.get('/login/?next=/accounts/api_key/');
    const res = await b.post('/accounts/login/', { username: h.realm.member.email.toUpperCase(), password: PASSWORD, next: '/accounts/api_key/' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/accounts/api_key/');
    const page = await b.get('/accounts/api_key/');
    expect(page.text).toContain(`value="${h.realm.member.apiKey}"`);
    const file = await b.get('/accounts/api_key/zuliprc');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="?zuliprc"?$/);
    expect(file.text).toBe(`[api]\nemail=${h.realm.member.email}\nkey=${h.realm.member.apiKey}\nsite=http://chat.test\n`);
    expect((await b.get('/login/')).headers.location).toBe('/');
    const out = await b.post('/accounts/logout/', {});
    expect(out.headers.location).toBe('/login/');
    expect((await b.get('/accounts/api_key/')).headers.location).toBe('/login/?next=%2Faccounts%2Fapi_key%2F');
    // `/` is the web app's now, which the gateway serves.
    expect((await b.get('/')).status).toBe(404);
    const getOut = await b.get('/accounts/logout/');
    expect(getOut.status).toBe(405);
    expect(getOut.text).toContain('Method Not Allowed');
    const missing = await b.get('/accounts/password/nothing-here/');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<h1>Page not found</h1>');
  });

  it('limits guessing on the page as on the API, with Retry-After', async () => {
    await doSetPassword(h.app.services, h.realm.owner.id, PASSWORD);
    const b = browser();
    await b.get('/login/');
    let res = await b.post('/accounts/login/', { username: h.realm.owner.email, password: 'guess 0' });
    for (let i = 1; i < 10 && res.status === 401; i++) res = await b.post('/accounts/login/', { username: h.realm.owner.email, password: `guess ${i}` });
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.text).toContain('role="alert"');
  });

  it('never redirects to another site after login', async () => {
    const b = browser();
    await b.get('/login/');
    const res = await b.post('/accounts/login/', { username: h.realm.member.email, password: PASSWORD, next: '//evil.example/' });
    expect(res.headers.location).toBe('/');
    for (const next of ['/\t/evil.example/', '/\\evil.example/', 'https://evil.example/']) {
      expect((await b.get(`/login/?next=${encodeURIComponent(next)}`)).headers.location).toBe('/');
    }
  });

  it('comes back to a deep link of the web app, its fragment included', async () => {
    const deep = '/#narrow/channel/12-general/topic/lunch';
    const b = browser();
    const form = await b.get(`/login/?next=${encodeURIComponent(deep)}`);
    expect(form.text).toContain(`name="next" value="${deep}"`);
    const res = await b.post('/accounts/login/', { username: h.realm.member.email, password: PASSWORD, next: deep });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(deep);
    // Already logged in: straight there.
    expect((await b.get(`/login/?next=${encodeURIComponent('/?welcome=1#narrow/dm/9')}`)).headers.location).toBe('/?welcome=1#narrow/dm/9');
  });
});

describe('app flows', () => {
  it('validates the pads as the family does', async () => {
    const b = browser();
    const short = await b.get('/login/?mobile_flow_otp=abc');
    expect(short.status).toBe(400);
    expect(short.text).toContain('Invalid OTP');
    expect((await b.get(`/login/?mobile_flow_otp=${'g'.repeat(64)}`)).text).toContain('Invalid OTP');
    const both = await b.get(`/login/?mobile_flow_otp=${PAD}&desktop_flow_otp=${PAD}`);
    expect(both.text).toContain("Can&#39;t use both mobile_flow_otp and desktop_flow_otp together.");
    const json = await request(h.app.url).get('/login/?desktop_flow_otp=12').set(identityHeaders(h.realm.realmId)).set('Accept', 'application/json');
    expect(json.body).toEqual({ result: 'error', msg: 'Invalid OTP', code: 'BAD_REQUEST' });
  });

  it('sends the mobile app its key under the pad', async () => {
    const b = browser();
    const form = await b.get(`/login/?mobile_flow_otp=${PAD}`);
    expect(form.text).toContain(`name="mobile_flow_otp" value="${PAD}"`);
    const res = await b.post('/accounts/login/', { username: h.realm.member.email, password: PASSWORD, mobile_flow_otp: PAD });
    expect(res.status).toBe(302);
    const url = new URL(res.headers.location!);
    expect(url.protocol).toBe('zulip:');
    expect(url.host + url.pathname).toBe('login');
    expect(url.searchParams.get('realm')).toBe('http://chat.test');
    expect(url.searchParams.get('email')).toBe(h.realm.member.email);
    expect(url.searchParams.get('user_id')).toBe(String(h.realm.member.id));
    const encrypted = url.searchParams.get('otp_encrypted_api_key')!;
    expect(encrypted).toMatch(/^[0-9a-f]{64}$/);
    expect(otpDecryptApiKey(encrypted, PAD)).toBe(h.realm.member.apiKey);
  });

  it('gives the desktop app a sealed login token, good once', async () => {
    const b = browser();
    await b.get(`/accounts/login/?desktop_flow_otp=${PAD}`);
    const res = await b.post('/accounts/login/', { username: h.realm.member.email, password: PASSWORD, desktop_flow_otp: PAD });
    expect(res.status).toBe(200);
    const data = Buffer.from(/id="desktop-data" type="text" readonly value="([0-9a-f]+)"/.exec(res.text)![1]!, 'hex');
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(PAD, 'hex'), data.subarray(0, 12));
    decipher.setAuthTag(data.subarray(data.length - 16));
    const token = Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]).toString();
    const app = browser();
    const redeemed = await app.get(`/accounts/login/subdomain/${token}`);
    expect(redeemed.headers.location).toBe('/');
    expect((await app.get('/accounts/api_key/')).text).toContain(h.realm.member.apiKey);
    const again = await browser().get(`/accounts/login/subdomain/${token}`);
    expect(again.status).toBe(400);
    expect(again.text).toContain('invalid or has expired');
  });
});

describe('sign-up', () => {
  it('signs up from an invitation with a password, refusing a weak one first', async () => {
    const link = (await h.as(h.realm.owner).post('/invites/multiuse').send({})).body.invite_link as string;
    const path = new URL(link).pathname;
    const b = browser();
    const form = await b.get(path);
    expect(form.text).toContain('<label for="id_password">Password</label>');
    const weak = await b.post(path, { email: 'pages-new@chat.test', full_name: 'Page Newcomer', password: 'abc' });
    expect(weak.status).toBe(400);
    expect(weak.text).toContain('The password is too weak.');
    expect(weak.text).toContain('id="id_password_error"');
    expect(await h.db.user.findFirst({ where: { deliveryEmail: 'pages-new@chat.test' } })).toBeNull();
    const done = await b.post(path, { email: 'pages-new@chat.test', full_name: 'Page Newcomer', password: PASSWORD });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/?welcome=1');
    expect((await b.get('/accounts/api_key/')).text).toContain('Logged in as pages-new@chat.test');
    const b2 = browser();
    await b2.get('/login/');
    expect((await b2.post('/accounts/login/', { username: 'pages-new@chat.test', password: PASSWORD })).status).toBe(303);
  });

  it('signs up by confirming an address where the realm lets anyone join', async () => {
    const b = browser();
    expect((await b.get('/register/')).text).toContain('invite-only');
    await b.get('/login/');
    const refused = await b.post('/accounts/home/', { email: 'open@chat.test' });
    expect(refused.text).toContain('Please request an invite for open@chat.test from the organization administrator.');
    const realm = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    const channel = await h.db.stream.create({ data: { realmId: realm.id, name: 'welcome', nameKey: 'welcome', inviteOnly: false } });
    await h.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as object), invite_required: false, default_stream_ids: [channel.id] } } });
    try {
      await b.get('/accounts/home/');
      const sent = await b.post('/accounts/home/', { email: 'open@chat.test' });
      expect(sent.headers.location).toBe('/accounts/send_confirm/?email=open%40chat.test');
      const taken = await b.post('/accounts/home/', { email: h.realm.member.email });
      expect(taken.headers.location).toContain('already_registered=1');
      const mail = await mailTo('open@chat.test');
      const confirm = new URL(/http:\/\/chat\.test\/accounts\/do_confirm\/[A-Za-z0-9]+/.exec(mail.text)![0]).pathname;
      expect((await b.get(confirm)).text).toContain('value="open@chat.test" readonly');
      const key = confirm.split('/').pop()!;
      const done = await b.post('/accounts/register/', { key, full_name: 'Open Joiner', password: PASSWORD });
      expect(done.headers.location).toBe('/?welcome=1');
      const joined = await h.db.user.findFirstOrThrow({ where: { deliveryEmail: 'open@chat.test', isActive: true } });
      const subs = await h.db.subscription.findMany({ where: { userId: joined.id } });
      expect(subs.map((x) => x.streamId)).toEqual([channel.id]);
      expect((await b.get(confirm)).status).toBe(404);
    } finally {
      await h.db.realm.update({ where: { id: realm.id }, data: { settings: realm.settings as object } });
    }
  });
});

describe('password reset', () => {
  const resetPathIn = (mail: LoggedMail) => new URL(/http:\/\/chat\.test\/accounts\/password\/reset\/[^\s/]+\/[A-Za-z0-9]+\//.exec(mail.text)![0]).pathname;

  it('answers the same for an unknown address, and mails it a note instead of a link', async () => {
    const b = browser();
    await b.get('/accounts/password/reset/');
    const res = await b.post('/accounts/password/reset/', { email: 'nobody-here@chat.test' });
    expect(res.headers.location).toBe('/accounts/password/reset/done/');
    expect((await mailTo('nobody-here@chat.test')).text).toContain('there is no active account');
  });

  it('resets through a single-use link, refusing mismatched, weak, bad and used links', async () => {
    const user = h.realm.moderator;
    await doSetPassword(h.app.services, user.id, PASSWORD);
    const b = browser();
    await b.get('/accounts/password/reset/');
    expect((await b.post('/accounts/password/reset/', { email: user.email })).headers.location).toBe('/accounts/password/reset/done/');
    const path = resetPathIn(await mailTo(user.email));
    const form = await b.get(path);
    expect(form.text).toContain('<label for="id_new_password1">New password</label>');
    expect((await b.post(path, { new_password1: 'a new passphrase 77', new_password2: 'different' })).text).toContain("didn&#39;t match");
    expect((await b.post(path, { new_password1: 'abc', new_password2: 'abc' })).text).toContain('The password is too weak.');
    const [, , , , uid, token] = path.split('/');
    expect((await b.get(`/accounts/password/reset/${uid}/${'x'.repeat(32)}/`)).status).toBe(404);
    expect((await b.get(`/accounts/password/reset/MQ/${token}/`)).status).toBe(404);
    expect((await b.get(`/accounts/password/reset/${uid}/short/`)).text).toContain('The password reset link is invalid');
    const done = await b.post(path, { new_password1: 'a new passphrase 77', new_password2: 'a new passphrase 77' });
    expect(done.headers.location).toBe('/accounts/password/done/');
    const used = await b.get(path);
    expect(used.status).toBe(404);
    expect(used.text).toContain('already been used or has expired');
    const login = browser();
    await login.get('/login/');
    expect((await login.post('/accounts/login/', { username: user.email, password: 'a new passphrase 77' })).status).toBe(303);
  });

  it('refuses an expired link, and one issued before the password changed', async () => {
    const user = h.realm.admin;
    const b = browser();
    await b.get('/accounts/password/reset/');
    await b.post('/accounts/password/reset/', { email: user.email });
    await b.post('/accounts/password/reset/', { email: user.email });
    const first = resetPathIn(await mailTo(user.email, 1));
    const second = resetPathIn(await mailTo(user.email, 2));
    const keys = await h.app.services.redis.keys(`${h.app.services.config.REDIS_PREFIX}token:reset:${first.split('/')[5]}`);
    await h.app.services.redis.del(...keys);
    expect((await b.get(first)).status).toBe(404);
    await doSetPassword(h.app.services, user.id, 'another fine passphrase 12');
    expect((await b.get(second)).status).toBe(404);
    // The third request within the hour is limited.
    const limited = await b.post('/accounts/password/reset/', { email: user.email });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
  });
});
