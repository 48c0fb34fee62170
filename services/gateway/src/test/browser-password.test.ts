/**
 * A password changed from the web app (PATCH /json/settings through the gateway, with the
 * session cookie) keeps the session it was changed from and ends every other session of that
 * person, as the family's server does (Django's update_session_auth_hash); from an API key,
 * every session ends. The real users service and gateway, with the gateway's in-memory copy of
 * the person both heard and not yet heard of the change.
 */
import request from 'supertest';
import { redisKeys } from '@chat/bus';
import { keepBrowserSession } from '@chat/kit';
import { browser as newBrowser, logIn, notLoggedIn, PASSWORD, person as newPerson, shellToken, useBrowserHarness } from './browser-harness';

const NEW_PASSWORD = 'another calm harbour 77';

const h = useBrowserHarness();
const browser = () => newBrowser(h);
const person = () => newPerson(h);

describe('a password changed from a browser session', () => {
  it('keeps that session and ends the person\'s others', async () => {
    const me = await person();
    const [a, b] = [browser(), browser()];
    await logIn(a, me.email);
    await logIn(b, me.email);
    const token = await shellToken(a);
    for (const s of [a, b]) expect((await s.get('/json/users/me')).status).toBe(200);
    const cookie = a.jar.get('sessionid');

    const change = await a.json('patch', '/json/settings', { old_password: PASSWORD, new_password: NEW_PASSWORD }, token);
    expect(change.body).toMatchObject({ result: 'success' });

    // The tab that changed it goes on: same cookie, same CSRF token, the API and the long-poll.
    const mine = await a.get('/json/users/me');
    expect({ status: mine.status, user: mine.body.user_id }).toEqual({ status: 200, user: me.id });
    expect(a.jar.get('sessionid')).toBe(cookie);
    expect((await a.json('post', '/json/messages', { content: 'still here' }, token)).status).toBe(200);
    expect((await a.get('/json/events?queue_id=nope&last_event_id=-1&dont_block=true')).body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
    expect((await a.get('/')).text).toContain('<meta name="csrf-token"');
    // The users service's own pages agree.
    expect((await a.get('/accounts/api_key/')).status).toBe(200);

    // The other browser is out at its next request, and sent to the login page.
    const other = await b.get('/json/users/me');
    expect({ status: other.status, body: other.body, challenge: other.headers['www-authenticate'] }).toEqual({ status: 401, body: notLoggedIn, challenge: undefined });
    expect((await b.get('/')).text).toContain("location.replace('/login/?next='");
    // Where the new password, not the old one, logs in again.
    const c = browser();
    const form = await c.get('/login/');
    const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(form.text)![1]!;
    expect((await c.form('/accounts/login/', { csrfmiddlewaretoken: csrf, username: me.email, password: PASSWORD })).status).not.toBe(303);
    expect(await logIn(c, me.email, undefined, NEW_PASSWORD)).toBe('/');
  });

  it('tells services which session a /json request came by, and an API key\'s request none', async () => {
    const me = await person();
    const a = browser();
    await logIn(a, me.email);
    const fromSession = await a.get('/json/messages');
    expect(fromSession.body.identity).toMatchObject({ userId: me.id, sessionId: a.sessionId() });
    const fromKey = await request(h.gateway.url).get('/api/v1/messages').auth(me.email, me.apiKey);
    expect(fromKey.body.identity.userId).toBe(me.id);
    expect(fromKey.body.identity).not.toHaveProperty('sessionId');
  });

  it('is right at a gateway that still keeps the person from before the change', async () => {
    const me = await person();
    const [a, b] = [browser(), browser()];
    await logIn(a, me.email);
    await logIn(b, me.email);
    // The gateway now keeps the person, with the old password's fingerprint, for seconds.
    for (const s of [a, b]) expect((await s.get('/json/users/me')).status).toBe(200);
    // What the users service does, but for the forget message (not heard yet): the new hash
    // stored, then the changing session's record given its fingerprint.
    const newHash = `scrypt$test$${Date.now()}`;
    await h.env.db.user.update({ where: { id: me.id }, data: { passwordHash: newHash } });
    expect(await keepBrowserSession(h.env.redis, redisKeys(h.env.prefix).pageSession(a.sessionId()), me.id, newHash)).toBe(true);
    // The kept row disagrees with A's record: read again, A goes on; the row now kept is the
    // new one, so B, still on the old fingerprint, is refused without waiting for the forget.
    expect((await a.get('/json/users/me')).status).toBe(200);
    expect((await b.get('/json/users/me')).status).toBe(401);
    expect((await a.get('/json/users/me')).status).toBe(200);
  });

  it('touches no session that ended or is someone else\'s', async () => {
    const [me, them] = [await person(), await person()];
    const a = browser();
    await logIn(a, me.email);
    const key = redisKeys(h.env.prefix).pageSession(a.sessionId());
    const before = await h.env.redis.get(key);
    const ttl = await h.env.redis.ttl(key);
    expect(await keepBrowserSession(h.env.redis, key, them.id, 'x')).toBe(false);
    expect(await h.env.redis.get(key)).toBe(before);
    expect(await keepBrowserSession(h.env.redis, key, me.id, 'x')).toBe(true);
    // Its lifetime stays the session's.
    expect(Math.abs((await h.env.redis.ttl(key)) - ttl)).toBeLessThanOrEqual(2);
    await h.env.redis.del(key);
    // A session logged out meanwhile is not brought back.
    expect(await keepBrowserSession(h.env.redis, key, me.id, 'x')).toBe(false);
    expect(await h.env.redis.exists(key)).toBe(0);
  });
});
