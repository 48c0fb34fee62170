/** POST /channels/create, the bulk PATCH /users/me/subscriptions answer, and the legacy topic-mute path. */
import { flagBit } from '@chat/contracts';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const create = (user: Parameters<Harness['as']>[0], body: Record<string, string>) =>
  h.api.post('/api/v1/channels/create').set(h.as(user)).type('form').send(body);

describe('POST /channels/create', () => {
  it('creates the channel with its settings, subscribes the named users and answers its id', async () => {
    const { member, member2, owner } = h.realm;
    const res = await create(member, {
      name: ' Sonnets ',
      description: 'All **fourteen** lines',
      subscribers: JSON.stringify([member.id, member2.id]),
      invite_only: 'true',
      history_public_to_subscribers: 'true',
      announce: 'true',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const stream = await h.env.db.stream.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stream).toMatchObject({ name: 'Sonnets', inviteOnly: true, historyPublicToSubscribers: true, creatorId: member.id });
    const subs = await h.env.db.subscription.findMany({ where: { streamId: stream.id, active: true }, orderBy: { userId: 'asc' } });
    expect(subs.map((s) => s.userId)).toEqual([member.id, member2.id].sort((a, b) => a - b));
    // A private channel is announced to its subscribers and the administrators only.
    const created = (await outboxEvents(h.env, 'stream')).find((e) => e.event.op === 'create' && e.event.streams[0].stream_id === stream.id)!;
    expect(created.users).toEqual(expect.arrayContaining([member.id, member2.id, owner.id]));
    expect(created.users).not.toContain(h.realm.guest.id);
    const adds = (await outboxEvents(h.env, 'subscription')).filter((e) => e.event.op === 'add' && e.event.subscriptions[0].stream_id === stream.id);
    expect(adds.map((e) => e.users[0]).sort()).toEqual([member.id, member2.id].sort());
  });

  it('creates a channel without subscribers and makes it default when asked by an administrator', async () => {
    const res = await create(h.realm.admin, { name: 'Lobby', subscribers: '[]', is_default_stream: 'true' });
    expect(res.status).toBe(200);
    expect(await h.env.db.subscription.count({ where: { streamId: res.body.id } })).toBe(0);
    const defaults = (await outboxEvents(h.env, 'default_streams')).at(-1)!;
    expect(defaults.event.default_streams).toContain(res.body.id);
  });

  it('refuses a taken name (any case) with 409 CHANNEL_ALREADY_EXISTS and writes nothing', async () => {
    const before = await h.env.db.stream.count();
    const res = await create(h.realm.member, { name: 'sonnets', subscribers: '[]' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ result: 'error', code: 'CHANNEL_ALREADY_EXISTS', msg: "Channel 'sonnets' already exists", channel_name: 'sonnets' });
    expect(await h.env.db.stream.count()).toBe(before);
  });

  it('refuses guests, non-administrators making defaults, bad names and unknown subscribers', async () => {
    const cases: Array<[Parameters<Harness['as']>[0], Record<string, string>, string]> = [
      [h.realm.guest, { name: 'G', subscribers: '[]' }, 'Not allowed for guest users'],
      [h.realm.member, { name: 'D', subscribers: '[]', is_default_stream: 'true' }, 'Insufficient permission'],
      [h.realm.admin, { name: 'P', subscribers: '[]', is_default_stream: 'true', invite_only: 'true' }, 'A default channel cannot be private.'],
      [h.realm.member, { name: '   ', subscribers: '[]' }, "Channel name can't be empty."],
      [h.realm.member, { name: 'Ghosts', subscribers: '[999999]' }, 'No such user'],
      [h.realm.member, { name: 'Ghosts', subscribers: '[]', topics_policy: 'sometimes' }, 'Invalid topics_policy'],
    ];
    for (const [user, body, msg] of cases) {
      const res = await create(user, body);
      expect({ status: res.status, msg: res.body.msg }).toEqual({ status: 400, msg });
    }
    const missing = await create(h.realm.member, { name: 'Ghosts' });
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'subscribers' argument" });
    expect(await h.env.db.stream.count({ where: { nameKey: 'ghosts' } })).toBe(0);
  });
});

describe('announce', () => {
  it('tells the new-channel announcements channel, through both creation paths', async () => {
    const { owner, member } = h.realm;
    const news = await h.createStream(owner, { name: 'News' }, [owner, member]);
    const realm = await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    await h.env.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as object), new_stream_announcements_stream_id: news } } });
    const name = (await h.env.db.user.findUniqueOrThrow({ where: { id: member.id } })).fullName;
    const created = await create(member, { name: 'Plays', subscribers: JSON.stringify([member.id]), announce: 'true' });
    expect(created.status).toBe(200);
    let notice = await h.env.db.message.findFirstOrThrow({ where: { streamId: news }, orderBy: { id: 'desc' } });
    expect(notice).toMatchObject({ topic: 'new channels', content: `@_**${name}|${member.id}** created a new channel #**Plays**.` });
    // The creator's copy starts read; other subscribers' copies do not.
    const copies = await h.env.db.userMessage.findMany({ where: { messageId: notice.id }, orderBy: { userId: 'asc' } });
    expect(copies.find((c) => c.userId === member.id)!.flags & flagBit('read')).toBe(flagBit('read'));
    expect(copies.find((c) => c.userId === owner.id)!.flags & flagBit('read')).toBe(0n);
    await h.api
      .post('/api/v1/users/me/subscriptions')
      .set(h.as(member))
      .type('form')
      .send({ subscriptions: JSON.stringify([{ name: 'Poems' }, { name: 'Songs' }, { name: 'Plays' }]), announce: 'true' });
    notice = await h.env.db.message.findFirstOrThrow({ where: { streamId: news }, orderBy: { id: 'desc' } });
    expect(notice.content).toBe(`@_**${name}|${member.id}** created the following channels: #**Poems**, #**Songs**.`);
    // Without announce, or without subscribers, nothing is posted.
    const before = await h.env.db.message.count({ where: { streamId: news } });
    await create(member, { name: 'Quiet', subscribers: JSON.stringify([member.id]) });
    await create(member, { name: 'Empty', subscribers: '[]', announce: 'true' });
    expect(await h.env.db.message.count({ where: { streamId: news } })).toBe(before);
  });
});

