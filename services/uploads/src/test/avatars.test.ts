import { createHash } from 'node:crypto';
import sharp from 'sharp';
import request from 'supertest';
import { eventually, startHarness, streamEvents, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ MAX_AVATAR_FILE_SIZE_MIB: '1' });
});
afterAll(() => h.close());

const api = () => request(h.uploads.url);
const png = (w: number, h2: number) => sharp({ create: { width: w, height: h2, channels: 3, background: '#3366ff' } }).png().toBuffer();
const gravatar = (email: string) => createHash('md5').update(email.toLowerCase()).digest('hex');

describe('POST /users/me/avatar', () => {
  it('stores the image, bumps the version and tells the realm', async () => {
    const before = await h.env.db.user.findUniqueOrThrow({ where: { id: h.realm.member.id } });
    const res = await api().post('/api/v1/users/me/avatar').set(h.as(h.realm.member)).attach('file', await png(800, 600), 'me.png').expect(200);
    const version = before.avatarVersion + 1;
    expect(res.body).toEqual({ result: 'success', msg: '', avatar_url: `http://chat.test/avatar/${h.realm.member.id}?version=${version}` });
    const after = await h.env.db.user.findUniqueOrThrow({ where: { id: h.realm.member.id } });
    expect(after).toMatchObject({ avatarSource: 'U', avatarVersion: version });

    const event = await eventually(async () =>
      (await streamEvents(h, 'realm_user')).find((e) => (e.event.person as { avatar_version?: number }).avatar_version === version),
    );
    expect(event.users).toBe('realm');
    expect(event.event).toEqual({
      type: 'realm_user',
      op: 'update',
      person: {
        user_id: h.realm.member.id,
        avatar_source: 'U',
        avatar_url: `http://chat.test/avatar/${h.realm.member.id}?version=${version}`,
        avatar_url_medium: `http://chat.test/avatar/${h.realm.member.id}/medium?version=${version}`,
        avatar_version: version,
      },
    });

    // /avatar/{id} redirects to the stored file, which anyone in the realm can then fetch.
    for (const [suffix, size] of [['', 100], ['/medium', 500]] as const) {
      const redirect = await api().get(`/avatar/${h.realm.member.id}${suffix}`).set(h.as(h.realm.guest)).expect(302);
      expect(redirect.headers.location).toMatch(new RegExp(`^/user_avatars/${h.realm.realmId}/[0-9a-f]{40}${suffix ? '-medium' : ''}\\.png\\?version=${version}$`));
      const file = await api().get(redirect.headers.location).set(h.as(h.realm.guest)).expect(200);
      expect(file.headers['content-type']).toBe('image/png');
      const meta = await sharp(file.body).metadata();
      expect([meta.width, meta.height]).toEqual([size, size]);
    }
    // By email too, and under /api/v1.
    const byEmail = await api().get(`/api/v1/avatar/${h.realm.member.email.toUpperCase()}`).set(h.as(h.realm.admin)).expect(302);
    expect(byEmail.headers.location).toMatch(/^\/user_avatars\//);
  });

  it('refuses what is not exactly one image within the limit', async () => {
    const none = await api().post('/api/v1/users/me/avatar').set(h.as(h.realm.member2)).field('x', 'y').expect(400);
    expect(none.body.msg).toBe('You must upload exactly one avatar.');
    const two = await api()
      .post('/api/v1/users/me/avatar')
      .set(h.as(h.realm.member2))
      .attach('a', await png(10, 10), 'a.png')
      .attach('b', await png(10, 10), 'b.png')
      .expect(400);
    expect(two.body.msg).toBe('You must upload exactly one avatar.');
    const text = await api().post('/api/v1/users/me/avatar').set(h.as(h.realm.member2)).attach('f', Buffer.from('not an image'), 'a.png').expect(400);
    expect(text.body.msg).toBe('Could not decode image; did you upload an image file?');
    const big = await api().post('/api/v1/users/me/avatar').set(h.as(h.realm.member2)).attach('f', Buffer.alloc(1024 * 1024 + 1), 'big.png').expect(413);
    expect(big.body.msg).toBe('Uploaded file is larger than the allowed limit of 1 MiB');
    expect(await h.env.db.user.findUniqueOrThrow({ where: { id: h.realm.member2.id } })).toMatchObject({ avatarSource: 'G', avatarVersion: 1 });
  });

  it('respects avatar_changes_disabled, except for administrators', async () => {
    await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { avatar_changes_disabled: true } } });
    try {
      for (const user of [h.realm.moderator, h.realm.member2, h.realm.guest]) {
        const res = await api().post('/api/v1/users/me/avatar').set(h.as(user)).attach('f', await png(20, 20), 'a.png').expect(400);
        expect(res.body.msg).toBe('Avatar changes are disabled in this organization.');
        await api().delete('/api/v1/users/me/avatar').set(h.as(user)).expect(400);
      }
      await api().post('/api/v1/users/me/avatar').set(h.as(h.realm.admin)).attach('f', await png(20, 20), 'a.png').expect(200);
      await api().post('/api/v1/users/me/avatar').set(h.as(h.realm.owner)).attach('f', await png(20, 20), 'a.png').expect(200);
    } finally {
      await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: {} } });
    }
  });
});

