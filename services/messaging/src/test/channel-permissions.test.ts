/**
 * The channel group settings where they apply: joining a private channel (can_subscribe_group),
 * administering one (subscribers), deleting messages, moving them within and out of a channel
 * and resolving topics, each beside the realm-wide permission it adds to.
 */
import { Prisma } from '@chat/db';
import { hasRealmPermission } from '@chat/realm';
import type { SeededUser } from '@chat/testing';
import { startHarness, type Harness } from './support';

let h: Harness;
let sys: Record<string, number>;
let verona = 0;
let mantua = 0;
let secret = 0;

beforeAll(async () => {
  h = await startHarness();
  const { owner, admin, member, member2, guest } = h.realm;
  const groups = await h.env.db.userGroup.findMany({ where: { realmId: h.realm.realmId, isSystemGroup: true } });
  sys = Object.fromEntries(groups.map((g) => [g.name.replace('role:', ''), g.id]));
  verona = await h.createStream(owner, { name: 'Verona' }, [owner, member, member2, guest]);
  mantua = await h.createStream(owner, { name: 'Mantua' }, [owner, member, member2]);
  secret = await h.createStream(admin, { name: 'Secret', inviteOnly: true }, [admin]);
  // The realm-wide permissions taken down to administrators, so only a channel's own settings can grant them.
  const realm = await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
  const onlyAdmins = Object.fromEntries(
    [
      'can_delete_own_message_group',
      'can_move_messages_between_topics_group',
      'can_move_messages_between_channels_group',
      'can_resolve_topics_group',
    ].map((k) => [k, sys.administrators]),
  );
  await h.env.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as object), ...onlyAdmins } } });
});
afterAll(() => h?.close());

const j = (v: unknown) => JSON.stringify(v);
const only = (...users: SeededUser[]) => ({ direct_members: users.map((u) => u.id), direct_subgroups: [] });
/** Sets a channel's group settings in the database: these tests are about what they grant. */
const grant = (streamId: number, data: Record<string, unknown>) => h.env.db.stream.update({ where: { id: streamId }, data });
const join = (user: SeededUser, name: string) =>
  h.api.post('/api/v1/users/me/subscriptions').set(h.as(user)).type('form').send({ subscriptions: j([{ name }]) });
async function send(user: SeededUser, to: string, topic: string) {
  const res = await h.api.post('/api/v1/messages').set(h.as(user)).type('form').send({ type: 'stream', to, topic, content: 'words' });
  expect(res.body.result).toBe('success');
  return res.body.id as number;
}
const edit = (user: SeededUser, id: number, body: Record<string, string>) =>
  h.api.patch(`/api/v1/messages/${id}`).set(h.as(user)).type('form').send(body);
const remove = (user: SeededUser, id: number) => h.api.delete(`/api/v1/messages/${id}`).set(h.as(user));

describe('can_subscribe_group', () => {
  it('lets its members join a private channel by themselves, guests never', async () => {
    const { member, guest } = h.realm;
    expect((await join(member, 'Secret')).body.msg).toBe('Unable to access channel (Secret).');
    await grant(secret, { canSubscribeGroup: only(member, guest) });
    expect((await join(member, 'Secret')).body).toMatchObject({ result: 'success', subscribed: { [member.id]: ['Secret'] } });
    expect((await join(guest, 'Secret')).body.msg).toBe('Unable to access channel (Secret).');
  });
});

describe('can_administer_channel_group', () => {
  it("is the creator's by default, so a member who creates a channel administers it", async () => {
    const { member, member2, moderator } = h.realm;
    const made = await h.api.post('/api/v1/users/me/subscriptions').set(h.as(member)).type('form')
      .send({ subscriptions: j([{ name: 'Elsinore' }]), principals: j([member.id, member2.id]) });
    expect(made.body.result).toBe('success');
    const row = await h.env.db.stream.findFirstOrThrow({ where: { realmId: h.realm.realmId, nameKey: 'elsinore' } });
    expect(row.canAdministerChannelGroup).toEqual(only(member));
    const subs = (await h.api.get('/api/v1/users/me/subscriptions').set(h.as(member))).body.subscriptions as Array<Record<string, unknown>>;
    expect(subs.find((s) => s.stream_id === row.id)).toMatchObject({ can_administer_channel_group: only(member) });
    const setDescription = (user: SeededUser) => h.api.patch(`/api/v1/streams/${row.id}`).set(h.as(user)).type('form').send({ description: 'Something is rotten' });
    expect((await setDescription(member)).body.result).toBe('success');
    expect((await setDescription(moderator)).body.msg).toBe('You do not have permission to administer this channel.');
    const unsubscribe = await h.api.delete('/api/v1/users/me/subscriptions').set(h.as(member)).type('form')
      .send({ subscriptions: j(['Elsinore']), principals: j([member2.id]) });
    expect(unsubscribe.body).toMatchObject({ result: 'success', removed: ['Elsinore'] });
    // Named administrators replace the creator.
    const named = await h.api.post('/api/v1/channels/create').set(h.as(member)).type('form')
      .send({ name: 'Wittenberg', subscribers: j([member.id]), can_administer_channel_group: j(sys.moderators) });
    expect(named.body.result).toBe('success');
    expect((await h.env.db.stream.findUniqueOrThrow({ where: { id: named.body.id } })).canAdministerChannelGroup).toBe(sys.moderators);
  });

  it('lets its members unsubscribe others', async () => {
    const { member, member2 } = h.realm;
    const unsubscribe = () =>
      h.api.delete('/api/v1/users/me/subscriptions').set(h.as(member)).type('form').send({ subscriptions: j(['Mantua']), principals: j([member2.id]) });
    expect((await unsubscribe()).body.msg).toBe('Insufficient permission');
    await grant(mantua, { canAdministerChannelGroup: only(member) });
    expect((await unsubscribe()).body).toMatchObject({ result: 'success', removed: ['Mantua'] });
    await join(member2, 'Mantua');
    await grant(mantua, { canAdministerChannelGroup: Prisma.DbNull });
  });
});

