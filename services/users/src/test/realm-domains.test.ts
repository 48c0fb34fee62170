/**
 * The organization's email domains: GET/POST /realm/domains, PATCH/DELETE /realm/domains/{domain},
 * their realm_domains events, and emails_restricted_to_domains enforced where accounts and
 * invitations are made (POST /users, email invitations, sign-up through an invitation link).
 */
import request from 'supertest';
import { identityHeaders } from '@chat/testing';
import { ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const owner = () => h.as(h.realm.owner);
const add = (domain: string, allowSubdomains = false) => owner().post('/realm/domains').send({ domain, allow_subdomains: String(allowSubdomains) });
const list = async () => (await h.as(h.realm.member).get('/realm/domains').expect(200)).body.domains;

async function clearDomains() {
  await h.db.realmDomain.deleteMany({ where: { realmId: h.realm.realmId } });
  await h.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: {} } });
}

async function restrict(on: boolean) {
  await owner().patch('/realm').send({ emails_restricted_to_domains: String(on) }).expect(200);
}

describe('managing domains', () => {
  beforeEach(clearDomains);

  it('adds a domain (trimmed, lower-cased), answers [id, domain], lists it and tells everyone', async () => {
    const before = await h.lastEventId();
    const res = await add('  Example.COM ', true);
    expect(res.body).toEqual({ result: 'success', msg: '', new_domain: [expect.any(Number), 'example.com'] });
    const row = await h.db.realmDomain.findFirstOrThrow({ where: { realmId: h.realm.realmId } });
    expect(res.body.new_domain[0]).toBe(row.id);
    await add('acme.org').expect(200);
    expect(await list()).toEqual([
      { domain: 'acme.org', allow_subdomains: false },
      { domain: 'example.com', allow_subdomains: true },
    ]);
    const events = await h.eventsSince(before);
    expect(events.map((e) => e.event)).toEqual([
      { type: 'realm_domains', op: 'add', realm_domain: { domain: 'example.com', allow_subdomains: true } },
      { type: 'realm_domains', op: 'add', realm_domain: { domain: 'acme.org', allow_subdomains: false } },
    ]);
    const everyone = (await h.db.user.findMany({ where: { realmId: h.realm.realmId, isActive: true }, select: { id: true }, orderBy: { id: 'asc' } })).map((u) => u.id);
    expect(events[0]!.users).toEqual(everyone);
  });

  it('refuses a domain already there and invalid domains with the reference texts', async () => {
    await add('example.com').expect(200);
    expect((await add('EXAMPLE.com')).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'The domain example.com is already a part of your organization.' });
    const cases: Array<[string, string]> = [
      ['', "Invalid domain: Domain can't be empty."],
      ['localhost', 'Invalid domain: Domain must have at least one dot (.)'],
      ['.example.org', 'Invalid domain: Domain cannot start or end with a dot (.)'],
      ['example.org.', 'Invalid domain: Domain cannot start or end with a dot (.)'],
      ['a..example.org', "Invalid domain: Consecutive '.' are not allowed."],
      ['-a.example.org', "Invalid domain: Subdomains cannot start or end with a '-'."],
      ['a_b.example.org', "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."],
      [`${'a'.repeat(250)}.example.org`, 'Invalid domain: Domain is too long'],
    ];
    for (const [domain, msg] of cases) expect((await add(domain)).body).toMatchObject({ result: 'error', msg });
    expect((await owner().post('/realm/domains').send({ domain: 'x.org' })).body.msg).toBe("Missing 'allow_subdomains' argument");
    expect((await owner().post('/realm/domains').send({ allow_subdomains: 'true' })).body.msg).toBe("Missing 'domain' argument");
    expect(await list()).toEqual([{ domain: 'example.com', allow_subdomains: false }]);
  });

  it('changes allow_subdomains and tells everyone', async () => {
    await add('example.com').expect(200);
    const before = await h.lastEventId();
    expect((await owner().patch('/realm/domains/example.com').send({ allow_subdomains: 'true' })).body).toEqual({ result: 'success', msg: '' });
    expect(await list()).toEqual([{ domain: 'example.com', allow_subdomains: true }]);
    expect((await h.eventsSince(before)).map((e) => e.event)).toEqual([
      { type: 'realm_domains', op: 'change', realm_domain: { domain: 'example.com', allow_subdomains: true } },
    ]);
    expect((await owner().patch('/realm/domains/nowhere.org').send({ allow_subdomains: 'true' })).body).toEqual({
      result: 'error', code: 'BAD_REQUEST', msg: 'No entry found for domain nowhere.org.',
    });
  });

  it('removes a domain; removing the last one lifts emails_restricted_to_domains', async () => {
    await add('example.com').expect(200);
    await add('acme.org').expect(200);
    await restrict(true);
    let before = await h.lastEventId();
    expect((await owner().delete('/realm/domains/acme.org')).body).toEqual({ result: 'success', msg: '' });
    expect((await h.eventsSince(before)).map((e) => e.event)).toEqual([{ type: 'realm_domains', op: 'remove', domain: 'acme.org' }]);
    before = await h.lastEventId();
    await owner().delete('/realm/domains/example.com').expect(200);
    expect((await h.eventsSince(before)).map((e) => e.event)).toEqual([
      { type: 'realm', op: 'update', property: 'emails_restricted_to_domains', value: false },
      { type: 'realm_domains', op: 'remove', domain: 'example.com' },
    ]);
    const realm = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    expect((realm.settings as Record<string, unknown>).emails_restricted_to_domains).toBe(false);
    expect(await list()).toEqual([]);
    expect((await owner().delete('/realm/domains/example.com')).body.msg).toBe('No entry found for domain example.com.');
  });

  it.each(ROLE_NAMES)('only owners change domains; everyone reads them (as the %s)', async (name) => {
    await add('example.com').expect(200);
    const as = h.as(userOf(h.realm, name));
    expect((await as.get('/realm/domains')).body).toEqual({ result: 'success', msg: '', domains: [{ domain: 'example.com', allow_subdomains: false }] });
    const results = [
      await as.post('/realm/domains').send({ domain: `${name}.example.org`, allow_subdomains: 'false' }),
      await as.patch('/realm/domains/example.com').send({ allow_subdomains: 'true' }),
      await as.delete('/realm/domains/example.com'),
    ];
    for (const res of results) {
      if (name === 'owner') expect(res.body.result).toBe('success');
      else expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
    }
    if (name !== 'owner') expect(await list()).toEqual([{ domain: 'example.com', allow_subdomains: false }]);
  });
});

