import { createHash } from 'node:crypto';
import sharp from 'sharp';
import request from 'supertest';
import { resolveApiRoute } from '@chat/contracts';
import { startHarness, type Harness } from './support';

// GET /realm/icon and GET /realm/logo: redirects to the realm's current images, uploaded or
// default, with the request's query string kept after the image's own.
const square = () => sharp({ create: { width: 300, height: 300, channels: 4, background: '#cc3366' } }).png().toBuffer();
const wide = () => sharp({ create: { width: 1600, height: 400, channels: 4, background: '#3366cc' } }).png().toBuffer();

let h: Harness;
let stringId: string;
beforeAll(async () => {
  h = await startHarness();
  stringId = (await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } })).stringId;
});
afterAll(async () => {
  await h?.close();
});

const api = () => request(h.uploads.url);
const identicon = () => `https://secure.gravatar.com/avatar/${createHash('md5').update(stringId || 'root').digest('hex')}?d=identicon`;
const DEFAULT_LOGO = '/user_avatars/default/realm/logo.svg?version=0';

it('is routed to the uploads service and needs a logged-in user', async () => {
  for (const path of ['/realm/icon', '/realm/logo']) {
    expect(resolveApiRoute(path, 'GET')).toMatchObject({ service: 'uploads', auth: 'required' });
  }
  for (const path of ['/api/v1/realm/icon', '/api/v1/realm/logo?night=false']) {
    const anonymous = await api().get(path).set(h.as()).expect(401);
    expect(anonymous.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
    expect(anonymous.headers.location).toBeUndefined();
  }
});

describe('GET /realm/icon', () => {
  it('sends every member, guests too, to the identicon while there is no icon', async () => {
    for (const user of [h.realm.owner, h.realm.member, h.realm.guest]) {
      const res = await api().get('/api/v1/realm/icon').set(h.as(user)).expect(302);
      expect(res.headers.location).toBe(identicon());
      expect(res.headers['cache-control']).toBe('private, max-age=0');
    }
  });

  it('keeps the query string', async () => {
    const res = await api().get('/api/v1/realm/icon?s=50&x=1').set(h.as(h.realm.member)).expect(302);
    expect(res.headers.location).toBe(`${identicon()}&s=50&x=1`);
  });

  it('follows uploads and removal', async () => {
    await api().post('/api/v1/realm/icon').set(h.as(h.realm.admin)).attach('f', await square(), 'i.png').expect(200);
    const uploaded = await api().get('/api/v1/realm/icon').set(h.as(h.realm.member)).expect(302);
    expect(uploaded.headers.location).toBe(`/user_avatars/${h.realm.realmId}/realm/icon.png?version=1`);
    const file = await api().get(uploaded.headers.location).set(h.as()).expect(200);
    const meta = await sharp(file.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 100, 100]);

    await api().post('/api/v1/realm/icon').set(h.as(h.realm.admin)).attach('f', await square(), 'i.png').expect(200);
    const again = await api().get('/api/v1/realm/icon?x=1').set(h.as(h.realm.guest)).expect(302);
    expect(again.headers.location).toBe(`/user_avatars/${h.realm.realmId}/realm/icon.png?version=2&x=1`);

    await api().delete('/api/v1/realm/icon').set(h.as(h.realm.admin)).expect(200);
    const removed = await api().get('/api/v1/realm/icon').set(h.as(h.realm.member)).expect(302);
    expect(removed.headers.location).toBe(identicon());
  });
});

describe('GET /realm/logo', () => {
  it('needs night, as a boolean', async () => {
    const missing = await api().get('/api/v1/realm/logo').set(h.as(h.realm.member)).expect(400);
    expect(missing.body).toMatchObject({ result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'night' argument" });
    const bad = await api().get('/api/v1/realm/logo?night=maybe').set(h.as(h.realm.member)).expect(400);
    expect(bad.body).toMatchObject({ result: 'error', msg: 'night is not a boolean' });
  });

  it('sends both to the default logo while there is none, keeping the query string', async () => {
    for (const night of ['false', 'true']) {
      const res = await api().get(`/api/v1/realm/logo?night=${night}`).set(h.as(h.realm.guest)).expect(302);
      expect(res.headers.location).toBe(`${DEFAULT_LOGO}&night=${night}`);
    }
    const served = await api().get(DEFAULT_LOGO).set(h.as()).expect(200);
    expect(served.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('keeps the night logo apart from the day logo', async () => {
    await api().post('/api/v1/realm/logo').set(h.as(h.realm.admin)).field('night', 'true').attach('f', await wide(), 'n.png').expect(200);
    const night = await api().get('/api/v1/realm/logo?night=true').set(h.as(h.realm.member)).expect(302);
    expect(night.headers.location).toBe(`/user_avatars/${h.realm.realmId}/realm/night_logo.png?version=1&night=true`);
    const day = await api().get('/api/v1/realm/logo?night=false').set(h.as(h.realm.member)).expect(302);
    expect(day.headers.location).toBe(`${DEFAULT_LOGO}&night=false`);
    const file = await api().get(night.headers.location).set(h.as()).expect(200);
    expect((await sharp(file.body).metadata()).format).toBe('png');

    await api().post('/api/v1/realm/logo').set(h.as(h.realm.owner)).field('night', 'false').attach('f', await wide(), 'l.png').expect(200);
    const uploadedDay = await api().get('/api/v1/realm/logo?night=false').set(h.as(h.realm.member)).expect(302);
    expect(uploadedDay.headers.location).toBe(`/user_avatars/${h.realm.realmId}/realm/logo.png?version=1&night=false`);

    await api().delete('/api/v1/realm/logo?night=true').set(h.as(h.realm.admin)).expect(200);
    const nightRemoved = await api().get('/api/v1/realm/logo?night=true').set(h.as(h.realm.member)).expect(302);
    expect(nightRemoved.headers.location).toBe(`${DEFAULT_LOGO}&night=true`);
    const dayKept = await api().get('/api/v1/realm/logo?night=false').set(h.as(h.realm.member)).expect(302);
    expect(dayKept.headers.location).toBe(uploadedDay.headers.location);
  });
});
