import sharp from 'sharp';
import request from 'supertest';
import { realmLogoSource, realmLogoUrl, DEFAULT_REALM_LOGO_URL } from '@chat/wire';
import { eventually, startHarnessOn, streamEvents, type Harness } from './support';

// The day and night logos on both backends: who may change them, what is stored and served,
// what the realm hears, and that the row register reads gives the same URLs as the events.
const wide = () => sharp({ create: { width: 1600, height: 400, channels: 4, background: '#3366cc' } }).png().toBuffer();

describe.each(['local', 's3'])('realm logo on %s storage', (backend) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarnessOn(backend);
  });
  afterAll(() => h.close());

  const api = () => request(h.uploads.url);
  const realmRow = () => h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
  const logoEvents = async (property: string) => (await streamEvents(h, 'realm')).filter((e) => e.event.property === property);

  it('is for administrators only, on both upload and removal', async () => {
    for (const user of [h.realm.moderator, h.realm.member, h.realm.guest]) {
      const up = await api().post('/api/v1/realm/logo').set(h.as(user)).field('night', 'false').attach('f', await wide(), 'l.png').expect(400);
      expect(up.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
      const del = await api().delete('/api/v1/realm/logo?night=false').set(h.as(user)).expect(400);
      expect(del.body.msg).toBe('Must be an organization administrator');
    }
    const row = await realmRow();
    expect([row.logoUrl, row.nightLogoUrl]).toEqual([null, null]);
    expect(await logoEvents('logo')).toEqual([]);
  });

  it('wants exactly one image and the night parameter', async () => {
    const none = await api().post('/api/v1/realm/logo').set(h.as(h.realm.admin)).field('night', 'false').expect(400);
    expect(none.body.msg).toBe('You must upload exactly one logo.');
    const noNight = await api().post('/api/v1/realm/logo').set(h.as(h.realm.admin)).attach('f', await wide(), 'l.png').expect(400);
    expect(noNight.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'night' argument" });
    const notImage = await api().post('/api/v1/realm/logo').set(h.as(h.realm.admin)).field('night', 'true').attach('f', Buffer.from('not an image'), 'l.png').expect(400);
    expect(notImage.body.msg).toBe('Could not decode image; did you upload an image file?');
    const badNight = await api().delete('/api/v1/realm/logo?night=maybe').set(h.as(h.realm.admin)).expect(400);
    expect(badNight.body.msg).toBe('night is not a boolean');
    expect((await realmRow()).logoUrl).toBeNull();
  });

  it('stores the day logo scaled into 800 x 100, serves it and tells the realm', async () => {
    await api().post('/api/v1/realm/logo').set(h.as(h.realm.admin)).field('night', 'false').attach('f', await wide(), 'l.png').expect(200);
    const second = await api().post('/api/v1/realm/logo?night=false').set(h.as(h.realm.owner)).attach('f', await wide(), 'l.png').expect(200);
    expect(second.body).toEqual({ result: 'success', msg: '' });
    const row = await realmRow();
    expect(row.logoUrl).toBe(`/user_avatars/${h.realm.realmId}/realm/logo.png?version=2`);
    expect(row.nightLogoUrl).toBeNull();

    const file = await api().get(`/user_avatars/${h.realm.realmId}/realm/logo.png`).set(h.as()).redirects(1).expect(200);
    const meta = await sharp(file.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 400, 100]);
    await api().get(`/user_avatars/${h.realm.realmId}/realm/night_logo.png`).set(h.as()).redirects(1).expect(404);

    const events = await eventually(async () => ((await logoEvents('logo')).length === 2 ? logoEvents('logo') : undefined));
    expect(events.map((e) => e.users)).toEqual(['realm', 'realm']);
    expect(events[1].event).toEqual({ type: 'realm', op: 'update_dict', property: 'logo', data: { logo_url: row.logoUrl, logo_source: 'U' } });
    // What register's realm section reads from the same row.
    expect([realmLogoUrl(row, false), realmLogoSource(row, false)]).toEqual([row.logoUrl, 'U']);
    expect([realmLogoUrl(row, true), realmLogoSource(row, true)]).toEqual([DEFAULT_REALM_LOGO_URL, 'D']);
  });

  it('keeps the night logo apart, and removal returns each to the default', async () => {
    await api().post('/api/v1/realm/logo').set(h.as(h.realm.admin)).field('night', 'true').attach('f', await wide(), 'n.png').expect(200);
    let row = await realmRow();
    expect(row.nightLogoUrl).toBe(`/user_avatars/${h.realm.realmId}/realm/night_logo.png?version=1`);
    expect(row.logoUrl).toBe(`/user_avatars/${h.realm.realmId}/realm/logo.png?version=2`);
    const night = await eventually(async () => (await logoEvents('night_logo'))[0]);
    expect(night.event).toEqual({
      type: 'realm', op: 'update_dict', property: 'night_logo',
      data: { night_logo_url: row.nightLogoUrl, night_logo_source: 'U' },
    });
    await api().get(`/user_avatars/${h.realm.realmId}/realm/night_logo.png`).set(h.as()).redirects(1).expect(200);

    await api().delete('/api/v1/realm/logo').query({ night: 'true' }).set(h.as(h.realm.admin)).expect(200);
    row = await realmRow();
    expect(row.nightLogoUrl).toBeNull();
    expect(row.logoUrl).not.toBeNull();
    const removed = await eventually(async () => (await logoEvents('night_logo'))[1]);
    expect(removed.event.data).toEqual({ night_logo_url: DEFAULT_REALM_LOGO_URL, night_logo_source: 'D' });
    await api().get(`/user_avatars/${h.realm.realmId}/realm/night_logo.png`).set(h.as()).redirects(1).expect(404);

    await api().delete('/api/v1/realm/logo?night=false').set(h.as(h.realm.owner)).expect(200);
    expect((await realmRow()).logoUrl).toBeNull();
    const dayRemoved = await eventually(async () => (await logoEvents('logo'))[2]);
    expect(dayRemoved.event.data).toEqual({ logo_url: DEFAULT_REALM_LOGO_URL, logo_source: 'D' });
    await api().get(`/user_avatars/${h.realm.realmId}/realm/logo.png`).set(h.as()).redirects(1).expect(404);
  });

  it('serves the default logo to anyone', async () => {
    const res = await api().get(DEFAULT_REALM_LOGO_URL.split('?')[0]).set(h.as()).expect(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('leaves the icon alone', async () => {
    const row = await realmRow();
    expect(row.iconUrl).toBeNull();
    expect(await logoEvents('icon')).toEqual([]);
  });
});
