/**
 * PATCH /streams/{id} with every group setting of a channel the family's API has at feature
 * level 420: the {"new", "old"} request shape, the values a setting accepts, who may change
 * which setting, what is stored and what GET /streams, GET /users/me/subscriptions and the
 * `stream` update event then say.
 */
import { STREAM_GROUP_SETTING_NAMES } from '@chat/wire';
import type { SeededUser } from '@chat/testing';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let sys: Record<string, number>;
let team = 0;
let verona = 0;
let secret = 0;

const NEW_SETTINGS = [
  'can_administer_channel_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_resolve_topics_group',
  'can_subscribe_group',
] as const;

beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2, moderator } = h.realm;
  const groups = await h.env.db.userGroup.findMany({ where: { realmId: h.realm.realmId, isSystemGroup: true } });
  sys = Object.fromEntries(groups.map((g) => [g.name.replace('role:', ''), g.id]));
  team = (await h.env.db.userGroup.create({ data: { realmId: h.realm.realmId, name: 'team', members: { create: [{ userId: member2.id }] } } })).id;
  verona = await h.createStream(owner, { name: 'Verona' }, [owner, member, member2, moderator]);
  secret = await h.createStream(owner, { name: 'Secret', inviteOnly: true }, [owner, member]);
});
afterAll(() => h?.close());

const j = (v: unknown) => JSON.stringify(v);
const patch = (user: SeededUser, streamId: number, body: Record<string, unknown>) =>
  h.api
    .patch(`/api/v1/streams/${streamId}`)
    .set(h.as(user))
    .type('form')
    .send(Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : j(v)])));
const stored = async (streamId: number) => h.env.db.stream.findUniqueOrThrow({ where: { id: streamId } });
const updates = async (streamId: number, property: string) =>
  (await outboxEvents(h.env, 'stream')).filter((e) => e.event.op === 'update' && e.event.stream_id === streamId && e.event.property === property);
const channelOf = async (user: SeededUser, streamId: number) =>
  (await h.api.get('/api/v1/streams').set(h.as(user))).body.streams.find((s: { stream_id: number }) => s.stream_id === streamId);

