import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const SUBSCRIPTION_FIELDS = [
  'stream_id', 'name', 'description', 'rendered_description', 'date_created', 'creator_id', 'invite_only',
  'desktop_notifications', 'email_notifications', 'wildcard_mentions_notify', 'push_notifications',
  'audible_notifications', 'pin_to_top', 'is_muted', 'in_home_view', 'is_announcement_only', 'is_web_public',
  'color', 'stream_post_policy', 'message_retention_days', 'history_public_to_subscribers', 'first_message_id',
  'folder_id', 'topics_policy', 'is_recently_active', 'stream_weekly_traffic', 'can_add_subscribers_group',
  'can_remove_subscribers_group',
];

describe('POST /users/me/subscriptions', () => {
  it('creates a public channel, subscribes the caller and announces it', async () => {
    const { member } = h.realm;
    const res = await h.api
      .post('/api/v1/users/me/subscriptions')
      .set(h.as(member))
      .type('form')
      .send({ subscriptions: JSON.stringify([{ name: 'Verona', description: 'Fair **Verona**' }]) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', subscribed: { [member.id]: ['Verona'] }, already_subscribed: {} });
    const created = (await outboxEvents(h.env, 'stream')).find((e) => e.event.op === 'create' && e.event.streams[0].name === 'Verona');
    // Everyone but the guest may see a public channel.
    expect(created!.users).toContain(h.realm.member2.id);
    expect(created!.users).not.toContain(h.realm.guest.id);
    expect(created!.event.streams[0].rendered_description).toBe('<p>Fair <strong>Verona</strong></p>');
    const add = (await outboxEvents(h.env, 'subscription')).find((e) => e.event.op === 'add' && e.users[0] === member.id);
    expect(add!.event.subscriptions[0]).toMatchObject({ name: 'Verona', subscribers: [member.id] });
  });

  it('returns every field of the subscription object', async () => {
    const res = await h.api.get('/api/v1/users/me/subscriptions').set(h.as(h.realm.member)).query({ include_subscribers: 'true' });
    expect(res.status).toBe(200);
    const sub = res.body.subscriptions.find((s: { name: string }) => s.name === 'Verona');
    for (const f of SUBSCRIPTION_FIELDS) expect(sub).toHaveProperty(f);
    expect(sub).toMatchObject({ invite_only: false, history_public_to_subscribers: true, topics_policy: 'inherit', is_muted: false, in_home_view: true, subscribers: [h.realm.member.id] });
    expect(typeof sub.can_add_subscribers_group).toBe('number');
    // Every channel's own list (read for all of them in one query): the viewer is on each.
    for (const s of res.body.subscriptions) expect(s.subscribers).toContain(h.realm.member.id);
  });

  it('reports already_subscribed, and subscribes others with principals', async () => {
    const { member, member2 } = h.realm;
    const res = await h.api
      .post('/api/v1/users/me/subscriptions')
      .set(h.as(member))
      .type('form')
      .send({ subscriptions: JSON.stringify([{ name: 'verona' }]), principals: JSON.stringify([member.id, member2.email]) });
    expect(res.body).toMatchObject({ result: 'success' });
    expect(res.body.subscribed).toEqual({ [member2.id]: ['Verona'] });
    expect(res.body.already_subscribed).toEqual({ [member.id]: ['Verona'] });
    const peer = (await outboxEvents(h.env, 'subscription')).find((e) => e.event.op === 'peer_add' && e.event.user_ids.includes(member2.id));
    expect(peer!.users).toContain(h.realm.owner.id);
  });

  it('creates a private channel visible only to its subscribers and administrators', async () => {
    const { member, member2, admin, owner } = h.realm;
    const res = await h.api
      .post('/api/v1/users/me/subscriptions')
      .set(h.as(member))
      .type('form')
      .send({ subscriptions: JSON.stringify([{ name: 'Elsinore' }]), invite_only: 'true', history_public_to_subscribers: 'false' });
    expect(res.status).toBe(200);
    const created = (await outboxEvents(h.env, 'stream')).find((e) => e.event.op === 'create' && e.event.streams[0].name === 'Elsinore');
    expect(created!.users.sort()).toEqual([owner.id, admin.id, member.id].sort());
    const list = await h.api.get('/api/v1/streams').set(h.as(member2));
    expect(list.body.streams.map((s: { name: string }) => s.name)).not.toContain('Elsinore');
    const join = await h.api.post('/api/v1/users/me/subscriptions').set(h.as(member2)).type('form').send({ subscriptions: JSON.stringify([{ name: 'Elsinore' }]) });
    expect(join.status).toBe(400);
    expect(join.body.msg).toBe('Unable to access channel (Elsinore).');
    const soft = await h.api
      .post('/api/v1/users/me/subscriptions')
      .set(h.as(member2))
      .type('form')
      .send({ subscriptions: JSON.stringify([{ name: 'Elsinore' }]), authorization_errors_fatal: 'false' });
    expect(soft.body).toMatchObject({ subscribed: {}, unauthorized: ['Elsinore'] });
  });

  it('gives new subscriptions the colour asked for, and refuses a colour that is not one before writing', async () => {
    const { member, member2 } = h.realm;
    const subscribe = (subscriptions: unknown, extra: Record<string, string> = {}) =>
      h.api.post('/api/v1/users/me/subscriptions').set(h.as(member)).type('form').send({ subscriptions: JSON.stringify(subscriptions), ...extra });
    const bad = await subscribe([{ name: 'Padua', color: '#ff0000' }, { name: 'Pisa', color: 'red' }]);
    expect(bad.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid subscriptions[1]: Value error, add.color is not a valid hex color code' });
    expect(await h.env.db.stream.count({ where: { nameKey: { in: ['padua', 'pisa'] } } })).toBe(0);
    const ok = await subscribe([{ name: 'Padua', color: '#FF0000' }], { principals: JSON.stringify([member.id, member2.id]) });
    expect(ok.body.result).toBe('success');
    const padua = await h.env.db.stream.findFirstOrThrow({ where: { nameKey: 'padua' } });
    const colors = await h.env.db.subscription.findMany({ where: { streamId: padua.id }, select: { color: true } });
    expect(colors.map((c) => c.color)).toEqual(['#FF0000', '#FF0000']);
    const added = (await outboxEvents(h.env, 'subscription')).filter((e) => e.event.op === 'add' && e.event.subscriptions[0].stream_id === padua.id);
    expect(added.map((e) => e.event.subscriptions[0].color)).toEqual(['#FF0000', '#FF0000']);
    const patch = await h.api.patch('/api/v1/users/me/subscriptions').set(h.as(member2)).type('form').send({ add: JSON.stringify([{ name: 'Verona', color: '#12' }]) });
    expect(patch.body.msg).toBe('Invalid add[0]: Value error, add.color is not a valid hex color code');
  });

  it('lets a guest join a web-public channel by themselves, and no other they are not in', async () => {
    const { guest, admin } = h.realm;
    const join = (name: string) => h.api.post('/api/v1/users/me/subscriptions').set(h.as(guest)).type('form').send({ subscriptions: JSON.stringify([{ name }]) });
    await h.createStream(admin, { name: 'Stage', isWebPublic: true }, [admin]);
    await h.createStream(admin, { name: 'Square' }, [admin]);
    expect((await join('Square')).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Unable to access channel (Square).' });
    expect((await join('Stage')).body).toMatchObject({ result: 'success', subscribed: { [guest.id]: ['Stage'] } });
    const leave = await h.api.delete('/api/v1/users/me/subscriptions').set(h.as(guest)).type('form').send({ subscriptions: JSON.stringify(['Stage']) });
    expect(leave.body).toMatchObject({ result: 'success', removed: ['Stage'] });
  });

  it('does not let a guest create channels', async () => {
    const res = await h.api.post('/api/v1/users/me/subscriptions').set(h.as(h.realm.guest)).type('form').send({ subscriptions: JSON.stringify([{ name: 'Guesthouse' }]) });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Insufficient permission');
    expect(await h.env.db.stream.count({ where: { name: 'Guesthouse' } })).toBe(0);
  });
});

describe('channel history for late subscribers', () => {
  it('hides a private channel history from before joining unless it is public to subscribers', async () => {
    const { member, member2 } = h.realm;
    const send = (to: string, content: string) =>
      h.api.post('/api/v1/messages').set(h.as(member)).type('form').send({ type: 'stream', to, topic: 'old', content });
    await h.api.post('/api/v1/users/me/subscriptions').set(h.as(member)).type('form').send({ subscriptions: JSON.stringify([{ name: 'Open book' }]), invite_only: 'true', history_public_to_subscribers: 'true' });
    await send('Elsinore', 'before you came');
    await send('Open book', 'before you came');
    for (const name of ['Elsinore', 'Open book']) {
      await h.api.post('/api/v1/users/me/subscriptions').set(h.as(member)).type('form').send({ subscriptions: JSON.stringify([{ name }]), principals: JSON.stringify([member2.id]) });
    }
    const fetch = (name: string) =>
      h.api.get('/api/v1/messages').set(h.as(member2)).query({ anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([['channel', name]]) });
    expect((await fetch('Elsinore')).body.messages).toEqual([]);
    const open = (await fetch('Open book')).body.messages;
    expect(open.map((m: { content: string }) => m.content)).toEqual(['<p>before you came</p>']);
    expect(open[0].flags).toEqual(['read', 'historical']);
    // The guest-free public channel is readable by anyone but guests.
    const guest = await h.api.get('/api/v1/messages').set(h.as(h.realm.guest)).query({ anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([['channel', 'Verona']]) });
    expect(guest.body.messages).toEqual([]);
  });
});

describe('subscription properties', () => {
  it('updates properties and emits update events to the user', async () => {
    const { member } = h.realm;
    const verona = await h.env.db.stream.findFirstOrThrow({ where: { name: 'Verona' } });
    const res = await h.api
      .post('/api/v1/users/me/subscriptions/properties')
      .set(h.as(member))
      .type('form')
      .send({ subscription_data: JSON.stringify([{ stream_id: verona.id, property: 'color', value: '#FF0000' }, { stream_id: verona.id, property: 'in_home_view', value: false }, { stream_id: verona.id, property: 'desktop_notifications', value: true }]) });
    // Only the envelope: the request is not echoed as it was before the family's feature level 111.
    expect([res.status, res.body]).toEqual([200, { result: 'success', msg: '' }]);
    const sub = await h.env.db.subscription.findFirstOrThrow({ where: { streamId: verona.id, userId: member.id } });
    expect(sub).toMatchObject({ color: '#ff0000', isMuted: true, desktopNotifications: true });
    const events = (await outboxEvents(h.env, 'subscription')).filter((e) => e.event.op === 'update');
    expect(events.map((e) => [e.event.property, e.event.value])).toEqual([['color', '#ff0000'], ['in_home_view', false], ['is_muted', true], ['desktop_notifications', true]]);
    expect(events.every((e) => e.users.length === 1 && e.users[0] === member.id)).toBe(true);
  });

  it('refuses unknown properties, bad colors and channels the user is not in, changing nothing', async () => {
    const { member, guest } = h.realm;
    const verona = await h.env.db.stream.findFirstOrThrow({ where: { name: 'Verona' } });
    const send = (user = member, data: unknown) => h.api.post('/api/v1/users/me/subscriptions/properties').set(h.as(user)).type('form').send({ subscription_data: JSON.stringify(data) });
    expect((await send(member, [{ stream_id: verona.id, property: 'pin_to_top', value: true }, { stream_id: verona.id, property: 'bogus', value: 1 }])).body.msg).toBe('Unknown subscription property: bogus');
    expect((await h.env.db.subscription.findFirstOrThrow({ where: { streamId: verona.id, userId: member.id } })).pinToTop).toBe(false);
    expect((await send(member, [{ stream_id: verona.id, property: 'color', value: 'red' }])).body.msg).toBe('color is not a valid hex color code');
    expect((await send(guest, [{ stream_id: verona.id, property: 'color', value: '#000000' }])).body.msg).toBe(`Not subscribed to channel ID ${verona.id}`);
    const legacy = await h.api.patch(`/api/v1/users/me/subscriptions/${verona.id}`).set(h.as(member)).type('form').send({ property: 'pin_to_top', value: 'true' });
    expect(legacy.status).toBe(200);
  });
});

describe('DELETE /users/me/subscriptions', () => {
  it('unsubscribes, reporting not_removed, and lets only permitted users remove others', async () => {
    const { member, member2, admin } = h.realm;
    // member created Verona and so administers it; member2 neither administers it nor may remove others.
    const other = await h.api.delete('/api/v1/users/me/subscriptions').set(h.as(member2)).type('form').send({ subscriptions: JSON.stringify(['Verona']), principals: JSON.stringify([member.id]) });
    expect(other.body.msg).toBe('Insufficient permission');
    const res = await h.api.delete('/api/v1/users/me/subscriptions').set(h.as(admin)).type('form').send({ subscriptions: JSON.stringify(['Verona']), principals: JSON.stringify([member2.id]) });
    expect(res.body).toMatchObject({ removed: ['Verona'], not_removed: [] });
    const again = await h.api.delete('/api/v1/users/me/subscriptions').set(h.as(member2)).query({ subscriptions: JSON.stringify(['Verona']) });
    expect(again.body).toMatchObject({ removed: [], not_removed: ['Verona'] });
    const missing = await h.api.delete('/api/v1/users/me/subscriptions').set(h.as(member2)).type('form').send({ subscriptions: JSON.stringify(['Nowhere']) });
    expect(missing.body.msg).toBe('Channel(s) (Nowhere) do not exist');
    const remove = (await outboxEvents(h.env, 'subscription')).find((e) => e.event.op === 'remove' && e.users[0] === member2.id);
    expect(remove!.event.subscriptions[0].name).toBe('Verona');
  });
});

describe('channels', () => {
  it('lists, gets, and looks up channels by name', async () => {
    const { member, guest } = h.realm;
    const list = await h.api.get('/api/v1/streams').set(h.as(member));
    expect(list.body.streams.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['Verona', 'Elsinore']));
    const guestList = await h.api.get('/api/v1/streams').set(h.as(guest));
    expect(guestList.body.streams).toEqual([]);
    const id = await h.api.get('/api/v1/get_stream_id').set(h.as(member)).query({ stream: 'verona' });
    const one = await h.api.get(`/api/v1/streams/${id.body.stream_id}`).set(h.as(member));
    expect(one.body.stream.name).toBe('Verona');
    const bad = await h.api.get('/api/v1/get_stream_id').set(h.as(member)).query({ stream: 'Nope' });
    expect(bad.body.msg).toBe("Invalid channel name 'Nope'");
    const notAdmin = await h.api.get('/api/v1/streams').set(h.as(member)).query({ include_all_active: 'true' });
    expect(notAdmin.body.msg).toBe('User not authorized for this query');
  });

  it('lets administrators change a channel, with stream update events', async () => {
    const { member, admin } = h.realm;
    const verona = await h.env.db.stream.findFirstOrThrow({ where: { name: 'Verona' } });
    // member created Verona and administers it; member2 may read it but not change it.
    const denied = await h.api.patch(`/api/v1/streams/${verona.id}`).set(h.as(h.realm.member2)).type('form').send({ description: 'x' });
    expect(denied.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'You do not have permission to administer this channel.' });
    const owners = await h.env.db.userGroup.findFirstOrThrow({ where: { name: 'role:owners' } });
    const res = await h.api
      .patch(`/api/v1/streams/${verona.id}`)
      .set(h.as(admin))
      .type('form')
      .send({ description: 'New *text*', topics_policy: 'disable_empty_topic', can_remove_subscribers_group: JSON.stringify({ new: owners.id }) });
    expect(res.status).toBe(200);
    const events = (await outboxEvents(h.env, 'stream')).filter((e) => e.event.op === 'update' && e.event.stream_id === verona.id);
    expect(events.map((e) => e.event.property)).toEqual(['description', 'topics_policy', 'can_remove_subscribers_group']);
    expect(events[0].event.rendered_description).toBe('<p>New <em>text</em></p>');
    const send = await h.api.post('/api/v1/messages').set(h.as(member)).type('form').send({ type: 'stream', to: 'Verona', topic: '', content: 'x' });
    expect(send.body.msg).toBe('Sending messages to the general chat is not allowed in this channel.');
    const topics = await h.api.get(`/api/v1/users/me/${verona.id}/topics`).set(h.as(member));
    expect(topics.status).toBe(200);
  });
});

describe('PATCH /users/me/subscriptions', () => {
  it('adds and removes in one request', async () => {
    const { member2 } = h.realm;
    const res = await h.api
      .patch('/api/v1/users/me/subscriptions')
      .set(h.as(member2))
      .type('form')
      .send({ add: JSON.stringify([{ name: 'Verona' }]), delete: JSON.stringify(['Open book']) });
    expect(res.body).toMatchObject({ result: 'success', subscribed: { [member2.id]: ['Verona'] }, removed: ['Open book'] });
    const none = await h.api.patch('/api/v1/users/me/subscriptions').set(h.as(member2)).type('form').send({});
    expect(none.body.code).toBe('BAD_REQUEST');
  });
});

describe('GET /users/{user_id}/subscriptions/{stream_id}', () => {
  it('tells whether a user is subscribed, and tells a guest who may not see everyone nothing about strangers', async () => {
    const { realmId, guest, member, member2 } = h.realm;
    await h.api.post('/api/v1/users/me/subscriptions').set(h.as(member)).type('form').send({ subscriptions: JSON.stringify([{ name: 'Lookup' }]) }).expect(200);
    const stream = await h.env.db.stream.findFirstOrThrow({ where: { realmId, name: 'Lookup' } });
    const ask = (as: typeof member, userId: number) => h.api.get(`/api/v1/users/${userId}/subscriptions/${stream.id}`).set(h.as(as));
    expect((await ask(member, member2.id)).body).toMatchObject({ result: 'success', is_subscribed: expect.any(Boolean) });
    expect((await ask(member, 999_999)).body).toMatchObject({ result: 'error', msg: 'No such user' });

    const members = await h.env.db.userGroup.findFirstOrThrow({ where: { realmId, name: 'role:members', isSystemGroup: true } });
    const realm = await h.env.db.realm.findUniqueOrThrow({ where: { id: realmId } });
    await h.env.db.realm.update({ where: { id: realmId }, data: { settings: { ...(realm.settings as object), can_access_all_users_group: members.id } } });
    try {
      // The guest shares no channel and no conversation with this user.
      const stranger = await h.env.db.user.create({
        data: { realmId, email: 'stranger@chat.test', deliveryEmail: 'stranger@chat.test', fullName: 'Stranger', apiKey: 'stranger-key-0123456789abcdef0123' },
      });
      const res = await ask(guest, stranger.id);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
      expect((await ask(member, stranger.id)).body).toMatchObject({ result: 'success', is_subscribed: false });
    } finally {
      await h.env.db.realm.update({ where: { id: realmId }, data: { settings: realm.settings as object } });
    }
  });
});