describe('PATCH /users/me/subscriptions', () => {
  it('answers subscribed, already_subscribed, removed and not_removed whatever was asked', async () => {
    const { member } = h.realm;
    const onlyAdd = await h.api.patch('/api/v1/users/me/subscriptions').set(h.as(member)).type('form').send({ add: JSON.stringify([{ name: 'Quartos' }]) });
    expect(onlyAdd.body).toMatchObject({ result: 'success', subscribed: { [member.id]: ['Quartos'] }, already_subscribed: {}, removed: [], not_removed: [] });
    const onlyDelete = await h.api.patch('/api/v1/users/me/subscriptions').set(h.as(member)).type('form').send({ delete: JSON.stringify(['Quartos', 'Lobby']) });
    expect(onlyDelete.body).toMatchObject({ result: 'success', subscribed: {}, already_subscribed: {}, removed: ['Quartos'], not_removed: ['Lobby'] });
  });

  it('undoes the additions when a removal is refused', async () => {
    const res = await h.api
      .patch('/api/v1/users/me/subscriptions')
      .set(h.as(h.realm.member))
      .type('form')
      .send({ add: JSON.stringify([{ name: 'Folios' }]), delete: JSON.stringify(['Nowhere']) });
    expect(res.body).toMatchObject({ result: 'error', msg: 'Channel(s) (Nowhere) do not exist' });
    expect(await h.env.db.stream.count({ where: { nameKey: 'folios' } })).toBe(0);
  });
});