describe('emails_restricted_to_domains', () => {
  let n = 0;
  beforeAll(async () => {
    await clearDomains();
    await add('example.com').expect(200);
    await add('corp.test', true).expect(200);
  });

  const createUser = (email: string) => h.as(h.realm.admin).post('/users').send({ email, password: 'tall-quiet-harbor-42', full_name: `Person ${++n}` });
  const invite = (emails: string) => h.as(h.realm.admin).post('/invites').send({ stream_ids: '[]', invitee_emails: emails });

  it('is not enforced while the setting is off', async () => {
    await restrict(false);
    expect((await createUser(`free${n}@elsewhere.org`)).body.result).toBe('success');
  });

  it('POST /users takes the domains, their subdomains where allowed, and refuses the rest', async () => {
    await restrict(true);
    expect((await createUser(`a${n}@example.com`)).body.result).toBe('success');
    expect((await createUser(`b${n}@EXAMPLE.com`)).body.result).toBe('success');
    expect((await createUser(`c${n}@deep.eng.corp.test`)).body.result).toBe('success');
    expect((await createUser(`d@sub.example.com`)).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: "Email 'd@sub.example.com' not allowed in this organization" });
    expect((await createUser(`e@elsewhere.org`)).body.msg).toBe("Email 'e@elsewhere.org' not allowed in this organization");
    expect((await createUser(`f+tag@example.com`)).body.msg).toBe('Email addresses containing + are not allowed.');
    expect(await h.db.user.count({ where: { deliveryEmail: { in: ['d@sub.example.com', 'e@elsewhere.org', 'f+tag@example.com'] } } })).toBe(0);
  });

  it('POST /users refuses throwaway mailboxes when unrestricted and disposable addresses are disallowed', async () => {
    await restrict(false);
    expect((await createUser('g@mailinator.com')).body.msg).toBe('Disposable email addresses are not allowed in this organization');
    await owner().patch('/realm').send({ disallow_disposable_email_addresses: 'false' }).expect(200);
    expect((await createUser('g@mailinator.com')).body.result).toBe('success');
    await owner().patch('/realm').send({ disallow_disposable_email_addresses: 'true' }).expect(200);
  });

  it('email invitations name each address outside the domains', async () => {
    await restrict(true);
    const res = await invite(`ok${n}@example.com, out@elsewhere.org, plus+x@example.com`);
    expect(res.body).toMatchObject({
      result: 'error',
      msg: "Some emails did not validate, so we didn't send any invitations.",
      errors: [
        ['out@elsewhere.org', 'Outside your domain.', false],
        ['plus+x@example.com', 'Email addresses containing + are not allowed.', false],
      ],
    });
    expect(await h.db.invite.count({ where: { realmId: h.realm.realmId, email: { not: null } } })).toBe(0);
    expect((await invite(`ok${++n}@eng.corp.test`)).body.result).toBe('success');
  });

  it('sign-up through an invitation link refuses addresses outside the domains', async () => {
    await restrict(true);
    const link = (await h.as(h.realm.admin).post('/invites/multiuse').expect(200)).body.invite_link as string;
    const key = /\/join\/([a-z0-9]+)\/$/.exec(link)![1]!;
    const join = (email: string) =>
      request(h.app.url).post(`/join/${key}/`).set(identityHeaders(h.realm.realmId)).set('Accept', 'application/json').type('form').send({ email, full_name: 'Newcomer' });
    expect((await join('stranger@elsewhere.org')).body).toMatchObject({
      result: 'error',
      msg: 'Your email address, stranger@elsewhere.org, is not in one of the domains that are allowed to register for accounts in this organization.',
    });
    expect((await join('x+y@example.com')).body.msg).toBe('Email addresses containing + are not allowed in this organization.');
    expect(await h.db.user.count({ where: { deliveryEmail: 'stranger@elsewhere.org' } })).toBe(0);
    expect((await join(`joiner${++n}@example.com`)).body.result).toBe('success');
  });
});
