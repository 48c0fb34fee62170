import sharp from 'sharp';
import request from 'supertest';
import { eventually, startHarness, streamEvents, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const api = () => request(h.uploads.url);
const png = (size: number) => sharp({ create: { width: size, height: size, channels: 4, background: '#ff8800' } }).png().toBuffer();

it('adds a custom emoji, scaled down, announced with a fallback for older clients', async () => {
  await api().post('/api/v1/realm/emoji/party_parrot').set(h.as(h.realm.member)).attach('f', await png(256), 'p.png').expect(200);
  const list = await api().get('/api/v1/realm/emoji').set(h.as(h.realm.guest)).expect(200);
  const [emoji] = Object.values(list.body.emoji) as Array<Record<string, unknown>>;
  expect(emoji).toEqual({
    id: expect.any(String),
    name: 'party_parrot',
    source_url: `/user_avatars/${h.realm.realmId}/emoji/images/${emoji.id}.png`,
    still_url: null,
    deactivated: false,
    author_id: h.realm.member.id,
  });
  expect(Object.keys(list.body.emoji)).toEqual([emoji.id]);
  const image = await api().get(emoji.source_url as string).set(h.as()).expect(200);
  const meta = await sharp(image.body).metadata();
  expect([meta.width, meta.height]).toEqual([64, 64]);

  const event = await eventually(async () => (await streamEvents(h, 'realm_emoji')).find((e) => e.event.op === 'add'));
  expect(event.users).toBe('realm');
  expect(event.event).toEqual({ type: 'realm_emoji', op: 'add', emoji });
  const routing = await eventually(async () => {
    const key = h.uploads.services.keys.streamForRealm(h.realm.realmId);
    const entries = (await h.env.redis.xrange(key, '-', '+')) as Array<[string, string[]]>;
    for (const [, flat] of entries) {
      const payload = JSON.parse(flat[flat.indexOf('payload') + 1]);
      if (payload.event.type === 'realm_emoji') return payload;
    }
    return null;
  });
  expect(routing.capability).toBe('individual_emoji_changes');
  expect(routing.fallback_event).toEqual({ type: 'realm_emoji', op: 'update', realm_emoji: { [emoji.id as string]: emoji } });
});

it('keeps animations and offers a still frame', async () => {
  const frames = await Promise.all(['#f00', '#0f0'].map((c) => sharp({ create: { width: 32, height: 32, channels: 3, background: c } }).png().toBuffer()));
  const gif = await sharp(frames, { join: { animated: true } }).gif().toBuffer();
  await api().post('/api/v1/realm/emoji/blink').set(h.as(h.realm.member)).attach('f', gif, 'b.gif').expect(200);
  const list = await api().get('/api/v1/realm/emoji').set(h.as(h.realm.member)).expect(200);
  const blink = (Object.values(list.body.emoji) as Array<Record<string, string>>).find((e) => e.name === 'blink')!;
  expect(blink.source_url).toMatch(/\/\d+\.gif$/);
  expect(blink.still_url).toMatch(/\/emoji\/images\/still\/\d+\.png$/);
  const anim = await api().get(blink.source_url).set(h.as()).expect(200);
  expect((await sharp(anim.body, { animated: true }).metadata()).pages).toBe(2);
  await api().get(blink.still_url).set(h.as()).expect(200);
});

it('checks names, duplicates, files and permission', async () => {
  const send = (name: string, user = h.realm.member) => api().post(`/api/v1/realm/emoji/${name}`).set(h.as(user));
  expect((await send('Bad').attach('f', await png(8), 'a.png').expect(400)).body.msg).toBe(
    'Emoji names must contain only lowercase alphanumeric characters, hyphen, and underscore.',
  );
  expect((await send('ends_').attach('f', await png(8), 'a.png').expect(400)).body.msg).toBe('Emoji names must end with either a letter or digit.');
  expect((await send('party_parrot').attach('f', await png(8), 'a.png').expect(400)).body.msg).toBe('A custom emoji with this name already exists.');
  expect((await send('nofile').field('x', 'y').expect(400)).body.msg).toBe('You must upload exactly one file.');
  expect((await send('notimage').attach('f', Buffer.from('nope'), 'a.png').expect(400)).body.msg).toBe(
    'Could not decode image; did you upload an image file?',
  );
  // Guests are not in the default can_add_custom_emoji_group (members).
  expect((await send('guesty', h.realm.guest).attach('f', await png(8), 'a.png').expect(400)).body.msg).toBe('Insufficient permission');
  // An administrator may narrow it to administrators.
  const admins = await h.env.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:administrators' } });
  await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { can_add_custom_emoji_group: admins.id } } });
  try {
    await send('memberish', h.realm.moderator).attach('f', await png(8), 'a.png').expect(400);
    await send('ownerish', h.realm.owner).attach('f', await png(8), 'a.png').expect(200);
  } finally {
    await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: {} } });
  }
});

