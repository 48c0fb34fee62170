import request from 'supertest';
import { ROLE } from '@chat/contracts';
import { identityHeaders, type SeededUser } from '@chat/testing';
import { doSetPassword } from '../actions/password-login';
import { verifyPassword } from '../lib/passwords';
import { makeUser, startHarness, type Harness } from './support';

// POST /fetch_api_key and PATCH /settings' password change, against the real users app, its
// database and Redis (where the failure counts live). The account limit is the default (5
// failures per 30 minutes); the address limit is lowered from 30 to 6 to spare slow hashes.

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ LOGIN_FAILURES_PER_IP: '6' });
});
afterAll(() => h?.close());

const PASSWORD = 'Yorick was a fellow of infinite jest';
let ipSeq = 0;
/** A client address of its own for each test, so address counts do not leak between tests. */
const freshIp = () => `203.0.${Math.floor(++ipSeq / 200)}.${ipSeq % 200}`;

/** POST /fetch_api_key as an anonymous client at `ip`. */
function fetchKey(params: Record<string, string>, ip = freshIp()) {
  return request(h.app.url).post('/api/v1/fetch_api_key').set(identityHeaders(h.realm.realmId, undefined, ip)).type('form').send(params);
}

async function personWithPassword(role: number = ROLE.MEMBER): Promise<SeededUser> {
  const u = await makeUser(h, role);
  await doSetPassword(h.app.services, u.id, PASSWORD);
  return u;
}

