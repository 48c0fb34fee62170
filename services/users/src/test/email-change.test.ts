/**
 * Changing one's own address: PATCH /settings with `email` changes nothing but mails a link to
 * the new address; opening /accounts/confirm_new_email/<key>/ makes the change, announces it,
 * tells the old address and drops the gateways' cached authentication.
 */
import request from 'supertest';
import { ROLE } from '@chat/contracts';
import { redisKeys } from '@chat/bus';
import { identityHeaders } from '@chat/testing';
import { readMailLog, tempMailDir, type LoggedMail } from './mail-log';
import { makeUser, startHarness, type Harness } from './support';

let h: Harness;
let mailDir: string;

beforeAll(async () => {
  mailDir = tempMailDir();
  h = await startHarness({ EMAIL_LOG_DIR: mailDir, EMAIL_RETRY_BASE_MS: '50' });
});
afterAll(() => h?.close());

async function mailsTo(to: string, count = 1): Promise<LoggedMail[]> {
  for (let i = 0; i < 100; i++) {
    const mails = (await readMailLog(mailDir)).filter((m) => m.to === to);
    if (mails.length >= count) return mails;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to}`);
}

function linkIn(mail: LoggedMail): string {
  const m = /http:\/\/chat\.test(\/accounts\/confirm_new_email\/[A-Za-z0-9]+\/)/.exec(mail.text);
  if (!m) throw new Error(`no confirmation link in: ${mail.text}`);
  return m[1]!;
}

/** Opens a page as a browser does (no login needed), or as an API client asking for JSON. */
const open = (path: string, json = false) => {
  const req = request(h.app.url).get(path).set(identityHeaders(h.realm.realmId));
  return json ? req.set('Accept', 'application/json') : req;
};

async function setRealmPolicy(name: string, value: unknown) {
  const realm = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
  await h.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as Record<string, never>), [name]: value as never } } });
}

const authCacheKey = (apiKey: string) => redisKeys(h.app.services.config.REDIS_PREFIX).authCache(apiKey);

describe('PATCH /settings with email', () => {
  it('answers as the family, changes nothing yet and mails a one-day link to the new address only', async () => {
    const me = await makeUser(h, ROLE.MEMBER, { name: 'Mover One' });
    const before = await h.lastEventId();
    const res = await h.as(me).patch('/settings').send({ email: ' moved-one@elsewhere.test ' });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const row = await h.db.user.findUniqueOrThrow({ where: { id: me.id } });
    expect([row.deliveryEmail, row.email]).toEqual([me.email, me.email]);
    expect((await h.eventsSince(before)).filter((e) => e.type === 'realm_user')).toEqual([]);
    const [mail] = await mailsTo('moved-one@elsewhere.test');
    expect(mail!.subject).toBe('Verify your new email address for chat.test');
    expect(mail!.text).toContain(`Hi Mover One,`);
    expect(mail!.text).toContain(`from ${me.email} to moved-one@elsewhere.test`);
    const link = linkIn(mail!);
    const token = /confirm_new_email\/([A-Za-z0-9]+)\//.exec(link)![1]!;
    const ttl = await h.app.services.redis.ttl(redisKeys(h.app.services.config.REDIS_PREFIX).oneTimeToken('emailchange', token));
    expect(ttl).toBeGreaterThan(86_400 - 60);
    expect(ttl).toBeLessThanOrEqual(86_400);
    expect((await readMailLog(mailDir)).some((m) => m.to === me.email)).toBe(false);
  });

  it('does nothing for the address one already has', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    const res = await h.as(me).patch('/settings').send({ email: me.email });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    await new Promise((r) => setTimeout(r, 300));
    expect((await readMailLog(mailDir)).some((m) => m.to === me.email)).toBe(false);
  });

  it('refuses with the family’s words and mails nothing', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    const gone = await makeUser(h, ROLE.MEMBER);
    await h.db.user.update({ where: { id: gone.id }, data: { isActive: false } });
    const cases: Array<[string, string]> = [
      ['not-an-address', 'Invalid address.'],
      ['', 'Invalid address.'],
      [h.realm.member2.email, 'Already has an account.'],
      [h.realm.member2.email.toUpperCase(), 'Already has an account.'],
      [gone.email, 'Account has been deactivated.'],
      ['someone@mailinator.com', 'Please use your real email address.'],
    ];
    for (const [email, msg] of cases) {
      const res = await h.as(me).patch('/settings').send({ email });
      expect([email, res.status, res.body.msg]).toEqual([email, 400, msg]);
    }
    const bot = await h.as(h.realm.bot).patch('/settings').send({ email: 'bot-new@elsewhere.test' });
    expect(bot.body.msg).toBe('This endpoint does not accept bot requests.');
    await new Promise((r) => setTimeout(r, 300));
    expect((await readMailLog(mailDir)).filter((m) => m.to === 'someone@mailinator.com' || m.to === 'not-an-address')).toEqual([]);
  });

  it('follows the realm’s domains when it restricts them', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    await h.db.realmDomain.create({ data: { realmId: h.realm.realmId, domain: 'corp.test', allowSubdomains: false } });
    await setRealmPolicy('emails_restricted_to_domains', true);
    try {
      expect((await h.as(me).patch('/settings').send({ email: 'x@elsewhere.test' })).body.msg).toBe('Outside your domain.');
      expect((await h.as(me).patch('/settings').send({ email: 'x+tag@corp.test' })).body.msg).toBe('Email addresses containing + are not allowed.');
      expect((await h.as(me).patch('/settings').send({ email: 'x@corp.test' })).body).toEqual({ result: 'success', msg: '' });
    } finally {
      await setRealmPolicy('emails_restricted_to_domains', false);
      await h.db.realmDomain.deleteMany({ where: { realmId: h.realm.realmId, domain: 'corp.test' } });
    }
  });

  it('is refused to non-administrators where the realm disables email changes', async () => {
    const member = await makeUser(h, ROLE.MEMBER);
    const admin = await makeUser(h, ROLE.ADMINISTRATOR);
    await setRealmPolicy('email_changes_disabled', true);
    try {
      const refused = await h.as(member).patch('/settings').send({ email: 'member-new@elsewhere.test' });
      expect([refused.status, refused.body.msg]).toEqual([400, 'Email address changes are disabled in this organization.']);
      expect((await h.as(admin).patch('/settings').send({ email: 'admin-new@elsewhere.test' })).body.result).toBe('success');
      await mailsTo('admin-new@elsewhere.test');
    } finally {
      await setRealmPolicy('email_changes_disabled', false);
    }
  });

  it('allows two requests an hour per person, then answers 429', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    expect((await h.as(me).patch('/settings').send({ email: 'limit-1@elsewhere.test' })).status).toBe(200);
    expect((await h.as(me).patch('/settings').send({ email: 'limit-2@elsewhere.test' })).status).toBe(200);
    const third = await h.as(me).patch('/settings').send({ email: 'limit-3@elsewhere.test', full_name: 'Not Saved' });
    expect([third.status, third.body.code]).toEqual([429, 'RATE_LIMIT_HIT']);
    // Refused before the request's other changes were saved.
    expect((await h.db.user.findUniqueOrThrow({ where: { id: me.id } })).fullName).not.toBe('Not Saved');
  });
});

describe('/accounts/confirm_new_email/<key>/', () => {
  it('changes both addresses where everyone sees the real one, with the family’s events, mails the old address, and works once', async () => {
    const me = await makeUser(h, ROLE.MEMBER, { name: 'Mover Two' });
    const apiKey = (await h.db.user.findUniqueOrThrow({ where: { id: me.id } })).apiKey;
    await h.as(me).patch('/settings').send({ email: 'moved-two@elsewhere.test' }).expect(200);
    const link = linkIn((await mailsTo('moved-two@elsewhere.test'))[0]!);
    await h.app.services.redis.set(authCacheKey(apiKey), 'cached');
    const before = await h.lastEventId();

    const page = await open(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Email address changed</h1>');
    expect(page.text).toContain(`${me.email}</a> to <a href="mailto:moved-two@elsewhere.test">`);
    expect(page.text).toContain('<a href="/">');

    const row = await h.db.user.findUniqueOrThrow({ where: { id: me.id } });
    expect([row.deliveryEmail, row.email]).toEqual(['moved-two@elsewhere.test', 'moved-two@elsewhere.test']);
    const people = (await h.eventsSince(before)).filter((e) => e.type === 'realm_user').map((e) => e.event.person as Record<string, unknown>);
    expect(people.map((p) => Object.keys(p).filter((k) => k !== 'user_id').sort())).toEqual([
      ['delivery_email'],
      ['avatar_source', 'avatar_url', 'avatar_url_medium', 'avatar_version'],
      ['new_email'],
    ]);
    expect(people[0]).toEqual({ user_id: me.id, delivery_email: 'moved-two@elsewhere.test' });
    expect(people[1]!.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?/);
    expect(people[2]).toEqual({ user_id: me.id, new_email: 'moved-two@elsewhere.test' });
    expect(await h.app.services.redis.exists(authCacheKey(apiKey))).toBe(0);

    const [notice] = await mailsTo(me.email);
    expect(notice!.subject).toBe('Email changed for Test Organization');
    expect(notice!.text).toContain('was recently changed to moved-two@elsewhere.test');

    const again = await open(link);
    expect(again.status).toBe(404);
    expect(again.text).toContain('Whoops. The confirmation link has expired or been deactivated.');
  });

  it('changes only the real address where the API address is a placeholder, telling only those who may see it', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    await h.as(me).patch('/settings').send({ email_address_visibility: '3' }).expect(200);
    const placeholder = (await h.db.user.findUniqueOrThrow({ where: { id: me.id } })).email;
    expect(placeholder).toBe(`user${me.id}@chat.test`);
    const apiKey = (await h.db.user.findUniqueOrThrow({ where: { id: me.id } })).apiKey;
    await h.as(me).patch('/settings').send({ email: 'hidden-new@elsewhere.test' }).expect(200);
    const link = linkIn((await mailsTo('hidden-new@elsewhere.test'))[0]!);
    await h.app.services.redis.set(authCacheKey(apiKey), 'cached');
    const before = await h.lastEventId();
    const res = await open(link, true);
    expect(res.body).toMatchObject({ result: 'success', old_email: me.email, new_email: 'hidden-new@elsewhere.test' });
    const row = await h.db.user.findUniqueOrThrow({ where: { id: me.id } });
    expect([row.deliveryEmail, row.email]).toEqual(['hidden-new@elsewhere.test', placeholder]);
    const events = (await h.eventsSince(before)).filter((e) => e.type === 'realm_user');
    const delivery = events.find((e) => 'delivery_email' in (e.event.person as object))!;
    expect(delivery.users).toContain(me.id);
    expect(delivery.users).toContain(h.realm.admin.id);
    expect(delivery.users).not.toContain(h.realm.member2.id);
    expect(events.some((e) => 'new_email' in (e.event.person as object))).toBe(false);
    // The API address is unchanged, so the cached authentication still names the right one.
    expect(await h.app.services.redis.exists(authCacheKey(apiKey))).toBe(1);
  });

  it('only the newest request’s link works', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    await h.as(me).patch('/settings').send({ email: 'first-try@elsewhere.test' }).expect(200);
    await h.as(me).patch('/settings').send({ email: 'second-try@elsewhere.test' }).expect(200);
    const first = linkIn((await mailsTo('first-try@elsewhere.test'))[0]!);
    const second = linkIn((await mailsTo('second-try@elsewhere.test'))[0]!);
    expect((await open(first)).status).toBe(404);
    expect((await open(second)).status).toBe(200);
    expect((await h.db.user.findUniqueOrThrow({ where: { id: me.id } })).deliveryEmail).toBe('second-try@elsewhere.test');
  });

  it('checks again when opened: an address taken meanwhile is refused', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    await h.as(me).patch('/settings').send({ email: 'contested@elsewhere.test' }).expect(200);
    const link = linkIn((await mailsTo('contested@elsewhere.test'))[0]!);
    const other = await makeUser(h, ROLE.MEMBER);
    await h.db.user.update({ where: { id: other.id }, data: { deliveryEmail: 'contested@elsewhere.test' } });
    const res = await open(link, true);
    expect([res.status, res.body.msg]).toEqual([400, 'Already has an account.']);
    expect((await h.db.user.findUniqueOrThrow({ where: { id: me.id } })).deliveryEmail).toBe(me.email);
  });

  it('answers the expired-link page for a key it never issued', async () => {
    const res = await open(`/accounts/confirm_new_email/${'A'.repeat(32)}/`);
    expect(res.status).toBe(404);
    expect(res.text).toContain('Whoops. The confirmation link has expired or been deactivated.');
  });
});
