/** Default channels: POST/DELETE /default_streams, PATCH /streams/{id} is_default_stream, archiving. */
import { Prisma } from '@chat/db';
import type { SeededUser } from '@chat/testing';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let lobby = 0;
let news = 0;
let secret = 0;
let hidden = 0;

beforeAll(async () => {
  h = await startHarness();
  const { owner, admin } = h.realm;
  lobby = await h.createStream(owner, { name: 'Lobby' }, [owner]);
  news = await h.createStream(owner, { name: 'News' }, []);
  secret = await h.createStream(owner, { name: 'Secret', inviteOnly: true }, [owner, admin]);
  hidden = await h.createStream(owner, { name: 'Hidden', inviteOnly: true }, [owner]);
});
afterAll(() => h?.close());

const stored = async () => {
  const realm = await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
  return (realm.settings as { default_stream_ids?: number[] }).default_stream_ids ?? [];
};
const add = (user: SeededUser, streamId: unknown) => h.api.post('/api/v1/default_streams').set(h.as(user)).type('form').send({ stream_id: String(streamId) });
const remove = (user: SeededUser, streamId: unknown) => h.api.delete('/api/v1/default_streams').set(h.as(user)).type('form').send({ stream_id: String(streamId) });
const patch = (user: SeededUser, streamId: number, body: Record<string, string>) =>
  h.api.patch(`/api/v1/streams/${streamId}`).set(h.as(user)).type('form').send(body);
const lastDefaultsEvent = async () => (await outboxEvents(h.env, 'default_streams')).at(-1);
const eventCount = async () => (await outboxEvents(h.env, 'default_streams')).length;

describe('POST and DELETE /default_streams', () => {
  it.each(['member', 'moderator', 'guest', 'bot'] as const)('refuses the %s', async (role) => {
    const user = h.realm[role];
    for (const res of [await add(user, lobby), await remove(user, lobby)]) {
      expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
    }
    expect(await stored()).toEqual([]);
  });

  it('lets an administrator add a public channel, telling every non-guest with the list of ids', async () => {
    const res = await add(h.realm.admin, lobby);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await stored()).toEqual([lobby]);
    const event = await lastDefaultsEvent();
    expect(event!.event).toEqual({ type: 'default_streams', default_streams: [lobby] });
    const { owner, admin, moderator, member, member2, bot, guest } = h.realm;
    expect(event!.users).toEqual([owner.id, admin.id, moderator.id, member.id, member2.id, bot.id].sort((a, b) => a - b));
    expect(event!.users).not.toContain(guest.id);
  });

  it('adds a channel that is already default without a second event, and lists defaults in GET /streams', async () => {
    const before = await eventCount();
    expect((await add(h.realm.owner, lobby)).body.result).toBe('success');
    expect(await eventCount()).toBe(before);
    expect((await add(h.realm.owner, news)).body.result).toBe('success');
    expect((await lastDefaultsEvent())!.event.default_streams).toEqual([lobby, news]);
    const streams = await h.api.get('/api/v1/streams').set(h.as(h.realm.admin)).query({ include_default: 'true', include_all_active: 'true' });
    const isDefault = Object.fromEntries(streams.body.streams.map((s: { stream_id: number; is_default: boolean }) => [s.stream_id, s.is_default]));
    expect(isDefault).toMatchObject({ [lobby]: true, [news]: true, [secret]: false });
  });

  it('refuses private channels, and hides private channels the administrator is not in', async () => {
    expect((await add(h.realm.admin, secret)).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Private channels cannot be made default.' });
    expect((await add(h.realm.admin, hidden)).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid channel ID' });
    expect(await stored()).toEqual([lobby, news]);
  });

  it('answers Invalid channel ID for a channel that does not exist, and a parameter error without stream_id', async () => {
    expect((await add(h.realm.admin, 987654)).body.msg).toBe('Invalid channel ID');
    expect((await remove(h.realm.admin, 987654)).body.msg).toBe('Invalid channel ID');
    expect((await add(h.realm.admin, 'abc')).body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'stream_id is not an integer' });
    const missing = await h.api.post('/api/v1/default_streams').set(h.as(h.realm.admin)).type('form').send({});
    expect(missing.body).toMatchObject({ result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'stream_id' argument" });
  });

  it('removes a default channel (an announcement even when it was not one)', async () => {
    expect((await remove(h.realm.owner, news)).body.result).toBe('success');
    expect(await stored()).toEqual([lobby]);
    expect((await lastDefaultsEvent())!.event.default_streams).toEqual([lobby]);
    const before = await eventCount();
    // Removal needs no content access: an administrator may remove a private channel they are not in.
    expect((await remove(h.realm.admin, hidden)).body.result).toBe('success');
    expect(await eventCount()).toBe(before + 1);
    expect(await stored()).toEqual([lobby]);
  });

  it('keeps the realm\'s other settings while rewriting the list', async () => {
    const realm = await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { ...(realm.settings as object), waiting_period_threshold: 7 } } });
    expect((await add(h.realm.admin, news)).body.result).toBe('success');
    const after = (await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } })).settings as Record<string, unknown>;
    expect(after).toMatchObject({ waiting_period_threshold: 7, default_stream_ids: [lobby, news] });
    expect((await remove(h.realm.admin, news)).body.result).toBe('success');
  });
});

