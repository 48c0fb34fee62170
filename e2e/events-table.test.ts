/**
 * The spec's event table, end to end, for what the users, uploads and push services change:
 * every service as its own process, one event queue per seeded user, and for each kind of
 * change, made through the public API by someone allowed to make it, exactly the users who may
 * see it receive its event, once, with the spec's payload. Where the spec is silent, recipients
 * follow the API family: realm-wide things to every active user, people to those who can access
 * them, bots to administrators and the bot's owner, personal things to their owner.
 * Channels and messages: events-table-channels.test.ts.
 */
import { EVERYONE, EventQueue, EventTable, isType, NOT, only, PNG, type Event } from './lib/event-table';

const t = new EventTable();

/** A system group's id, by name. */
async function systemGroup(name: string): Promise<number> {
  const groups = (await t.ok('GET', '/user_groups', 'admin')).user_groups as Array<{ id: number; name: string }>;
  return groups.find((g) => g.name === name)!.id;
}

/** A user_group event adding or removing members of one group. */
const inGroup = (op: string, groupId: number) => (e: Event) => e.type === 'user_group' && e.op === op && e.group_id === groupId;

beforeAll(() => t.start(), 180000);
afterAll(() => t.stop());

describe('personal changes reach their owner only', () => {
  it('alert_words', async () => {
    const got = await t.after(() => t.ok('POST', '/users/me/alert_words', 'member', { alert_words: ['yorick'] }));
    expect(t.expectTo(got, ['member'], isType('alert_words')).member).toEqual({ type: 'alert_words', id: expect.any(Number), alert_words: ['yorick'] });
    const removed = await t.after(() => t.ok('DELETE', '/users/me/alert_words', 'member', { alert_words: ['yorick'] }));
    expect(t.expectTo(removed, ['member'], isType('alert_words')).member.alert_words).toEqual([]);
  });

  it('user_settings, with language_name for default_language', async () => {
    const got = await t.after(() => t.ok('PATCH', '/settings', 'member2', { enter_sends: true }));
    expect(t.expectTo(got, ['member2'], isType('user_settings')).member2).toEqual({
      type: 'user_settings', id: expect.any(Number), op: 'update', property: 'enter_sends', value: true,
    });
    const lang = await t.after(() => t.ok('PATCH', '/settings', 'guest', { default_language: 'de' }));
    const e = t.expectTo(lang, ['guest'], isType('user_settings')).guest;
    expect(e).toMatchObject({ op: 'update', property: 'default_language', value: 'de', language_name: expect.any(String) });
    expect(e.language_name.length).toBeGreaterThan(0);
  });

  it('navigation_view add, update and remove', async () => {
    const fragment = 'narrow/has/link';
    const added = await t.after(() => t.ok('POST', '/navigation_views', 'member', { fragment, is_pinned: true, name: 'Links' }));
    expect(t.expectTo(added, ['member'], isType('navigation_view', 'add')).member.navigation_view).toEqual({ fragment, is_pinned: true, name: 'Links' });
    const updated = await t.after(() => t.ok('PATCH', `/navigation_views/${encodeURIComponent(fragment)}`, 'member', { is_pinned: false }));
    expect(t.expectTo(updated, ['member'], isType('navigation_view', 'update')).member).toMatchObject({ fragment, data: { is_pinned: false } });
    const removed = await t.after(() => t.ok('DELETE', `/navigation_views/${encodeURIComponent(fragment)}`, 'member'));
    expect(t.expectTo(removed, ['member'], isType('navigation_view', 'remove')).member).toMatchObject({ fragment });
  });

  it('saved_snippets add, update and remove', async () => {
    let id = 0;
    const added = await t.after(async () => (id = (await t.ok('POST', '/saved_snippets', 'admin', { title: 'Greeting', content: 'Good morrow' })).saved_snippet_id));
    expect(t.expectTo(added, ['admin'], isType('saved_snippets', 'add')).admin.saved_snippet).toEqual({
      id, title: 'Greeting', content: 'Good morrow', date_created: expect.any(Number),
    });
    const updated = await t.after(() => t.ok('PATCH', `/saved_snippets/${id}`, 'admin', { content: 'Good night' }));
    expect(t.expectTo(updated, ['admin'], isType('saved_snippets', 'update')).admin.saved_snippet).toMatchObject({ id, title: 'Greeting', content: 'Good night' });
    const removed = await t.after(() => t.ok('DELETE', `/saved_snippets/${id}`, 'admin'));
    expect(t.expectTo(removed, ['admin'], isType('saved_snippets', 'remove')).admin.saved_snippet_id).toBe(id);
  });

  it('drafts add, update and remove', async () => {
    let id = 0;
    const draft = { type: '', to: [], topic: '', content: 'To be, or not' };
    const added = await t.after(async () => ([id] = (await t.ok('POST', '/drafts', 'moderator', { drafts: [draft] })).ids));
    expect(t.expectTo(added, ['moderator'], isType('drafts', 'add')).moderator.drafts).toEqual([{ ...draft, id, timestamp: expect.any(Number) }]);
    const updated = await t.after(() => t.ok('PATCH', `/drafts/${id}`, 'moderator', { draft: { ...draft, content: 'To be' } }));
    expect(t.expectTo(updated, ['moderator'], isType('drafts', 'update')).moderator.draft).toMatchObject({ id, content: 'To be' });
    const removed = await t.after(() => t.ok('DELETE', `/drafts/${id}`, 'moderator'));
    expect(t.expectTo(removed, ['moderator'], isType('drafts', 'remove')).moderator.draft_id).toBe(id);
  });

  it('device', async () => {
    let deviceId = 0;
    const got = await t.after(async () => (deviceId = (await t.ok('POST', '/register_client_device', 'member2')).device_id));
    expect(t.expectTo(got, ['member2'], isType('device')).member2).toEqual({ type: 'device', id: expect.any(Number), op: 'add', device_id: deviceId });
  });
});