describe('message deletion', () => {
  it('takes can_delete_own_message_group and can_delete_any_message_group of the channel', async () => {
    const { member, member2 } = h.realm;
    const own = await send(member, 'Verona', 'deletions');
    const theirs = await send(member2, 'Verona', 'deletions');
    const refused = "You don't have permission to delete this message";
    expect((await remove(member, own)).body.msg).toBe(refused);
    expect((await remove(member, theirs)).body.msg).toBe(refused);
    await grant(verona, { canDeleteOwnMessageGroup: sys.members });
    expect((await remove(member, own)).body.result).toBe('success');
    // Own messages only.
    expect((await remove(member, theirs)).body.msg).toBe(refused);
    await grant(verona, { canDeleteAnyMessageGroup: only(member) });
    expect((await remove(member, theirs)).body.result).toBe('success');
    // Another channel's settings grant nothing here.
    const elsewhere = await send(member, 'Mantua', 'deletions');
    expect((await remove(member, elsewhere)).body.msg).toBe(refused);
    await grant(verona, { canDeleteOwnMessageGroup: Prisma.DbNull, canDeleteAnyMessageGroup: Prisma.DbNull });
  });
});

describe('moving messages', () => {
  it('takes can_move_messages_within_channel_group (or administering the channel) for topic moves', async () => {
    const { member, member2, guest } = h.realm;
    const id = await send(member2, 'Verona', 'old topic');
    const refused = "You don't have permission to edit this message";
    expect((await edit(member, id, { topic: 'new topic' })).body.msg).toBe(refused);
    await grant(verona, { canMoveMessagesWithinChannelGroup: only(member, guest) });
    expect((await edit(member, id, { topic: 'new topic' })).body.result).toBe('success');
    // The setting may be everyone, so guests it names hold it.
    expect((await edit(guest, id, { topic: 'guest topic' })).body.result).toBe('success');
    await grant(verona, { canMoveMessagesWithinChannelGroup: Prisma.DbNull, canAdministerChannelGroup: only(member2) });
    expect((await edit(member, id, { topic: 'newer topic' })).body.msg).toBe(refused);
    expect((await edit(member2, id, { topic: 'newer topic' })).body.result).toBe('success');
    await grant(verona, { canAdministerChannelGroup: Prisma.DbNull });
  });

  it('takes can_move_messages_out_of_channel_group (or administering the old channel) for channel moves', async () => {
    const { member, member2 } = h.realm;
    const id = await send(member2, 'Verona', 'travels');
    const refused = "You don't have permission to move this message";
    expect((await edit(member, id, { stream_id: String(mantua) })).body.msg).toBe(refused);
    // Permission on the target channel is not permission to move out of this one.
    await grant(mantua, { canMoveMessagesOutOfChannelGroup: only(member) });
    expect((await edit(member, id, { stream_id: String(mantua) })).body.msg).toBe(refused);
    await grant(verona, { canMoveMessagesOutOfChannelGroup: only(member) });
    expect((await edit(member, id, { stream_id: String(mantua) })).body.result).toBe('success');
    expect((await h.env.db.message.findUniqueOrThrow({ where: { id } })).streamId).toBe(mantua);
    // Back out of Mantua as its administrator.
    await grant(mantua, { canMoveMessagesOutOfChannelGroup: Prisma.DbNull, canAdministerChannelGroup: only(member2) });
    expect((await edit(member2, id, { stream_id: String(verona) })).body.result).toBe('success');
    await grant(verona, { canMoveMessagesOutOfChannelGroup: Prisma.DbNull });
    await grant(mantua, { canAdministerChannelGroup: Prisma.DbNull });
  });

  it('takes can_resolve_topics_group of either channel for resolving', async () => {
    const { member, member2 } = h.realm;
    const id = await send(member2, 'Verona', 'question');
    const refused = "You don't have permission to resolve topics in this channel.";
    expect((await edit(member, id, { topic: '✔ question' })).body.msg).toBe(refused);
    await grant(verona, { canResolveTopicsGroup: sys.members });
    expect((await edit(member, id, { topic: '✔ question', propagate_mode: 'change_all' })).body.result).toBe('success');
    // Resolving is not renaming.
    expect((await edit(member, id, { topic: 'other question' })).body.msg).toBe("You don't have permission to edit this message");
    await grant(verona, { canResolveTopicsGroup: Prisma.DbNull });
  });
});

describe('realm permissions that refuse role:everyone', () => {
  it('are never held by a guest, even one named in the setting', async () => {
    const { guest, member } = h.realm;
    const realm = await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    await h.env.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as object), can_add_subscribers_group: only(guest, member) } } });
    expect(await hasRealmPermission(h.env.db, h.realm.realmId, 'can_add_subscribers_group', member.id)).toBe(true);
    expect(await hasRealmPermission(h.env.db, h.realm.realmId, 'can_add_subscribers_group', guest.id)).toBe(false);
    // A setting that may be everyone's is held by a guest it names.
    await h.env.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as object), can_mention_many_users_group: only(guest) } } });
    expect(await hasRealmPermission(h.env.db, h.realm.realmId, 'can_mention_many_users_group', guest.id)).toBe(true);
    await h.env.db.realm.update({ where: { id: realm.id }, data: { settings: realm.settings as object } });
  });
});