describe('DELETE /users/me/avatar', () => {
  it('goes back to Gravatar, bumps the version and deletes the files', async () => {
    await api().post('/api/v1/users/me/avatar').set(h.as(h.realm.moderator)).attach('f', await png(50, 50), 'm.png').expect(200);
    const redirect = await api().get(`/avatar/${h.realm.moderator.id}`).set(h.as(h.realm.member)).expect(302);
    const before = await h.env.db.user.findUniqueOrThrow({ where: { id: h.realm.moderator.id } });
    const res = await api().delete('/api/v1/users/me/avatar').set(h.as(h.realm.moderator)).expect(200);
    const version = before.avatarVersion + 1;
    expect(res.body.avatar_url).toBe(`https://secure.gravatar.com/avatar/${gravatar(h.realm.moderator.email)}?d=identicon&version=${version}`);
    expect(await h.env.db.user.findUniqueOrThrow({ where: { id: h.realm.moderator.id } })).toMatchObject({ avatarSource: 'G', avatarVersion: version });
    await api().get(redirect.headers.location).set(h.as(h.realm.member)).expect(404);
    const event = await eventually(async () =>
      (await streamEvents(h, 'realm_user')).find(
        (e) => (e.event.person as { user_id: number; avatar_version: number }).user_id === h.realm.moderator.id && (e.event.person as { avatar_version: number }).avatar_version === version,
      ),
    );
    expect((event.event.person as Record<string, unknown>).avatar_source).toBe('G');
    expect((event.event.person as Record<string, unknown>).avatar_url_medium).toBe(
      `https://secure.gravatar.com/avatar/${gravatar(h.realm.moderator.email)}?d=identicon&s=500&version=${version}`,
    );
    // Deleting again changes nothing.
    await api().delete('/api/v1/users/me/avatar').set(h.as(h.realm.moderator)).expect(200);
    expect((await h.env.db.user.findUniqueOrThrow({ where: { id: h.realm.moderator.id } })).avatarVersion).toBe(version);
  });
});

describe('GET /avatar/{user}', () => {
  it('redirects to Gravatar for users without an uploaded avatar, and for unknown ones', async () => {
    const res = await api().get(`/avatar/${h.realm.guest.id}/medium?s=50`).set(h.as(h.realm.member)).expect(302);
    expect(res.headers.location).toBe(`https://secure.gravatar.com/avatar/${gravatar(h.realm.guest.email)}?d=identicon&s=500&version=1&s=50`);
    const unknown = await api().get('/avatar/nobody@example.com').set(h.as(h.realm.member)).expect(302);
    expect(unknown.headers.location).toBe(`https://secure.gravatar.com/avatar/${gravatar('nobody@example.com')}?d=identicon&version=1`);
  });

  it('asks spectators to log in unless the realm allows them', async () => {
    await api().get(`/avatar/${h.realm.member.id}`).set(h.as()).expect(401);
    await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { enable_spectator_access: true } } });
    try {
      await api().get(`/avatar/${h.realm.member.id}`).set(h.as()).expect(302);
    } finally {
      await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: {} } });
    }
  });

  it('does not reveal users of another realm', async () => {
    const other = await h.env.db.realm.create({ data: { stringId: 'other', name: 'Other' } });
    const stranger = await h.env.db.user.create({
      data: { realmId: other.id, email: 'x@other.test', deliveryEmail: 'x@other.test', fullName: 'X', apiKey: 'k'.repeat(32), avatarSource: 'U' },
    });
    const res = await api().get(`/avatar/${stranger.id}`).set(h.as(h.realm.member)).expect(302);
    expect(res.headers.location).toMatch(/^https:\/\/secure\.gravatar\.com\//);
  });
});