describe('realm-wide changes reach every active user', () => {
  it('realm', async () => {
    const got = await t.after(() => t.ok('PATCH', '/realm', 'admin', { name: 'Elsinore' }));
    const e = t.expectTo(got, EVERYONE, isType('realm', 'update'));
    expect(e.guest).toEqual({ type: 'realm', id: expect.any(Number), op: 'update', property: 'name', value: 'Elsinore' });
  });

  it('realm_user_settings_defaults', async () => {
    const got = await t.after(() => t.ok('PATCH', '/realm/user_settings_defaults', 'admin', { twenty_four_hour_time: true }));
    const e = t.expectTo(got, EVERYONE, isType('realm_user_settings_defaults'));
    expect(e.bot).toEqual({ type: 'realm_user_settings_defaults', id: expect.any(Number), op: 'update', property: 'twenty_four_hour_time', value: true });
  });

  it('channel_folder add and update', async () => {
    let id = 0;
    const added = await t.after(async () => (id = (await t.ok('POST', '/channel_folders/create', 'admin', { name: 'Castle', description: 'The *rooms*' })).channel_folder_id));
    expect(t.expectTo(added, EVERYONE, isType('channel_folder', 'add')).member.channel_folder).toEqual({
      id, name: 'Castle', description: 'The *rooms*', rendered_description: expect.stringContaining('<em>rooms</em>'),
      order: expect.any(Number), date_created: expect.any(Number), creator_id: t.idOf('admin'), is_archived: false,
    });
    const updated = await t.after(() => t.ok('PATCH', `/channel_folders/${id}`, 'admin', { name: 'Keep' }));
    expect(t.expectTo(updated, EVERYONE, isType('channel_folder', 'update')).guest).toMatchObject({ channel_folder_id: id, data: { name: 'Keep' } });
  });

  it('realm_linkifiers, only to queues that understand URL templates', async () => {
    const got = await t.after(() => t.ok('POST', '/realm/filters', 'admin', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' }));
    const e = t.expectTo(got, EVERYONE, isType('realm_linkifiers'));
    expect(e.member.realm_linkifiers).toEqual([expect.objectContaining({ id: expect.any(Number), pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' })]);
    expect(got.legacy!.filter(isType('realm_linkifiers'))).toEqual([]);
  });

  it('realm_emoji add, and the whole set as update for older clients', async () => {
    const got = await t.after(() => t.ok('POST', '/realm/emoji/skull', 'member', {}, { files: [{ field: 'file', name: 'skull.png', type: 'image/png', data: PNG }] }));
    const e = t.expectTo(got, EVERYONE, isType('realm_emoji'));
    expect(e.guest).toMatchObject({ op: 'add', emoji: { id: expect.any(String), name: 'skull', source_url: expect.any(String), deactivated: false, author_id: t.idOf('member') } });
    const legacy = only(got, 'legacy', isType('realm_emoji'));
    expect(legacy).toMatchObject({ op: 'update', realm_emoji: { [e.guest.emoji.id]: expect.objectContaining({ name: 'skull' }) } });
  });

  it('invites_changed to administrators only', async () => {
    const got = await t.after(() => t.ok('POST', '/invites/multiuse', 'admin', { invite_expires_in_minutes: 60 }));
    expect(t.expectTo(got, ['owner', 'admin'], isType('invites_changed')).owner).toEqual({ type: 'invites_changed', id: expect.any(Number) });
  });

  it('custom_profile_fields', async () => {
    const got = await t.after(() => t.ok('POST', '/realm/profile_fields', 'admin', { name: 'Title', field_type: 1 }));
    const e = t.expectTo(got, EVERYONE, isType('custom_profile_fields'));
    expect(e.bot.fields).toEqual([expect.objectContaining({ id: expect.any(Number), name: 'Title', type: 1 })]);
  });
});

describe('changes to people reach those who can access them', () => {
  let fieldId = 0;
  let botId = 0;

  it('realm_user full_name and role, with the system groups as user_group events', async () => {
    const named = await t.after(() => t.ok('PATCH', `/users/${t.idOf('member2')}`, 'admin', { full_name: 'Othello the Moor' }));
    expect(t.expectTo(named, EVERYONE, isType('realm_user', 'update')).guest.person).toEqual({ user_id: t.idOf('member2'), full_name: 'Othello the Moor' });
    const promoted = await t.after(() => t.ok('PATCH', `/users/${t.idOf('member2')}`, 'owner', { role: 300 }));
    expect(t.expectTo(promoted, EVERYONE, isType('realm_user', 'update')).member.person).toEqual({ user_id: t.idOf('member2'), role: 300 });
    // The role's groups change, and a moderator is a full member through subgroups, no longer directly.
    const added = t.expectTo(promoted, EVERYONE, inGroup('add_members', await systemGroup('role:moderators')));
    const removed = t.expectTo(promoted, EVERYONE, inGroup('remove_members', await systemGroup('role:members')));
    const notDirectlyFull = t.expectTo(promoted, EVERYONE, inGroup('remove_members', await systemGroup('role:fullmembers')));
    expect(added.bot).toEqual({ type: 'user_group', id: expect.any(Number), op: 'add_members', group_id: expect.any(Number), user_ids: [t.idOf('member2')] });
    expect(removed.bot).toMatchObject({ user_ids: [t.idOf('member2')] });
    expect(notDirectlyFull.bot).toMatchObject({ user_ids: [t.idOf('member2')] });
    expect(t.receivers(promoted, isType('user_group'))).toHaveLength(3 * EVERYONE.length);
    await t.after(() => t.ok('PATCH', `/users/${t.idOf('member2')}`, 'owner', { role: 400 }));
  });

  it('timezone: user_settings to the user, realm_user to everyone', async () => {
    const got = await t.after(() => t.ok('PATCH', '/settings', 'member', { timezone: 'Europe/Copenhagen' }));
    expect(t.expectTo(got, ['member'], isType('user_settings')).member).toMatchObject({ property: 'timezone', value: 'Europe/Copenhagen' });
    expect(t.expectTo(got, EVERYONE, isType('realm_user', 'update')).admin.person).toEqual({
      user_id: t.idOf('member'), email: t.user('member').email, timezone: 'Europe/Copenhagen',
    });
  });

  it('user_status', async () => {
    const got = await t.after(() => t.ok('POST', '/users/me/status', 'member', { status_text: 'on the battlements' }));
    expect(t.expectTo(got, EVERYONE, isType('user_status')).guest).toMatchObject({ user_id: t.idOf('member'), status_text: 'on the battlements' });
  });

  it('custom profile field values', async () => {
    const fields = (await t.ok('GET', '/realm/profile_fields', 'member')).custom_fields as Array<{ id: number; name: string }>;
    fieldId = fields.find((f) => f.name === 'Title')!.id;
    const got = await t.after(() => t.ok('PATCH', '/users/me/profile_data', 'member', { data: [{ id: fieldId, value: 'Prince' }] }));
    expect(t.expectTo(got, EVERYONE, isType('realm_user', 'update')).moderator.person).toEqual({
      user_id: t.idOf('member'), custom_profile_field: { id: fieldId, value: 'Prince', rendered_value: '<p>Prince</p>' },
    });
  });

  it('avatar', async () => {
    const got = await t.after(() => t.ok('POST', '/users/me/avatar', 'member', {}, { files: [{ field: 'file', name: 'me.png', type: 'image/png', data: PNG }] }));
    expect(t.expectTo(got, EVERYONE, isType('realm_user', 'update')).member2.person).toEqual({
      user_id: t.idOf('member'), avatar_source: 'U', avatar_url: expect.any(String), avatar_url_medium: expect.any(String), avatar_version: expect.any(Number),
    });
  });

  it('realm_bot to administrators and the bot\'s owner, realm_user add to everyone', async () => {
    const got = await t.after(async () => (botId = (await t.ok('POST', '/bots', 'member', { full_name: 'Yorick', short_name: 'yorick' })).user_id));
    const bot = t.expectTo(got, ['owner', 'admin', 'member'], isType('realm_bot', 'add')).admin.bot;
    expect(bot).toMatchObject({
      user_id: botId, full_name: 'Yorick', email: expect.stringContaining('yorick'), owner_id: t.idOf('member'),
      bot_type: 1, is_active: true, avatar_url: expect.any(String), default_all_public_streams: false, services: [],
    });
    const person = t.expectTo(got, EVERYONE, isType('realm_user', 'add')).guest.person;
    expect(person).toMatchObject({
      user_id: botId, full_name: 'Yorick', is_bot: true, bot_type: 1, bot_owner_id: t.idOf('member'), role: 400, is_active: true,
      is_admin: false, is_owner: false, is_guest: false, avatar_url: expect.any(String), avatar_version: expect.any(Number),
      timezone: expect.any(String), date_joined: expect.any(String), is_imported_stub: false,
    });
    expect(person).toHaveProperty('delivery_email');
    expect(t.expectTo(got, EVERYONE, inGroup('add_members', await systemGroup('role:members'))).member.user_ids).toEqual([botId]);
    expect(t.expectTo(got, EVERYONE, inGroup('add_members', await systemGroup('role:fullmembers'))).member.user_ids).toEqual([botId]);
    const renamed = await t.after(() => t.ok('PATCH', `/bots/${botId}`, 'member', { full_name: 'Poor Yorick' }));
    expect(t.expectTo(renamed, ['owner', 'admin', 'member'], isType('realm_bot', 'update')).owner.bot).toEqual({ user_id: botId, full_name: 'Poor Yorick' });
    expect(t.expectTo(renamed, EVERYONE, isType('realm_user', 'update')).guest.person).toEqual({ user_id: botId, full_name: 'Poor Yorick' });
  });

  it('with can_access_all_users_group narrowed to members, guests hear only of people they share something with', async () => {
    const groups = (await t.ok('GET', '/user_groups', 'admin')).user_groups as Array<{ id: number; name: string }>;
    const members = groups.find((g) => g.name === 'role:members')!.id;
    const everyoneGroup = groups.find((g) => g.name === 'role:everyone')!.id;
    const narrowed = await t.after(() => t.ok('PATCH', '/realm', 'owner', { can_access_all_users_group: members }));
    expect(t.expectTo(narrowed, EVERYONE, isType('realm', 'update_dict')).guest).toMatchObject({ property: 'default', data: { can_access_all_users_group: members } });
    try {
      const tz = await t.after(() => t.ok('PATCH', '/settings', 'member2', { timezone: 'Asia/Nicosia' }));
      t.expectTo(tz, NOT('guest'), (e) => e.type === 'realm_user' && e.person?.user_id === t.idOf('member2'));
      let newcomer = 0;
      const created = await t.after(async () => (newcomer = (await t.ok('POST', '/users', 'admin', { email: 'laertes@chat.test', password: 'poisoned-rapier-at-dawn', full_name: 'Laertes' })).user_id));
      const person = t.expectTo(created, NOT('guest'), isType('realm_user', 'add')).member.person;
      // Group membership goes to everyone, as in the API family.
      expect(t.expectTo(created, EVERYONE, inGroup('add_members', members)).guest.user_ids).toEqual([newcomer]);
      expect(person).toMatchObject({ user_id: newcomer, full_name: 'Laertes', is_bot: false, role: 400, profile_data: {}, is_imported_stub: false });
      const deactivated = await t.after(() => t.ok('DELETE', `/users/${newcomer}`, 'admin'));
      expect(t.expectTo(deactivated, NOT('guest'), isType('realm_user', 'update')).owner.person).toEqual({ user_id: newcomer, is_active: false });
    } finally {
      await t.after(() => t.ok('PATCH', '/realm', 'owner', { can_access_all_users_group: everyoneGroup }));
    }
  });
});

describe('email visibility and presence', () => {
  it('hiding one\'s address: user_settings to oneself, new_email to everyone, delivery_email null to those who lose it', async () => {
    const got = await t.after(() => t.ok('PATCH', '/settings', 'member2', { email_address_visibility: 3 }));
    expect(t.expectTo(got, ['member2'], isType('user_settings')).member2).toMatchObject({ property: 'email_address_visibility', value: 3 });
    const about = (field: string) => (e: Event) => isType('realm_user', 'update')(e) && e.person.user_id === t.idOf('member2') && field in e.person;
    expect(t.expectTo(got, EVERYONE, about('new_email')).guest.person).toEqual({ user_id: t.idOf('member2'), new_email: expect.stringMatching(/^user\d+@/) });
    expect(t.expectTo(got, ['moderator', 'member', 'guest', 'bot'], about('delivery_email')).member.person).toEqual({ user_id: t.idOf('member2'), delivery_email: null });
    // The real address still signs in.
    const back = await t.after(() => t.ok('PATCH', '/settings', 'member2', { email_address_visibility: 1 }));
    expect(t.expectTo(back, EVERYONE, about('new_email')).admin.person.new_email).toBe(t.user('member2').email);
    expect(t.expectTo(back, ['moderator', 'member', 'guest', 'bot'], about('delivery_email')).bot.person.delivery_email).toBe(t.user('member2').email);
  });

  it('presence: coming online is announced to everyone, in the legacy form to queues without simplified_presence_events', async () => {
    const got = await t.after(() => t.ok('POST', '/users/me/presence', 'moderator', { status: 'active', new_user_input: true }));
    const e = t.expectTo(got, EVERYONE, isType('presence'));
    expect(e.owner.presences[String(t.idOf('moderator'))]).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
    expect(only(got, 'legacy', isType('presence'))).toMatchObject({
      user_id: t.idOf('moderator'), email: t.user('moderator').email, server_timestamp: expect.any(Number),
      presence: { website: expect.objectContaining({ status: 'active', timestamp: expect.any(Number) }) },
    });
  });
});

describe('uploads and deactivation', () => {
  it('realm icon as realm update_dict to everyone', async () => {
    const got = await t.after(() => t.ok('POST', '/realm/icon', 'admin', {}, { files: [{ field: 'file', name: 'icon.png', type: 'image/png', data: PNG }] }));
    expect(t.expectTo(got, EVERYONE, (e) => isType('realm', 'update_dict')(e) && e.property === 'icon').guest).toMatchObject({ property: 'icon', data: { icon_url: expect.any(String), icon_source: 'U' } });
  });

  it('deactivating a bot: realm_bot update to administrators and its owner, realm_user update to everyone', async () => {
    const bots = (await t.ok('GET', '/bots', 'member')).bots as Array<{ user_id: number; full_name: string }>;
    const yorick = bots.find((b) => b.full_name === 'Poor Yorick')!.user_id;
    const got = await t.after(() => t.ok('DELETE', `/bots/${yorick}`, 'member'));
    expect(t.expectTo(got, ['owner', 'admin', 'member'], isType('realm_bot')).owner).toEqual({ type: 'realm_bot', id: expect.any(Number), op: 'update', bot: { user_id: yorick, is_active: false } });
    expect(t.expectTo(got, EVERYONE, isType('realm_user', 'update')).guest.person).toEqual({ user_id: yorick, is_active: false });
  });
});

it('answers a silent blocking poll with a heartbeat', async () => {
  const q = new EventQueue('heartbeat', t.user('moderator'));
  await q.register(t.call, { event_types: ['message'] });
  const res = await t.call('GET', '/events', t.user('moderator'), { queue_id: q.queueId, last_event_id: '-1' });
  expect(res.body.events).toEqual([{ type: 'heartbeat', id: expect.any(Number) }]);
});