describe('every group setting of a channel', () => {
  it.each(NEW_SETTINGS)('%s is stored, read back and announced', async (name) => {
    const { admin, member } = h.realm;
    const value = { direct_members: [member.id], direct_subgroups: [team] };
    const res = await patch(admin, verona, { [name]: { new: value } });
    expect(res.body).toMatchObject({ result: 'success' });
    expect(res.body.ignored_parameters_unsupported).toBeUndefined();
    expect((await channelOf(member, verona))[name]).toEqual(value);
    const subs = (await h.api.get('/api/v1/users/me/subscriptions').set(h.as(member))).body.subscriptions;
    expect(subs.find((s: { stream_id: number }) => s.stream_id === verona)[name]).toEqual(value);
    const [event] = await updates(verona, name);
    expect(event!.event).toEqual({ type: 'stream', op: 'update', stream_id: verona, name: 'Verona', property: name, value });
    // Everyone who may see the public channel hears of it.
    expect(event!.users).toEqual(expect.arrayContaining([member.id, h.realm.member2.id, admin.id]));

    // Back to a system group, guarded by `old` as clients send it (members in any order).
    const back = await patch(admin, verona, { [name]: { new: sys.nobody, old: { direct_members: [member.id], direct_subgroups: [team] } } });
    expect(back.body.result).toBe('success');
    expect((await channelOf(member, verona))[name]).toBe(sys.nobody);
  });

  it('names every setting the family lists, and nothing more', () => {
    expect([...STREAM_GROUP_SETTING_NAMES].sort()).toEqual(
      ['can_add_subscribers_group', 'can_remove_subscribers_group', 'can_send_message_group', ...NEW_SETTINGS].sort(),
    );
  });

  it('stores one subgroup alone as that group and an empty group as nobody', async () => {
    const { admin } = h.realm;
    expect((await patch(admin, verona, { can_subscribe_group: { new: { direct_members: [], direct_subgroups: [team] } } })).body.result).toBe('success');
    expect((await stored(verona)).canSubscribeGroup).toBe(team);
    expect((await updates(verona, 'can_subscribe_group')).at(-1)!.event.value).toBe(team);
    expect((await patch(admin, verona, { can_subscribe_group: { new: { direct_members: [], direct_subgroups: [] } } })).body.result).toBe('success');
    expect((await stored(verona)).canSubscribeGroup).toBe(sys.nobody);
  });

  it('refuses a stale `old` and does nothing for a value the setting already has', async () => {
    const { admin } = h.realm;
    const stale = await patch(admin, verona, { can_resolve_topics_group: { new: sys.members, old: sys.moderators } });
    expect(stale.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: "'old' value does not match the expected value." });
    const before = (await updates(verona, 'can_resolve_topics_group')).length;
    // The default (nobody) is the current value, whether sent as its id or as an empty group.
    expect((await patch(admin, verona, { can_resolve_topics_group: { new: sys.nobody, old: { direct_members: [], direct_subgroups: [] } } })).body.result).toBe('success');
    expect((await updates(verona, 'can_resolve_topics_group')).length).toBe(before);
  });

  it('refuses values the setting does not accept, changing nothing', async () => {
    const { admin, member } = h.realm;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ can_administer_channel_group: { new: sys.everyone } }, "'can_administer_channel_group' setting cannot be set to 'role:everyone' group."],
      [{ can_subscribe_group: { new: sys.everyone } }, "'can_subscribe_group' setting cannot be set to 'role:everyone' group."],
      [{ can_move_messages_within_channel_group: { new: sys.internet } }, "'can_move_messages_within_channel_group' setting cannot be set to 'role:internet' group."],
      [{ can_resolve_topics_group: { new: 999_999 } }, 'Invalid user group'],
      [{ can_delete_own_message_group: { new: { direct_members: [999_999], direct_subgroups: [] } } }, 'Invalid user ID: 999999'],
      [{ can_delete_any_message_group: { new: { direct_members: [member.id], direct_subgroups: [999_999] } } }, 'Invalid user group ID: 999999'],
      [{ can_move_messages_out_of_channel_group: { new: 'everyone' } }, 'Invalid can_move_messages_out_of_channel_group'],
      [{ can_subscribe_group: { new: sys.members }, can_administer_channel_group: { new: sys.everyone } }, "'can_administer_channel_group' setting cannot be set to 'role:everyone' group."],
    ];
    for (const [body, msg] of cases) {
      const res = await patch(admin, verona, body);
      expect({ body, msg: res.body.msg }).toEqual({ body, msg });
    }
    // The last request's valid can_subscribe_group went with the invalid one.
    expect((await stored(verona)).canSubscribeGroup).toBe(sys.nobody);
    // Everyone is fine where the family allows it.
    expect((await patch(admin, verona, { can_delete_own_message_group: { new: sys.everyone } })).body.result).toBe('success');
    const deactivated = await h.env.db.userGroup.create({ data: { realmId: h.realm.realmId, name: 'gone', deactivated: true } });
    expect((await patch(admin, verona, { can_resolve_topics_group: { new: deactivated.id } })).body.msg).toBe('User group is deactivated.');
    // The same checker as realm and user group settings: a deactivated subgroup or person is refused.
    const anonymous = (members: number[], subgroups: number[]) => ({ can_resolve_topics_group: { new: { direct_members: members, direct_subgroups: subgroups } } });
    expect((await patch(admin, verona, anonymous([h.realm.member.id], [deactivated.id]))).body.msg).toBe('User group is deactivated.');
    const leaver = await h.env.db.user.update({ where: { id: h.realm.member2.id }, data: { isActive: false } });
    expect((await patch(admin, verona, anonymous([leaver.id], []))).body.msg).toBe(`Invalid user ID: ${leaver.id}`);
    await h.env.db.user.update({ where: { id: leaver.id }, data: { isActive: true } });
  });
});

