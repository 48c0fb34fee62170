import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { identityHeaders } from '@chat/testing';
import { start } from '../app';
import { ROLE_NAMES, startHarness, userOf, type Harness } from './support';

/**
 * A BigBlueButton server as far as its create call goes: it checks the checksum the way
 * BigBlueButton does (over the raw query string without it) and remembers each call.
 */
const SECRET = 'bbb-shared-secret-for-tests';
let bbb: Server;
let bbbUrl: string;
const creates: URLSearchParams[] = [];
let answer: 'ok' | 'fail' | 'http500' = 'ok';

function checksumOk(call: string, rawQuery: string): boolean {
  const i = rawQuery.lastIndexOf('&checksum=');
  const query = rawQuery.slice(0, i);
  return createHash('sha256').update(call + query + SECRET).digest('hex') === rawQuery.slice(i + '&checksum='.length);
}

let h: Harness;
beforeAll(async () => {
  bbb = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const raw = req.url!.slice(req.url!.indexOf('?') + 1);
    if (answer === 'http500') return void res.writeHead(500).end();
    if (url.pathname !== '/bigbluebutton/api/create') return void res.writeHead(404).end();
    res.setHeader('content-type', 'text/xml');
    if (!checksumOk('create', raw)) {
      return void res.end('<response><returncode>FAILED</returncode><messageKey>checksumError</messageKey></response>');
    }
    creates.push(url.searchParams);
    if (answer === 'fail') return void res.end('<response><returncode>FAILED</returncode><messageKey>idNotUnique</messageKey></response>');
    res.end(`<response>\n<returncode>SUCCESS</returncode>\n<meetingID>${url.searchParams.get('meetingID')}</meetingID>\n<createTime>1700000000123</createTime>\n</response>`);
  });
  await new Promise<void>((resolve) => bbb.listen(0, '127.0.0.1', resolve));
  bbbUrl = `http://127.0.0.1:${(bbb.address() as AddressInfo).port}/bigbluebutton/`;
  h = await startHarness({ BIG_BLUE_BUTTON_URL: bbbUrl, BIG_BLUE_BUTTON_SECRET: SECRET });
});
afterAll(async () => {
  await h?.close();
  await new Promise((resolve) => bbb?.close(resolve));
});

const site = (user = h.realm.member) => ({
  get: (path: string) => request(h.app.url).get(path).set(identityHeaders(h.realm.realmId, user)),
  post: (path: string) => request(h.app.url).post(path).set(identityHeaders(h.realm.realmId, user)),
});

async function createLink(user = h.realm.member, query = 'meeting_name=general%20meeting'): Promise<string> {
  const res = await h.as(user).get(`/calls/bigbluebutton/create?${query}`);
  expect(res.body).toMatchObject({ result: 'success', url: expect.stringMatching(/^\/calls\/bigbluebutton\/join\?bigbluebutton=/) });
  return res.body.url as string;
}

