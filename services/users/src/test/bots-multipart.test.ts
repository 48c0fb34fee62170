/**
 * POST /bots as the family's web app sends it: a multipart form, with the avatar as its one
 * file. The image is handed to the uploads service through Redis, named by the bot's realm_bot
 * `add` event (services/uploads/src/test/bot-avatars.test.ts stores it).
 */
import request from 'supertest';
import { redisKeys } from '@chat/bus';
import { identityHeaders, type SeededUser } from '@chat/testing';
import { startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ MAX_AVATAR_FILE_SIZE_MIB: '1' });
});
afterAll(() => h?.close());

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function multipart(user: SeededUser, fields: Record<string, string>, files: Array<{ name: string; data: Buffer; type: string }> = []) {
  let req = request(h.app.url).post('/api/v1/bots').set(identityHeaders(h.realm.realmId, user));
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  files.forEach((f, i) => (req = req.attach(`file-${i}`, f.data, { filename: f.name, contentType: f.type })));
  return req;
}

async function handoverKeys(): Promise<string[]> {
  return h.app.services.redis.keys(`${redisKeys(h.app.services.config.REDIS_PREFIX).botAvatarHandover('')}*`);
}

describe('POST /bots as multipart/form-data', () => {
  it('takes the fields of a form without a file, the bot keeping its Gravatar', async () => {
    const res = await multipart(h.realm.member, { full_name: 'Plain Form Bot', short_name: 'plainform', bot_type: '1' });
    expect(res.body).toMatchObject({ result: 'success', msg: '', user_id: expect.any(Number), api_key: expect.any(String) });
    expect(res.body.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\//);
    expect((await h.db.user.findUniqueOrThrow({ where: { id: res.body.user_id } })).avatarSource).toBe('G');
  });

  it('creates the bot with an uploaded avatar, answers as the family and hands the image over', async () => {
    const before = await h.lastEventId();
    const res = await multipart(h.realm.member, { full_name: 'Pictured Bot', short_name: 'pictured' }, [{ name: 'face.png', data: PNG, type: 'image/png' }]);
    expect(Object.keys(res.body).sort()).toEqual(
      ['api_key', 'avatar_url', 'default_all_public_streams', 'default_events_register_stream', 'default_sending_stream', 'msg', 'result', 'user_id'],
    );
    const id = res.body.user_id as number;
    expect(res.body.avatar_url).toBe(`http://chat.test/avatar/${id}?version=1`);
    const bot = await h.db.user.findUniqueOrThrow({ where: { id } });
    expect([bot.avatarSource, bot.isBot, bot.botOwnerId]).toEqual(['U', true, h.realm.member.id]);

    const events = await h.eventsSince(before);
    const added = events.find((e) => e.type === 'realm_user' && (e.event as { op: string }).op === 'add')!;
    expect((added.event.person as Record<string, unknown>).avatar_url).toBe(`http://chat.test/avatar/${id}?version=1`);
    const row = await h.db.outboxEvent.findFirstOrThrow({ where: { type: 'realm_bot', id: { gt: before } } });
    const payload = row.payload as { event: { op: string; bot: Record<string, unknown> }; bot_avatar: { key: string; realm_url: string } };
    expect(payload.event).toMatchObject({ op: 'add', bot: { user_id: id, avatar_url: `http://chat.test/avatar/${id}?version=1` } });
    expect(payload.bot_avatar).toEqual({ key: expect.stringMatching(/bot-avatar:[A-Za-z0-9_-]{24}$/), realm_url: 'http://chat.test' });
    expect(await h.app.services.redis.getBuffer(payload.bot_avatar.key)).toEqual(PNG);
    const ttl = await h.app.services.redis.ttl(payload.bot_avatar.key);
    expect(ttl).toBeGreaterThan(86_000);
  });

  it('refuses a second file, a file that is no image and one over the limit, creating nothing', async () => {
    const two = await multipart(h.realm.member, { full_name: 'Twice', short_name: 'twice' }, [
      { name: 'a.png', data: PNG, type: 'image/png' },
      { name: 'b.png', data: PNG, type: 'image/png' },
    ]);
    expect([two.status, two.body.msg]).toEqual([400, 'You may only upload one file at a time']);
    const text = await multipart(h.realm.member, { full_name: 'Texty', short_name: 'texty' }, [{ name: 'a.png', data: Buffer.from('not an image'), type: 'image/png' }]);
    expect([text.status, text.body.msg]).toEqual([400, 'Could not decode image; did you upload an image file?']);
    const big = await multipart(h.realm.member, { full_name: 'Huge', short_name: 'huge' }, [{ name: 'a.png', data: Buffer.concat([PNG, Buffer.alloc(1024 * 1024 + 1)]), type: 'image/png' }]);
    expect([big.status, big.body.msg]).toEqual([413, 'Uploaded file is larger than the allowed limit of 1 MiB']);
    expect(await h.db.user.count({ where: { fullName: { in: ['Twice', 'Texty', 'Huge'] } } })).toBe(0);
  });

  it('leaves no image behind when the bot is refused', async () => {
    const keysBefore = await handoverKeys();
    const guest = await multipart(h.realm.guest, { full_name: 'Guest Bot', short_name: 'guestbot' }, [{ name: 'a.png', data: PNG, type: 'image/png' }]);
    expect(guest.body.msg).toBe('Not allowed for guest users');
    const taken = await multipart(h.realm.member, { full_name: 'Pictured Bot', short_name: 'pictured2' }, [{ name: 'a.png', data: PNG, type: 'image/png' }]);
    expect(taken.body.msg).toBe('Name is already in use.');
    expect((await handoverKeys()).sort()).toEqual(keysBefore.sort());
  });
});