describe('who may change a channel', () => {
  it('lets the members of can_administer_channel_group administer it, and no one else but organization administrators', async () => {
    const { admin, member, member2, moderator, guest } = h.realm;
    const refused = { result: 'error', code: 'BAD_REQUEST', msg: 'You do not have permission to administer this channel.' };
    expect((await patch(member, verona, { description: 'mine' })).body).toEqual(refused);
    expect((await patch(admin, verona, { can_administer_channel_group: { new: { direct_members: [member.id, guest.id], direct_subgroups: [team] } } })).body.result).toBe('success');

    expect((await patch(member, verona, { description: 'Fair Verona', new_name: 'Verona!' })).body.result).toBe('success');
    expect(await stored(verona)).toMatchObject({ description: 'Fair Verona', name: 'Verona!' });
    // Through a user group too.
    expect((await patch(member2, verona, { can_send_message_group: { new: sys.members } })).body.result).toBe('success');
    expect((await patch(moderator, verona, { description: 'no' })).body).toEqual(refused);
    // A guest never administers a channel, whatever the group says; one not subscribed learns nothing of it.
    expect((await patch(guest, verona, { description: 'guest' })).body.msg).toBe('Invalid channel ID');
    await h.env.db.subscription.create({ data: { userId: guest.id, streamId: verona } });
    expect((await patch(guest, verona, { description: 'guest' })).body).toEqual(refused);
    // What stays with the organization: default channels, retention; deleting rules need the realm's say.
    expect((await patch(member, verona, { is_default_stream: 'true' })).body.msg).toBe('Must be an organization administrator');
    expect((await patch(member, verona, { message_retention_days: '5' })).body.msg).toBe('Must be an organization owner');
    expect((await patch(member, verona, { can_delete_any_message_group: { new: sys.moderators } })).body.msg).toBe('Insufficient permission');
    expect((await patch(moderator, verona, { can_delete_any_message_group: { new: sys.moderators } })).body.msg).toBe(refused.msg);
    expect((await patch(admin, verona, { can_delete_any_message_group: { new: sys.moderators } })).body.result).toBe('success');
  });

  it('lets a channel administrator archive and unarchive the channel', async () => {
    const { member } = h.realm;
    expect((await h.api.delete(`/api/v1/streams/${verona}`).set(h.as(member))).body.result).toBe('success');
    expect((await stored(verona)).isArchived).toBe(true);
    // Queues without archived_channels get a delete naming the channel by id only, as the family's
    // (whole channel objects are gone from it since feature level 343).
    const archived = (await outboxEvents(h.env, 'stream')).filter((e) => e.event.property === 'is_archived' && e.event.stream_id === verona).at(-1)!;
    expect(archived.fallback_event).toEqual({ type: 'stream', op: 'delete', streams: [{ stream_id: verona }], stream_ids: [verona] });
    expect((await patch(member, verona, { is_archived: 'false' })).body.result).toBe('success');
    expect((await stored(verona)).isArchived).toBe(false);
    expect((await h.api.delete(`/api/v1/streams/${verona}`).set(h.as(h.realm.moderator))).body.msg).toBe('You do not have permission to administer this channel.');
  });

  it('needs access to a private channel\'s content to hand that access out, or to change its privacy', async () => {
    const { admin, member2 } = h.realm;
    // The organization administrator is not subscribed to Secret.
    const needed = 'Channel content access is required.';
    expect((await patch(admin, secret, { can_subscribe_group: { new: sys.moderators } })).body.msg).toBe(needed);
    expect((await patch(admin, secret, { can_add_subscribers_group: { new: sys.moderators } })).body.msg).toBe(needed);
    expect((await patch(admin, secret, { is_private: 'false' })).body.msg).toBe(needed);
    // The rest needs administering only.
    expect((await patch(admin, secret, { can_administer_channel_group: { new: { direct_members: [member2.id], direct_subgroups: [] } } })).body.result).toBe('success');
    // A channel administrator needs no subscription for the rest.
    expect((await patch(member2, secret, { can_resolve_topics_group: { new: sys.members } })).body.result).toBe('success');
    expect((await patch(member2, secret, { can_subscribe_group: { new: sys.members } })).body.msg).toBe(needed);
    const event = (await updates(secret, 'can_resolve_topics_group')).at(-1)!;
    // Only those who may see the private channel hear of it.
    expect(event.users).not.toContain(h.realm.member2.id);
    expect(event.users).toEqual(expect.arrayContaining([h.realm.owner.id, h.realm.member.id, admin.id]));
  });
});

describe('creating a channel with group settings', () => {
  it('stores them, checked as a change would be', async () => {
    const { member, moderator } = h.realm;
    const res = await h.api.post('/api/v1/channels/create').set(h.as(member)).type('form').send({
      name: 'Made',
      subscribers: j([member.id]),
      can_administer_channel_group: j({ direct_members: [member.id], direct_subgroups: [] }),
      can_subscribe_group: j(team),
    });
    expect(res.body).toMatchObject({ result: 'success' });
    expect(await stored(res.body.id)).toMatchObject({ canAdministerChannelGroup: { direct_members: [member.id], direct_subgroups: [] }, canSubscribeGroup: team });
    const refused = await h.api.post('/api/v1/channels/create').set(h.as(member)).type('form')
      .send({ name: 'Nope', subscribers: '[]', can_subscribe_group: j(sys.everyone) });
    expect(refused.body.msg).toBe("'can_subscribe_group' setting cannot be set to 'role:everyone' group.");
    const deleting = await h.api.post('/api/v1/users/me/subscriptions').set(h.as(member)).type('form')
      .send({ subscriptions: j([{ name: 'Nope' }]), can_delete_own_message_group: j(sys.members) });
    expect(deleting.body.msg).toBe('Insufficient permission');
    const byModerator = await h.api.post('/api/v1/users/me/subscriptions').set(h.as(moderator)).type('form')
      .send({ subscriptions: j([{ name: 'Moderated' }]), can_delete_own_message_group: j(sys.members) });
    expect(byModerator.body.result).toBe('success');
    expect(await h.env.db.stream.count({ where: { nameKey: 'nope' } })).toBe(0);
  });
});