describe('BigBlueButton', () => {
  it.each(ROLE_NAMES)('GET /calls/bigbluebutton/create answers a join link to the %s', async (name) => {
    await createLink(userOf(h.realm, name));
  });

  it('needs meeting_name', async () => {
    expect((await h.as(h.realm.member).get('/calls/bigbluebutton/create')).body.msg).toBe("Missing 'meeting_name' argument");
  });

  it('joining creates the meeting and redirects to a signed join URL: moderator for the creator', async () => {
    const link = await createLink(h.realm.member, 'meeting_name=Design%20review&voice_only=true');
    creates.length = 0;
    const own = await site(h.realm.member).get(link);
    expect(own.status).toBe(302);
    expect(creates).toHaveLength(1);
    expect(creates[0]!.get('name')).toBe('Design review');
    expect(creates[0]!.get('lockSettingsDisableCam')).toBe('true');
    const joinUrl = new URL(own.headers.location!);
    expect(`${joinUrl.origin}${joinUrl.pathname}`).toBe(`${bbbUrl}api/join`);
    expect(checksumOk('join', joinUrl.search.slice(1))).toBe(true);
    expect(Object.fromEntries(joinUrl.searchParams)).toMatchObject({
      meetingID: creates[0]!.get('meetingID'),
      role: 'MODERATOR',
      fullName: h.realm.member.fullName,
      createTime: '1700000000123',
    });
    const other = await site(h.realm.guest).get(link);
    expect(new URL(other.headers.location!).searchParams.get('role')).toBe('VIEWER');
    expect(creates[1]!.get('meetingID')).toBe(creates[0]!.get('meetingID'));
  });

  it('refuses a tampered link, an anonymous visitor and BigBlueButton errors with the family messages', async () => {
    const link = await createLink();
    const token = decodeURIComponent(link.split('=')[1]!);
    const [body, mac] = token.split('.');
    const forged = JSON.parse(Buffer.from(body!, 'base64url').toString());
    forged.moderator = h.realm.guest.id;
    const tampered = `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`;
    const bad = await site(h.realm.guest).get(`/calls/bigbluebutton/join?bigbluebutton=${encodeURIComponent(tampered)}`);
    expect(bad.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid signature.' });
    const anonymous = await request(h.app.url).get(link).set(identityHeaders(h.realm.realmId));
    expect(anonymous.status).toBe(401);
    answer = 'fail';
    expect((await site().get(link)).body.msg).toBe('BigBlueButton server returned an unexpected error.');
    answer = 'http500';
    expect((await site().get(link)).body.msg).toBe('Error connecting to the BigBlueButton server.');
    answer = 'ok';
  });

  it('reports a wrong shared secret as an authentication error', async () => {
    const wrong = await start({ ...h.env.env, BIG_BLUE_BUTTON_URL: bbbUrl, BIG_BLUE_BUTTON_SECRET: 'not-the-secret' });
    try {
      const created = await request(wrong.url)
        .get('/api/v1/calls/bigbluebutton/create?meeting_name=x')
        .set(identityHeaders(h.realm.realmId, h.realm.member));
      const res = await request(wrong.url).get(created.body.url).set(identityHeaders(h.realm.realmId, h.realm.member));
      expect(res.body.msg).toBe('Error authenticating to the BigBlueButton server.');
    } finally {
      await wrong.stop();
    }
  });
});

describe('without a video call provider configured', () => {
  let bare: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    bare = await start({ ...h.env.env });
  });
  afterAll(() => bare?.stop());
  const as = (method: 'get' | 'post', path: string, user = h.realm.member) =>
    request(bare.url)[method](path).set(identityHeaders(h.realm.realmId, user)).type('form');

  it('refuses BigBlueButton calls', async () => {
    const res = await as('get', '/api/v1/calls/bigbluebutton/create?meeting_name=x');
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'BigBlueButton is not configured.' });
    expect((await as('get', '/calls/bigbluebutton/join?bigbluebutton=x')).body.msg).toBe('BigBlueButton is not configured.');
  });

  it.each(ROLE_NAMES)('refuses Zoom calls and the Zoom OAuth pages for the %s', async (name) => {
    const user = userOf(h.realm, name);
    const expected = { result: 'error', code: 'BAD_REQUEST', msg: 'Zoom credentials have not been configured' };
    expect((await as('post', '/api/v1/calls/zoom/create', user).send({ is_video_call: 'false' })).body).toEqual(expected);
    expect((await as('get', '/calls/zoom/register', user)).body).toEqual(expected);
    expect((await as('get', '/calls/zoom/complete?code=c&state=s', user)).body).toEqual(expected);
  });

  it('acknowledges a Zoom deauthorization', async () => {
    const res = await request(bare.url).post('/calls/zoom/deauthorize').set(identityHeaders(h.realm.realmId)).send({});
    expect(res.body).toEqual({ result: 'success', msg: '' });
  });
});

describe('configuration', () => {
  it('needs the BigBlueButton URL and secret together, and an http(s) URL', async () => {
    await expect(start({ ...h.env.env, BIG_BLUE_BUTTON_URL: bbbUrl })).rejects.toThrow(/BIG_BLUE_BUTTON_URL and BIG_BLUE_BUTTON_SECRET go together/);
    await expect(start({ ...h.env.env, BIG_BLUE_BUTTON_URL: 'ftp://bbb.test/', BIG_BLUE_BUTTON_SECRET: 's' })).rejects.toThrow(/BIG_BLUE_BUTTON_URL/);
  });
});