it('lets the author or an administrator deactivate an emoji, and then reuse its name', async () => {
  await api().post('/api/v1/realm/emoji/temp').set(h.as(h.realm.member)).attach('f', await png(16), 't.png').expect(200);
  const denied = await api().delete('/api/v1/realm/emoji/temp').set(h.as(h.realm.member2)).expect(400);
  expect(denied.body.msg).toBe('Must be an organization administrator or emoji author');
  await api().delete('/api/v1/realm/emoji/temp').set(h.as(h.realm.member)).expect(200);
  const missing = await api().delete('/api/v1/realm/emoji/temp').set(h.as(h.realm.admin)).expect(404);
  expect(missing.body).toMatchObject({ code: 'NOT_FOUND', msg: "Emoji 'temp' does not exist" });
  const list = await api().get('/api/v1/realm/emoji').set(h.as(h.realm.member)).expect(200);
  const temp = (Object.values(list.body.emoji) as Array<Record<string, unknown>>).find((e) => e.name === 'temp')!;
  expect(temp.deactivated).toBe(true);
  const edit = await eventually(async () => (await streamEvents(h, 'realm_emoji')).find((e) => e.event.op === 'update_one'));
  expect(edit.event).toEqual({ type: 'realm_emoji', op: 'update_one', emoji_id: temp.id, data: { deactivated: true } });
  // The image stays for messages that used it; the name is free again.
  await api().get(temp.source_url as string).set(h.as()).expect(200);
  await api().post('/api/v1/realm/emoji/temp').set(h.as(h.realm.member2)).attach('f', await png(16), 't.png').expect(200);
  await api().post('/api/v1/realm/emoji/admin_owned').set(h.as(h.realm.member2)).attach('f', await png(16), 't.png').expect(200);
  await api().delete('/api/v1/realm/emoji/admin_owned').set(h.as(h.realm.admin)).expect(200);
});

describe('realm icon', () => {
  it('lets administrators upload and remove the icon, and tells the realm', async () => {
    for (const user of [h.realm.moderator, h.realm.member, h.realm.guest]) {
      const res = await api().post('/api/v1/realm/icon').set(h.as(user)).attach('f', await png(300), 'i.png').expect(400);
      expect(res.body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    }
    const none = await api().post('/api/v1/realm/icon').set(h.as(h.realm.admin)).field('x', '1').expect(400);
    expect(none.body.msg).toBe('You must upload exactly one icon.');
    const first = await api().post('/api/v1/realm/icon').set(h.as(h.realm.admin)).attach('f', await png(300), 'i.png').expect(200);
    expect(first.body.icon_url).toBe(`/user_avatars/${h.realm.realmId}/realm/icon.png?version=1`);
    const second = await api().post('/api/v1/realm/icon').set(h.as(h.realm.owner)).attach('f', await png(300), 'i.png').expect(200);
    expect(second.body.icon_url).toBe(`/user_avatars/${h.realm.realmId}/realm/icon.png?version=2`);
    expect((await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } })).iconUrl).toBe(second.body.icon_url);
    const file = await api().get(`/user_avatars/${h.realm.realmId}/realm/icon.png`).set(h.as()).expect(200);
    expect((await sharp(file.body).metadata()).width).toBe(100);
    const event = await eventually(async () => (await streamEvents(h, 'realm')).find((e) => e.event.property === 'icon'));
    expect(event.event).toEqual({ type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: first.body.icon_url, icon_source: 'U' } });

    const removed = await api().delete('/api/v1/realm/icon').set(h.as(h.realm.admin)).expect(200);
    expect(removed.body.icon_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon$/);
    expect((await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } })).iconUrl).toBeNull();
    await api().get(`/user_avatars/${h.realm.realmId}/realm/icon.png`).set(h.as()).expect(404);
  });
});