describe('PATCH /streams/{id} is_default_stream', () => {
  it('makes a channel default and not default again', async () => {
    expect((await patch(h.realm.admin, news, { is_default_stream: 'true' })).body.result).toBe('success');
    expect(await stored()).toEqual([lobby, news]);
    expect((await lastDefaultsEvent())!.event.default_streams).toEqual([lobby, news]);
    expect((await patch(h.realm.admin, news, { is_default_stream: 'false' })).body.result).toBe('success');
    expect(await stored()).toEqual([lobby]);
    expect((await lastDefaultsEvent())!.event.default_streams).toEqual([lobby]);
  });

  it('is for administrators only, not for channel administrators', async () => {
    expect((await patch(h.realm.member, news, { is_default_stream: 'true' })).body.msg).toBe('You do not have permission to administer this channel.');
    const moderators = await h.env.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:moderators' } });
    await h.env.db.stream.update({ where: { id: news }, data: { canAdministerChannelGroup: moderators.id } });
    try {
      expect((await patch(h.realm.moderator, news, { is_default_stream: 'true' })).body.msg).toBe('Must be an organization administrator');
    } finally {
      await h.env.db.stream.update({ where: { id: news }, data: { canAdministerChannelGroup: Prisma.DbNull } });
    }
    expect(await stored()).toEqual([lobby]);
  });

  it('never lets a channel be both default and private, changing nothing when refused', async () => {
    const refused = { result: 'error', code: 'BAD_REQUEST', msg: 'A default channel cannot be private.' };
    expect((await patch(h.realm.admin, secret, { is_default_stream: 'true' })).body).toEqual(refused);
    expect((await patch(h.realm.admin, lobby, { is_private: 'true' })).body).toEqual(refused);
    expect((await patch(h.realm.admin, news, { is_private: 'true', is_default_stream: 'true', description: 'changed' })).body).toEqual(refused);
    const newsRow = await h.env.db.stream.findUniqueOrThrow({ where: { id: news } });
    expect(newsRow).toMatchObject({ inviteOnly: false, description: '' });
    expect((await h.env.db.stream.findUniqueOrThrow({ where: { id: lobby } })).inviteOnly).toBe(false);
    expect(await stored()).toEqual([lobby]);
    // Leaving the defaults and going private in one request is fine, and so is the reverse.
    expect((await patch(h.realm.admin, lobby, { is_private: 'true', is_default_stream: 'false' })).body.result).toBe('success');
    expect(await stored()).toEqual([]);
    expect((await patch(h.realm.owner, lobby, { is_private: 'false', is_default_stream: 'true' })).body.result).toBe('success');
    expect(await stored()).toEqual([lobby]);
  });

  it('drops an archived channel from the defaults and refuses to add one', async () => {
    expect((await add(h.realm.admin, news)).body.result).toBe('success');
    expect((await h.api.delete(`/api/v1/streams/${news}`).set(h.as(h.realm.admin))).body.result).toBe('success');
    expect(await stored()).toEqual([lobby]);
    expect((await lastDefaultsEvent())!.event.default_streams).toEqual([lobby]);
    expect((await add(h.realm.admin, news)).body.msg).toBe('Invalid channel ID');
    expect((await patch(h.realm.admin, news, { is_default_stream: 'true' })).body.msg).toBe('Invalid channel ID');
    expect(await stored()).toEqual([lobby]);
  });
});

describe('POST /users/me/subscriptions is_default_stream', () => {
  const subscribe = (user: SeededUser, name: string, extra: Record<string, string>) =>
    h.api.post('/api/v1/users/me/subscriptions').set(h.as(user)).type('form').send({ subscriptions: JSON.stringify([{ name }]), ...extra });

  it('makes a channel an administrator creates default', async () => {
    expect((await subscribe(h.realm.admin, 'Welcome', { is_default_stream: 'true' })).body.result).toBe('success');
    const welcome = await h.env.db.stream.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'Welcome' } });
    expect(await stored()).toEqual([lobby, welcome.id]);
    expect((await lastDefaultsEvent())!.event.default_streams).toEqual([lobby, welcome.id]);
  });

  it('refuses members, private channels, and leaves existing channels alone', async () => {
    expect((await subscribe(h.realm.member, 'Their own', { is_default_stream: 'true' })).body.msg).toBe('Insufficient permission');
    expect(await h.env.db.stream.count({ where: { realmId: h.realm.realmId, name: 'Their own' } })).toBe(0);
    expect((await subscribe(h.realm.admin, 'Closed', { is_default_stream: 'true', invite_only: 'true' })).body.msg).toBe(
      'A default channel cannot be private.',
    );
    expect(await h.env.db.stream.count({ where: { realmId: h.realm.realmId, name: 'Closed' } })).toBe(0);
    const before = await stored();
    // Joining an existing channel is not creating it: the flag only applies to new channels.
    expect((await subscribe(h.realm.member, 'Lobby', { is_default_stream: 'false' })).body.result).toBe('success');
    expect((await subscribe(h.realm.admin, 'Secret', { is_default_stream: 'true' })).body.result).toBe('success');
    expect(await stored()).toEqual(before);
  });
});
