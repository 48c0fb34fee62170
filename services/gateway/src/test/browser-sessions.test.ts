/**
 * Browser sessions at the gateway (ADR 0036), with the real users service as a process behind
 * it: a person logs in on the real login page, and with that cookie alone the web app's shell,
 * `/json/...` (CSRF checked), the long-poll and files work; logging out, another realm's host,
 * a forged cookie, a deactivation or a new password end it, never with a Basic challenge; a
 * browser opening a file with no login is sent to the login page.
 */
import { createHash } from 'node:crypto';
import vm from 'node:vm';
import request from 'supertest';
import { forgetCachedAuth } from '@chat/bus';
import { browser as newBrowser, logIn, notLoggedIn, PASSWORD, person as newPerson, SHELL_INLINE_SCRIPT, shellToken, useBrowserHarness } from './browser-harness';

/** What Chromium sends when it navigates to a page, and for an <img>. */
const NAVIGATE = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';
const IMG = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';

const h = useBrowserHarness();
const browser = () => newBrowser(h);
const person = () => newPerson(h);

describe('the shell and /json with the session of the login page', () => {
  it('lands on / after login, whose shell carries a token that /json and the logout form accept', async () => {
    const me = await person();
    const b = browser();
    expect(await logIn(b, me.email)).toBe('/');
    const shell = await b.get('/');
    expect(shell.headers['cache-control']).toBe('no-store');
    expect(shell.headers['content-type']).toMatch(/^text\/html/);
    // The shell's inline script by its hash; the app's files by 'self', never by hash.
    const inlineHash = createHash('sha256').update(SHELL_INLINE_SCRIPT).digest('base64');
    expect(shell.headers['content-security-policy']).toContain(`script-src 'self' 'sha256-${inlineHash}';`);
    expect(shell.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(shell.text).not.toContain('__CSRF_TOKEN__');
    const token = /<meta name="csrf-token" content="([^"]+)">/.exec(shell.text)![1]!;
    expect(decodeURIComponent(b.jar.get('csrftoken')!)).toBe(token);

    const mine = await b.get('/json/users/me');
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ result: 'success', user_id: me.id, email: me.email });
    expect(mine.headers['x-ratelimit-limit']).toBe('1000');

    const sent = await b.json('post', '/json/messages?topic=lunch', { content: 'hello' }, token);
    expect(sent.status).toBe(200);
    // Forwarded as its /api/v1 twin, with the same identity an API key gives.
    expect(sent.body).toMatchObject({ url: '/api/v1/messages?topic=lunch', identity: { userId: me.id, realmId: h.realm.realmId, email: me.email, role: 400, isBot: false } });

    const out = await b.form('/accounts/logout/', { csrfmiddlewaretoken: token });
    expect(out.status).toBe(303);
    const after = await b.get('/json/users/me');
    expect(after.status).toBe(401);
    expect(after.body).toEqual(notLoggedIn);
    expect(after.headers['www-authenticate']).toBeUndefined();
    // And `/` sends the browser toward the login page again.
    expect((await b.get('/')).text).toContain("location.replace('/login/?next='");
  });

  it('refuses an unsafe /json request without its X-CSRFToken, in the family\'s words', async () => {
    const me = await person();
    const b = browser();
    await logIn(b, me.email);
    const token = await shellToken(b);
    const before = h.seen.length;
    const missing = await b.json('post', '/json/messages', { content: 'x' });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({ result: 'error', msg: 'CSRF error: CSRF token missing.', code: 'CSRF_FAILED', reason: 'CSRF token missing.' });
    expect((await b.json('patch', '/json/settings', { full_name: 'x' }, `${token.slice(0, -2)}00`)).body)
      .toMatchObject({ code: 'CSRF_FAILED', msg: 'CSRF error: CSRF token incorrect.' });
    expect((await b.json('post', '/json/messages', { content: 'x' }, token, { without: ['csrftoken'] })).body)
      .toMatchObject({ code: 'CSRF_FAILED', msg: 'CSRF error: CSRF cookie not set.' });
    // Another session's token (with its cookie) is bound to that session, not this one.
    const other = browser();
    await logIn(other, me.email);
    const otherToken = await shellToken(other);
    const stolen = await request(h.gateway.url).post('/json/messages').type('form').send({ content: 'x' }).set('X-CSRFToken', otherToken)
      .set('Cookie', `sessionid=${b.jar.get('sessionid')}; csrftoken=${other.jar.get('csrftoken')}`);
    expect(stolen.body).toMatchObject({ code: 'CSRF_FAILED', msg: 'CSRF error: CSRF token incorrect.' });
    expect(h.seen.length).toBe(before);
    // Safe methods need none.
    expect((await b.get('/json/messages?anchor=newest')).status).toBe(200);
  });

  it('answers 401 without a Basic challenge to a forged cookie, another realm\'s host, and no cookie at all', async () => {
    const me = await person();
    const b = browser();
    await logIn(b, me.email);
    const sid = decodeURIComponent(b.jar.get('sessionid')!);
    for (const cookie of [`sessionid=${encodeURIComponent(`${sid.slice(0, -3)}abc`)}`, `sessionid=${sid.slice(2, sid.lastIndexOf('.'))}`, '']) {
      const res = await request(h.gateway.url).get('/json/users/me').set('Cookie', cookie);
      expect({ cookie, status: res.status, body: res.body, challenge: res.headers['www-authenticate'] }).toEqual({ cookie, status: 401, body: notLoggedIn, challenge: undefined });
    }
    const elsewhere = await b.get('/json/users/me', { host: 'other.chat.test' });
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers['www-authenticate']).toBeUndefined();
    // /json takes only the session: an API key there does not count.
    const basic = await request(h.gateway.url).get('/json/users/me').auth(me.email, me.apiKey);
    expect(basic.status).toBe(401);
    expect(basic.headers['www-authenticate']).toBeUndefined();
    expect((await b.get('/json/users/me')).status).toBe(200);
  });

  it('ends a session at once when its person is deactivated or changes their password', async () => {
    const [gone, changed] = [await person(), await person()];
    const [b1, b2] = [browser(), browser()];
    await logIn(b1, gone.email);
    await logIn(b2, changed.email);
    expect((await b1.get('/json/messages')).status).toBe(200);
    expect((await b2.get('/json/users/me')).status).toBe(200);
    // Behind every cache's back the gateway still knows the person for a few seconds; the
    // forget message the users service sends after such a change drops what it keeps.
    await h.env.db.user.update({ where: { id: gone.id }, data: { isActive: false } });
    expect((await b1.get('/json/messages')).status).toBe(200);
    await forgetCachedAuth(h.env.redis, h.env.prefix, [gone.apiKey]);
    expect((await b1.get('/json/messages')).body).toEqual(notLoggedIn);
    // Through the users service itself: the new password ends the older session.
    const change = await request(h.gateway.url).patch('/api/v1/settings').auth(changed.email, changed.apiKey).type('form')
      .send({ old_password: PASSWORD, new_password: 'another calm harbour 77' });
    expect(change.body).toMatchObject({ result: 'success' });
    expect((await b2.get('/json/users/me')).status).toBe(401);
    expect((await b2.get('/')).text).toContain("location.replace('/login/?next='");
  });
});