describe('PATCH /users/me/subscriptions/muted_topics', () => {
  const mute = (user: Parameters<Harness['as']>[0], body: Record<string, string>) =>
    h.api.patch('/api/v1/users/me/subscriptions/muted_topics').set(h.as(user)).type('form').send(body);

  it('mutes and unmutes by channel id or name, with the muted_topics and user_topic events', async () => {
    const { member } = h.realm;
    const stream = await h.env.db.stream.findFirstOrThrow({ where: { nameKey: 'sonnets' } });
    expect((await mute(member, { stream_id: String(stream.id), topic: 'eighteen', op: 'add' })).status).toBe(200);
    const row = await h.env.db.userTopic.findFirstOrThrow({ where: { userId: member.id, streamId: stream.id } });
    expect(row.visibilityPolicy).toBe(1);
    const events = await outboxEvents(h.env, 'user_topic');
    expect(events.at(-1)).toMatchObject({ users: [member.id], event: { stream_id: stream.id, topic_name: 'eighteen', visibility_policy: 1 } });
    expect((await outboxEvents(h.env, 'muted_topics')).at(-1)!.event.muted_topics).toEqual([['Sonnets', 'eighteen', expect.any(Number)]]);
    // Muting again succeeds, as the family's server does since visibility policies.
    expect((await mute(member, { stream_id: String(stream.id), topic: 'eighteen', op: 'add' })).status).toBe(200);
    expect((await mute(member, { stream: 'Sonnets', topic: 'eighteen', op: 'remove' })).status).toBe(200);
    expect(await h.env.db.userTopic.count({ where: { userId: member.id, streamId: stream.id } })).toBe(0);
    expect((await outboxEvents(h.env, 'user_topic')).at(-1)!.event.visibility_policy).toBe(0);
  });

  it("gives the family's errors", async () => {
    const { member, guest } = h.realm;
    const stream = await h.env.db.stream.findFirstOrThrow({ where: { nameKey: 'sonnets' } });
    const cases: Array<[Parameters<Harness['as']>[0], Record<string, string>, string]> = [
      [member, { topic: 't', op: 'add' }, "Missing 'stream_id' argument"],
      [member, { stream: 'Sonnets', stream_id: String(stream.id), topic: 't', op: 'add' }, 'Unsupported parameter combination: stream_id, stream'],
      [member, { stream: 'Sonnets', topic: 't', op: 'toggle' }, 'Invalid op'],
      [guest, { stream_id: String(stream.id), topic: 't', op: 'add' }, 'Invalid channel ID'],
      [guest, { stream: 'Sonnets', topic: 't', op: 'add' }, "Invalid channel name 'Sonnets'"],
      [member, { stream_id: '999999', topic: 't', op: 'remove' }, 'Topic is not muted'],
    ];
    for (const [user, body, msg] of cases) {
      const res = await mute(user, body);
      expect({ status: res.status, msg: res.body.msg }).toEqual({ status: 400, msg });
    }
  });
});

describe('GET /users/{user_id}/channels', () => {
  it("lists the user's channels the caller may know of", async () => {
    const { member, member2, admin, guest } = h.realm;
    const secret = await h.createStream(member2, { name: 'Secret', inviteOnly: true }, [member2]);
    const open = await h.createStream(member2, { name: 'Open' }, [member2]);
    const web = await h.createStream(member2, { name: 'Webbed', isWebPublic: true }, [member2]);
    const sonnets = (await h.env.db.stream.findFirstOrThrow({ where: { nameKey: 'sonnets' } })).id;
    const ids = async (user: Parameters<Harness['as']>[0]) => {
      const res = await h.api.get(`/api/v1/users/${member2.id}/channels`).set(h.as(user));
      expect(res.status).toBe(200);
      return res.body.subscribed_channel_ids as number[];
    };
    // member shares Sonnets (private) with member2; Secret stays hidden from them.
    expect(await ids(member)).toEqual([sonnets, open, web].sort((a, b) => a - b));
    expect(await ids(admin)).toEqual([sonnets, secret, open, web].sort((a, b) => a - b));
    expect(await ids(guest)).toEqual([web]);
    expect(await ids(member2)).toEqual([sonnets, secret, open, web].sort((a, b) => a - b));
  });

  it('answers No such user for an unknown id', async () => {
    const res = await h.api.get('/api/v1/users/999999/channels').set(h.as(h.realm.member));
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'No such user' });
  });
});