describe('POST /fetch_api_key', () => {
  it('answers the key, the login address and the id for the right pair, whatever the case of the address', async () => {
    const u = await personWithPassword();
    const res = await fetchKey({ username: u.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', api_key: u.apiKey, email: u.email, user_id: u.id });
  });

  it('answers AUTHENTICATION_FAILED alike for a wrong password, an unknown address, an account without a password and a bot', async () => {
    const u = await personWithPassword();
    const noPassword = await makeUser(h, ROLE.MEMBER);
    const bot = h.realm.bot;
    for (const params of [
      { username: u.email, password: `${PASSWORD}!` },
      { username: 'nobody-here@chat.test', password: PASSWORD },
      { username: noPassword.email, password: '' },
      { username: noPassword.email, password: PASSWORD },
      { username: bot.email, password: bot.apiKey },
    ]) {
      const res = await fetchKey(params);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ result: 'error', code: 'AUTHENTICATION_FAILED', msg: 'Your username or password is incorrect' });
    }
  });

  it('names the missing argument, and refuses a username that is not an address', async () => {
    const noUser = await fetchKey({ password: PASSWORD });
    expect(noUser.status).toBe(400);
    expect(noUser.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'username' argument", var_name: 'username' });
    const noPassword = await fetchKey({ username: h.realm.member.email });
    expect(noPassword.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'password' argument", var_name: 'password' });
    const notAnAddress = await fetchKey({ username: 'hamlet', password: PASSWORD });
    expect(notAnAddress.status).toBe(400);
    expect(notAnAddress.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Enter a valid email address.' });
  });

  it('tells a deactivated person so', async () => {
    const u = await personWithPassword();
    await h.db.user.update({ where: { id: u.id }, data: { isActive: false } });
    const res = await fetchKey({ username: u.email, password: PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ result: 'error', code: 'USER_DEACTIVATED', msg: 'Account is deactivated' });
  });

  it('tells the people of a deactivated organization so', async () => {
    const u = await personWithPassword();
    await h.db.realm.update({ where: { id: h.realm.realmId }, data: { deactivated: true } });
    try {
      const res = await fetchKey({ username: u.email, password: PASSWORD });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ result: 'error', code: 'REALM_DEACTIVATED', msg: 'This organization has been deactivated' });
    } finally {
      await h.db.realm.update({ where: { id: h.realm.realmId }, data: { deactivated: false } });
    }
  });

  it('limits forty wrong passwords in a row for one account, with Retry-After, even from many addresses', async () => {
    const u = await personWithPassword();
    const statuses: number[] = [];
    let limited: request.Response | undefined;
    for (let i = 0; i < 40; i++) {
      const res = await fetchKey({ username: u.email, password: `guess number ${i}` });
      statuses.push(res.status);
      limited ??= res.status === 429 ? res : undefined;
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual(Array(35).fill(429));
    expect(limited!.body).toEqual({ result: 'error', code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit', 'retry-after': expect.any(Number) });
    const retryAfter = Number(limited!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(1700);
    expect(retryAfter).toBeLessThanOrEqual(1800);
    // The right password waits too: the guesser cannot tell it from a wrong one.
    const right = await fetchKey({ username: u.email, password: PASSWORD });
    expect(right.status).toBe(429);
    // Another account is not affected.
    const other = await personWithPassword();
    expect((await fetchKey({ username: other.email, password: PASSWORD })).status).toBe(200);
  });

  it('limits one address guessing at many accounts', async () => {
    const ip = freshIp();
    for (let i = 0; i < 6; i++) {
      const res = await fetchKey({ username: `someone${i}@chat.test`, password: 'a guess' }, ip);
      expect(res.status).toBe(401);
    }
    const u = await personWithPassword();
    const limited = await fetchKey({ username: u.email, password: PASSWORD }, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(500);
    // The same person from another address is fine.
    expect((await fetchKey({ username: u.email, password: PASSWORD })).status).toBe(200);
  });

  it("forgets an account's failures once its owner logs in", async () => {
    const u = await personWithPassword();
    for (let i = 0; i < 4; i++) expect((await fetchKey({ username: u.email, password: 'typo' })).status).toBe(401);
    expect((await fetchKey({ username: u.email, password: PASSWORD })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await fetchKey({ username: u.email, password: 'typo' })).status).toBe(401);
    expect((await fetchKey({ username: u.email, password: PASSWORD })).status).toBe(200);
  });

  it('keeps the counts in Redis under the service prefix', async () => {
    const keys = await h.env.redis.keys(`${h.env.prefix}loginfail:password:*`);
    expect(keys.length).toBeGreaterThan(0);
  });
});

describe('PATCH /settings with a new password', () => {
  const patch = (u: SeededUser, params: Record<string, string>, ip = freshIp()) =>
    request(h.app.url).patch('/api/v1/settings').set(identityHeaders(h.realm.realmId, u, ip)).type('form').send(params);

  it('changes the password after the old one is proven, and keeps the API key', async () => {
    const u = await personWithPassword();
    const next = 'Alas poor Yorick I knew him Horatio';
    const res = await patch(u, { old_password: PASSWORD, new_password: next });
    expect(res.body).toMatchObject({ result: 'success' });
    const row = await h.db.user.findUniqueOrThrow({ where: { id: u.id } });
    expect(await verifyPassword(next, row.passwordHash)).toBe(true);
    expect(row.apiKey).toBe(u.apiKey);
    expect((await fetchKey({ username: u.email, password: next })).status).toBe(200);
    expect((await fetchKey({ username: u.email, password: PASSWORD })).status).toBe(401);
  });

  it('refuses a wrong or missing old password and a weak new one, changing nothing', async () => {
    const u = await personWithPassword();
    const before = (await h.db.user.findUniqueOrThrow({ where: { id: u.id } })).passwordHash;
    const wrong = await patch(u, { old_password: 'not it', new_password: 'Something quite long and new 42', full_name: 'Renamed' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Wrong password!' });
    const missing = await patch(u, { new_password: 'Something quite long and new 42' });
    expect(missing.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Wrong password!' });
    const weak = await patch(u, { old_password: PASSWORD, new_password: 'password1' });
    expect(weak.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'New password is too weak!' });
    const row = await h.db.user.findUniqueOrThrow({ where: { id: u.id } });
    expect(row.passwordHash).toBe(before);
    expect(row.fullName).not.toBe('Renamed');
  });

  it('keeps the old password when another setting of the same request is refused', async () => {
    const u = await personWithPassword();
    const before = (await h.db.user.findUniqueOrThrow({ where: { id: u.id } })).passwordHash;
    const res = await patch(u, { old_password: PASSWORD, new_password: 'Something quite long and new 42', timezone: 'Mars/Olympus_Mons' });
    expect(res.body).toMatchObject({ result: 'error', msg: 'Not a recognized time zone' });
    expect((await h.db.user.findUniqueOrThrow({ where: { id: u.id } })).passwordHash).toBe(before);
  });

  it('tells someone guessing their own old password to wait', async () => {
    const u = await personWithPassword();
    for (let i = 0; i < 5; i++) expect((await patch(u, { old_password: `try ${i}`, new_password: 'Another long new password 77' })).body.msg).toBe('Wrong password!');
    const res = await patch(u, { old_password: PASSWORD, new_password: 'Another long new password 77' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/^You're making too many attempts! Try again in \d+ seconds\.$/);
  });
});