describe('the long-poll and /json/register with the session', () => {
  const spec = (userId: number) => ({
    userId, realmId: h.realm.realmId, eventTypes: null, narrow: [], allPublicStreams: false, clientCapabilities: {},
    applyMarkdown: true, clientGravatar: true, idleTimeoutSecs: 600, clientName: 'test',
  });

  it('registers, polls, deletes, and refuses the next poll after logout', async () => {
    const me = await person();
    const b = browser();
    await logIn(b, me.email);
    const token = await shellToken(b);
    const registered = await b.json('post', '/json/register', { event_types: '["message"]' }, token);
    expect(registered.body).toMatchObject({ url: '/api/v1/register', identity: { userId: me.id } });

    const q = await h.store.create(spec(me.id));
    const poll = b.get(`/json/events?queue_id=${q}&last_event_id=-1`);
    setTimeout(() => void h.store.append(q, [{ type: 'message', text: 'hi' }]), 100);
    expect((await poll).body).toMatchObject({ result: 'success', queue_id: q, events: [{ type: 'message', id: 0 }] });

    // A poll held while the session ends finishes its wait; the next one is refused.
    const held = b.get(`/json/events?queue_id=${q}&last_event_id=0`);
    await new Promise((r) => setTimeout(r, 100));
    await b.form('/accounts/logout/', { csrfmiddlewaretoken: token });
    expect((await held).status).toBe(200);
    const next = await b.get(`/json/events?queue_id=${q}&last_event_id=1`);
    expect(next.status).toBe(401);
    expect(next.body).toEqual(notLoggedIn);
    expect(next.headers['www-authenticate']).toBeUndefined();
  });

  it('deletes a queue with the token, not without', async () => {
    const me = await person();
    const b = browser();
    await logIn(b, me.email);
    const token = await shellToken(b);
    const q = await h.store.create(spec(me.id));
    expect((await b.json('delete', '/json/events', { queue_id: q })).status).toBe(403);
    expect((await b.json('delete', '/json/events', { queue_id: q }, token)).body).toMatchObject({ result: 'success' });
    expect((await b.get(`/json/events?queue_id=${q}&last_event_id=-1&dont_block=true`)).body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID' });
  });

  it('counts /json in the metrics by route', async () => {
    const text = await (await fetch(`${h.gateway.metricsUrl}/metrics`)).text();
    expect(text).toMatch(/http_request_duration_seconds_count\{service="gateway",method="GET",route="\/json\/users\/\*",status="200"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_count\{service="gateway",method="GET",route="\/json\/events",status="200"\} [1-9]/);
  });
});

describe('files with the session cookie', () => {
  const files = ['/user_uploads/2/ab/notes.txt', '/user_uploads/thumbnail/2/ab/photo.png/840x560.webp', '/avatar/7', '/user_avatars/2/realm/icon.png', '/user_avatars/2/emoji/images/1.png'];

  it('opens uploads, thumbnails, avatars, realm icons and emoji to the session, and asks a browser for no Basic', async () => {
    const me = await person();
    const b = browser();
    await logIn(b, me.email);
    for (const file of files) {
      const res = await b.get(file);
      expect({ file, status: res.status, text: res.text }).toEqual({ file, status: 200, text: `file for ${me.id}` });
    }
    // An <img> without a login (not sent to the login page, below): refused, with no Basic.
    const anonymous = await request(h.gateway.url).get(files[0]!).set('Accept', IMG);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBeUndefined();
    const stale = await request(h.gateway.url).get(files[0]!).set('Accept', IMG).set('Cookie', 'sessionid=s:nothing.forged');
    expect(stale.status).toBe(401);
    expect(stale.headers['www-authenticate']).toBeUndefined();
    // API clients keep HTTP Basic, challenge included.
    expect((await request(h.gateway.url).get(files[0]!).auth(me.email, me.apiKey)).text).toBe(`file for ${me.id}`);
    expect((await request(h.gateway.url).get(files[0]!).auth(me.email, 'x'.repeat(32))).headers['www-authenticate']).toBe('Basic realm="chat"');
  });
});

describe('a browser opening a file with no login', () => {
  const get = (file: string, headers: Record<string, string> = {}) => request(h.gateway.url).get(file).set(headers).redirects(0);
  const answer = (res: request.Response) => ({
    status: res.status, location: res.headers.location, vary: res.headers.vary, cache: res.headers['cache-control'], challenge: res.headers['www-authenticate'],
  });
  const toLogin = (location: string) => ({ status: 302, location, vary: 'Accept', cache: 'no-store', challenge: undefined });

  it('goes to the login page with the file as next (uploads, thumbnails, downloads), and comes back to it', async () => {
    const cases = [
      ['/user_uploads/2/ab/notes.txt', '/login/?next=/user_uploads/2/ab/notes.txt'],
      ['/user_uploads/thumbnail/2/ab/photo.png/840x560.webp', '/login/?next=/user_uploads/thumbnail/2/ab/photo.png/840x560.webp'],
      // Quoted as Django's redirect_to_login quotes the full path: `/` bare, the rest escaped.
      ['/user_uploads/download/2/ab/n%C3%B6tes%20(1).txt?x=1&y=2', '/login/?next=/user_uploads/download/2/ab/n%25C3%25B6tes%2520%281%29.txt%3Fx%3D1%26y%3D2'],
    ] as const;
    for (const [file, location] of cases) {
      expect({ file, ...answer(await get(file, { Accept: NAVIGATE })) }).toEqual({ file, ...toLogin(location) });
      expect(new URL(location, 'http://x').searchParams.get('next')).toBe(file);
    }
    const [file, location] = cases[0];
    // No Accept at all prefers neither: sent there too, as the family's test client is; so is a
    // stale cookie (a spectator, as on the family's server), and HEAD.
    expect(answer(await get(file))).toEqual(toLogin(location));
    expect(answer(await get(file, { Accept: NAVIGATE, Cookie: 'sessionid=s:nothing.forged' }))).toEqual(toLogin(location));
    expect(answer(await request(h.gateway.url).head(file).redirects(0))).toEqual(toLogin(location));
    // The login page follows next back to the file, which the new session opens.
    const me = await person();
    const b = browser();
    expect(await logIn(b, me.email, cases[2][0])).toBe(cases[2][0]);
    expect((await b.get(file)).text).toBe(`file for ${me.id}`);
  });

  it('keeps the 401 for an <img>, for an avatar not asked as a page, and for API clients', async () => {
    // An <img> prefers an image to a page: no redirect (the family answers a 403 picture).
    expect(answer(await get('/user_uploads/2/ab/photo.png', { Accept: IMG }))).toEqual({ status: 401, location: undefined, vary: 'Accept', cache: 'no-store', challenge: undefined });
    // Avatars follow the family's middleware: a page request only, next form-encoded.
    expect(answer(await get('/avatar/7', { Accept: NAVIGATE }))).toEqual(toLogin('/login/?next=%2Favatar%2F7'));
    expect(answer(await get('/avatar/7/medium?s=50', { Accept: NAVIGATE }))).toEqual(toLogin('/login/?next=%2Favatar%2F7%2Fmedium'));
    for (const accept of [IMG, '*/*']) expect((await get('/avatar/7', { Accept: accept })).status).toBe(401);
    // Realm icons and emoji are public on the family's server: a service's 401 there stays.
    expect((await get('/user_avatars/2/realm/icon.png', { Accept: NAVIGATE })).status).toBe(401);
    // An Authorization header is an API client's: its 401 envelope, challenge and all.
    const wrong = await get('/user_uploads/2/ab/notes.txt', { Accept: NAVIGATE, Authorization: `Basic ${Buffer.from(`nobody@chat.test:${'x'.repeat(32)}`).toString('base64')}` });
    expect({ status: wrong.status, code: wrong.body.code, challenge: wrong.headers['www-authenticate'] }).toEqual({ status: 401, code: 'INVALID_API_KEY', challenge: 'Basic realm="chat"' });
    // Other methods are not redirected.
    expect((await request(h.gateway.url).post('/user_uploads/2/ab/notes.txt').set('Accept', NAVIGATE).redirects(0)).status).not.toBe(302);
  });
});

describe('/ without a session', () => {
  it('hands the whole address, fragment included, to the login page, which comes back to it', async () => {
    const res = await request(h.gateway.url).get('/?welcome=1');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('<noscript><p><a href="/login/">');
    const script = /<script>([^<]+)<\/script>/.exec(res.text)![1]!;
    // The policy allows exactly this inline script.
    expect(res.headers['content-security-policy']).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    let target = '';
    const location = { pathname: '/', search: '?welcome=1', hash: '#narrow/channel/12-general/topic/lunch', replace: (to: string) => (target = to) };
    vm.runInNewContext(script, { location, encodeURIComponent });
    expect(target).toBe('/login/?next=%2F%3Fwelcome%3D1%23narrow%2Fchannel%2F12-general%2Ftopic%2Flunch');
    const me = await person();
    const b = browser();
    const next = new URL(target, 'http://x').searchParams.get('next')!;
    expect(await logIn(b, me.email, next)).toBe('/?welcome=1#narrow/channel/12-general/topic/lunch');
  });
});
