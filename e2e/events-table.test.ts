/**
 * The spec's event table, end to end: every service as its own process, one event queue per
 * seeded user, and for each kind of change, made through the public API by someone allowed to
 * make it, exactly the users who may see it receive its event, once, with the spec's payload.
 * Recipient rules follow the API family where the spec is silent (realm-wide settings to every
 * active user, bots to administrators and the bot's owner, private channels to their
 * subscribers and the realm's administrators, personal things to their owner).
 */
import { seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import { client, EventQueue, only, receivers, type Event, type Received } from './lib/event-queues';

const PEOPLE = ['owner', 'admin', 'moderator', 'member', 'member2', 'guest', 'bot'] as const;
type Person = (typeof PEOPLE)[number];
const EVERYONE = [...PEOPLE].sort();
const NOT: (...who: Person[]) => Person[] = (...who) => EVERYONE.filter((n) => !who.includes(n));

/** Every capability a current client declares; the `legacy` queue (member's) declares none. */
const CAPABILITIES = {
  notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: false,
  stream_typing_notifications: true, user_settings_object: true, linkifier_url_template: true,
  user_list_incomplete: true, include_deactivated_groups: true, archived_channels: true, empty_topic_name: true,
  simplified_presence_events: true, individual_emoji_changes: true,
};
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAGUlEQVQokWMwTvtPEmIY1ZA2GkrGwzVpAAAboJgQNBzlkgAAAABJRU5ErkJggg==',
  'base64',
);

let env: TestEnv;
let realm: SeededRealm;
let cluster: Cluster;
const call = client(() => cluster.url);
const queues = new Map<string, EventQueue>();
let markers = 0;

const user = (name: Person): SeededUser => realm[name];
const idOf = (name: Person) => realm[name].id;
const sorted = (...ids: number[]) => [...ids].sort((a, b) => a - b);

async function ok(method: string, path: string, who: Person, params: Record<string, unknown> = {}, opts = {}) {
  const res = await call(method, path, user(who), params, opts);
  if (res.body.result !== 'success') throw new Error(`${method} ${path} as ${who}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Runs `change`, then waits behind a marker until every queue holds everything it will get. */
async function after(change: () => Promise<unknown>): Promise<Received> {
  await change();
  const marker = `marker ${++markers}`;
  await ok('PATCH', '/realm', 'owner', { description: marker });
  const isMarker = (e: Event) => e.type === 'realm' && e.property === 'description' && e.value === marker;
  const got: Received = {};
  await Promise.all([...queues].map(async ([name, q]) => void (got[name] = await q.readUntil(call, isMarker, 15000))));
  return got;
}

/** Asserts that exactly `who` (each once) got an event matching `match`; returns those events. */
function expectTo(got: Received, who: readonly Person[], match: (e: Event) => boolean): Record<string, Event> {
  expect(receivers(got, PEOPLE, match)).toEqual([...who].sort());
  return Object.fromEntries(who.map((n) => [n, only(got, n, match)]));
}

const isType = (type: string, op?: string) => (e: Event) => e.type === type && (op === undefined || e.op === op);

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  cluster = await startCluster(env, { env: { EVENTS_HEARTBEAT_SECONDS: '1' } });
  const base = { apply_markdown: 'true', client_gravatar: 'false', fetch_event_types: [] };
  for (const name of PEOPLE) {
    const q = new EventQueue(name, user(name));
    await q.register(call, { ...base, client_capabilities: CAPABILITIES });
    queues.set(name, q);
  }
  const legacy = new EventQueue('legacy', user('member'));
  await legacy.register(call, base);
  queues.set('legacy', legacy);
  // Events of the seeding (users created before the queues) may still be on their way.
  await after(async () => undefined);
}, 180000);

afterAll(async () => {
  await cluster?.stop();
  await env?.close();
});

describe('personal changes reach their owner only', () => {
  it('alert_words', async () => {
    const got = await after(() => ok('POST', '/users/me/alert_words', 'member', { alert_words: ['yorick'] }));
    expect(expectTo(got, ['member'], isType('alert_words')).member).toEqual({ type: 'alert_words', id: expect.any(Number), alert_words: ['yorick'] });
    const removed = await after(() => ok('DELETE', '/users/me/alert_words', 'member', { alert_words: ['yorick'] }));
    expect(expectTo(removed, ['member'], isType('alert_words')).member.alert_words).toEqual([]);
  });

  it('user_settings, with language_name for default_language', async () => {
    const got = await after(() => ok('PATCH', '/settings', 'member2', { enter_sends: true }));
    expect(expectTo(got, ['member2'], isType('user_settings')).member2).toEqual({
      type: 'user_settings', id: expect.any(Number), op: 'update', property: 'enter_sends', value: true,
    });
    const lang = await after(() => ok('PATCH', '/settings', 'guest', { default_language: 'de' }));
    const e = expectTo(lang, ['guest'], isType('user_settings')).guest;
    expect(e).toMatchObject({ op: 'update', property: 'default_language', value: 'de', language_name: expect.any(String) });
    expect(e.language_name.length).toBeGreaterThan(0);
  });

  it('navigation_view add, update and remove', async () => {
    const fragment = 'narrow/has/link';
    const added = await after(() => ok('POST', '/navigation_views', 'member', { fragment, is_pinned: true, name: 'Links' }));
    expect(expectTo(added, ['member'], isType('navigation_view', 'add')).member.navigation_view).toEqual({ fragment, is_pinned: true, name: 'Links' });
    const updated = await after(() => ok('PATCH', `/navigation_views/${encodeURIComponent(fragment)}`, 'member', { is_pinned: false }));
    expect(expectTo(updated, ['member'], isType('navigation_view', 'update')).member).toMatchObject({ fragment, data: { is_pinned: false } });
    const removed = await after(() => ok('DELETE', `/navigation_views/${encodeURIComponent(fragment)}`, 'member'));
    expect(expectTo(removed, ['member'], isType('navigation_view', 'remove')).member).toMatchObject({ fragment });
  });

  it('saved_snippets add, update and remove', async () => {
    let id = 0;
    const added = await after(async () => (id = (await ok('POST', '/saved_snippets', 'admin', { title: 'Greeting', content: 'Good morrow' })).saved_snippet_id));
    expect(expectTo(added, ['admin'], isType('saved_snippets', 'add')).admin.saved_snippet).toEqual({
      id, title: 'Greeting', content: 'Good morrow', date_created: expect.any(Number),
    });
    const updated = await after(() => ok('PATCH', `/saved_snippets/${id}`, 'admin', { content: 'Good night' }));
    expect(expectTo(updated, ['admin'], isType('saved_snippets', 'update')).admin.saved_snippet).toMatchObject({ id, title: 'Greeting', content: 'Good night' });
    const removed = await after(() => ok('DELETE', `/saved_snippets/${id}`, 'admin'));
    expect(expectTo(removed, ['admin'], isType('saved_snippets', 'remove')).admin.saved_snippet_id).toBe(id);
  });

  it('drafts add, update and remove', async () => {
    let id = 0;
    const draft = { type: '', to: [], topic: '', content: 'To be, or not' };
    const added = await after(async () => ([id] = (await ok('POST', '/drafts', 'moderator', { drafts: [draft] })).ids));
    expect(expectTo(added, ['moderator'], isType('drafts', 'add')).moderator.drafts).toEqual([{ ...draft, id, timestamp: expect.any(Number) }]);
    const updated = await after(() => ok('PATCH', `/drafts/${id}`, 'moderator', { draft: { ...draft, content: 'To be' } }));
    expect(expectTo(updated, ['moderator'], isType('drafts', 'update')).moderator.draft).toMatchObject({ id, content: 'To be' });
    const removed = await after(() => ok('DELETE', `/drafts/${id}`, 'moderator'));
    expect(expectTo(removed, ['moderator'], isType('drafts', 'remove')).moderator.draft_id).toBe(id);
  });

  it('device', async () => {
    let deviceId = 0;
    const got = await after(async () => (deviceId = (await ok('POST', '/register_client_device', 'member2')).device_id));
    expect(expectTo(got, ['member2'], isType('device')).member2).toEqual({ type: 'device', id: expect.any(Number), op: 'add', device_id: deviceId });
  });
});

describe('realm-wide changes reach every active user', () => {
  it('realm', async () => {
    const got = await after(() => ok('PATCH', '/realm', 'admin', { name: 'Elsinore' }));
    const e = expectTo(got, EVERYONE, isType('realm', 'update'));
    expect(e.guest).toEqual({ type: 'realm', id: expect.any(Number), op: 'update', property: 'name', value: 'Elsinore' });
  });

  it('realm_user_settings_defaults', async () => {
    const got = await after(() => ok('PATCH', '/realm/user_settings_defaults', 'admin', { twenty_four_hour_time: true }));
    const e = expectTo(got, EVERYONE, isType('realm_user_settings_defaults'));
    expect(e.bot).toEqual({ type: 'realm_user_settings_defaults', id: expect.any(Number), op: 'update', property: 'twenty_four_hour_time', value: true });
  });

  it('channel_folder add and update', async () => {
    let id = 0;
    const added = await after(async () => (id = (await ok('POST', '/channel_folders/create', 'admin', { name: 'Castle', description: 'The *rooms*' })).channel_folder_id));
    expect(expectTo(added, EVERYONE, isType('channel_folder', 'add')).member.channel_folder).toEqual({
      id, name: 'Castle', description: 'The *rooms*', rendered_description: expect.stringContaining('<em>rooms</em>'),
      order: expect.any(Number), date_created: expect.any(Number), creator_id: idOf('admin'), is_archived: false,
    });
    const updated = await after(() => ok('PATCH', `/channel_folders/${id}`, 'admin', { name: 'Keep' }));
    expect(expectTo(updated, EVERYONE, isType('channel_folder', 'update')).guest).toMatchObject({ channel_folder_id: id, data: { name: 'Keep' } });
  });

  it('realm_linkifiers, only to queues that understand URL templates', async () => {
    const got = await after(() => ok('POST', '/realm/filters', 'admin', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' }));
    const e = expectTo(got, EVERYONE, isType('realm_linkifiers'));
    expect(e.member.realm_linkifiers).toEqual([expect.objectContaining({ id: expect.any(Number), pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' })]);
    expect(got.legacy!.filter(isType('realm_linkifiers'))).toEqual([]);
  });

  it('realm_emoji add, and the whole set as update for older clients', async () => {
    const got = await after(() => ok('POST', '/realm/emoji/skull', 'member', {}, { files: [{ field: 'file', name: 'skull.png', type: 'image/png', data: PNG }] }));
    const e = expectTo(got, EVERYONE, isType('realm_emoji'));
    expect(e.guest).toMatchObject({ op: 'add', emoji: { id: expect.any(String), name: 'skull', source_url: expect.any(String), deactivated: false, author_id: idOf('member') } });
    const legacy = only(got, 'legacy', isType('realm_emoji'));
    expect(legacy).toMatchObject({ op: 'update', realm_emoji: { [e.guest.emoji.id]: expect.objectContaining({ name: 'skull' }) } });
  });

  it('custom_profile_fields', async () => {
    const got = await after(() => ok('POST', '/realm/profile_fields', 'admin', { name: 'Title', field_type: 1 }));
    const e = expectTo(got, EVERYONE, isType('custom_profile_fields'));
    expect(e.bot.fields).toEqual([expect.objectContaining({ id: expect.any(Number), name: 'Title', type: 1 })]);
  });
});

describe('changes to people reach those who can access them', () => {
  let fieldId = 0;
  let botId = 0;

  it('realm_user full_name and role, with the system groups as user_group events', async () => {
    const named = await after(() => ok('PATCH', `/users/${idOf('member2')}`, 'admin', { full_name: 'Othello the Moor' }));
    expect(expectTo(named, EVERYONE, isType('realm_user', 'update')).guest.person).toEqual({ user_id: idOf('member2'), full_name: 'Othello the Moor' });
    const promoted = await after(() => ok('PATCH', `/users/${idOf('member2')}`, 'owner', { role: 300 }));
    expect(expectTo(promoted, EVERYONE, isType('realm_user', 'update')).member.person).toEqual({ user_id: idOf('member2'), role: 300 });
    const added = expectTo(promoted, EVERYONE, isType('user_group', 'add_members'));
    const removed = expectTo(promoted, EVERYONE, isType('user_group', 'remove_members'));
    expect(added.bot).toEqual({ type: 'user_group', id: expect.any(Number), op: 'add_members', group_id: expect.any(Number), user_ids: [idOf('member2')] });
    expect(removed.bot).toMatchObject({ group_id: expect.any(Number), user_ids: [idOf('member2')] });
    const groups = (await ok('GET', '/user_groups', 'admin')).user_groups as Array<{ id: number; name: string }>;
    expect(groups.find((g) => g.id === added.bot.group_id)?.name).toBe('role:moderators');
    expect(groups.find((g) => g.id === removed.bot.group_id)?.name).toBe('role:members');
    await after(() => ok('PATCH', `/users/${idOf('member2')}`, 'owner', { role: 400 }));
  });

  it('timezone: user_settings to the user, realm_user to everyone', async () => {
    const got = await after(() => ok('PATCH', '/settings', 'member', { timezone: 'Europe/Copenhagen' }));
    expect(expectTo(got, ['member'], isType('user_settings')).member).toMatchObject({ property: 'timezone', value: 'Europe/Copenhagen' });
    expect(expectTo(got, EVERYONE, isType('realm_user', 'update')).admin.person).toEqual({
      user_id: idOf('member'), email: user('member').email, timezone: 'Europe/Copenhagen',
    });
  });

  it('user_status', async () => {
    const got = await after(() => ok('POST', '/users/me/status', 'member', { status_text: 'on the battlements' }));
    expect(expectTo(got, EVERYONE, isType('user_status')).guest).toMatchObject({ user_id: idOf('member'), status_text: 'on the battlements' });
  });

  it('custom profile field values', async () => {
    const fields = (await ok('GET', '/realm/profile_fields', 'member')).custom_fields as Array<{ id: number; name: string }>;
    fieldId = fields.find((f) => f.name === 'Title')!.id;
    const got = await after(() => ok('PATCH', '/users/me/profile_data', 'member', { data: [{ id: fieldId, value: 'Prince' }] }));
    expect(expectTo(got, EVERYONE, isType('realm_user', 'update')).moderator.person).toEqual({
      user_id: idOf('member'), custom_profile_field: { id: fieldId, value: 'Prince', rendered_value: '<p>Prince</p>' },
    });
  });

  it('avatar', async () => {
    const got = await after(() => ok('POST', '/users/me/avatar', 'member', {}, { files: [{ field: 'file', name: 'me.png', type: 'image/png', data: PNG }] }));
    expect(expectTo(got, EVERYONE, isType('realm_user', 'update')).member2.person).toEqual({
      user_id: idOf('member'), avatar_source: 'U', avatar_url: expect.any(String), avatar_url_medium: expect.any(String), avatar_version: expect.any(Number),
    });
  });

  it('realm_bot to administrators and the bot\'s owner, realm_user add to everyone', async () => {
    const got = await after(async () => (botId = (await ok('POST', '/bots', 'member', { full_name: 'Yorick', short_name: 'yorick' })).user_id));
    const bot = expectTo(got, ['owner', 'admin', 'member'], isType('realm_bot', 'add')).admin.bot;
    expect(bot).toMatchObject({
      user_id: botId, full_name: 'Yorick', email: expect.stringContaining('yorick'), api_key: expect.any(String), owner_id: idOf('member'),
      bot_type: 1, is_active: true, avatar_url: expect.any(String), default_all_public_streams: false, services: [],
    });
    const person = expectTo(got, EVERYONE, isType('realm_user', 'add')).guest.person;
    expect(person).toMatchObject({
      user_id: botId, full_name: 'Yorick', is_bot: true, bot_type: 1, bot_owner_id: idOf('member'), role: 400, is_active: true,
      is_admin: false, is_owner: false, is_guest: false, avatar_url: expect.any(String), avatar_version: expect.any(Number),
      timezone: expect.any(String), date_joined: expect.any(String), is_imported_stub: false,
    });
    expect(person).toHaveProperty('delivery_email');
    const renamed = await after(() => ok('PATCH', `/bots/${botId}`, 'member', { full_name: 'Poor Yorick' }));
    expect(expectTo(renamed, ['owner', 'admin', 'member'], isType('realm_bot', 'update')).owner.bot).toEqual({ user_id: botId, full_name: 'Poor Yorick' });
    expect(expectTo(renamed, EVERYONE, isType('realm_user', 'update')).guest.person).toEqual({ user_id: botId, full_name: 'Poor Yorick' });
  });

  it('with can_access_all_users_group narrowed to members, guests hear only of people they share something with', async () => {
    const groups = (await ok('GET', '/user_groups', 'admin')).user_groups as Array<{ id: number; name: string }>;
    const members = groups.find((g) => g.name === 'role:members')!.id;
    const everyoneGroup = groups.find((g) => g.name === 'role:everyone')!.id;
    const narrowed = await after(() => ok('PATCH', '/realm', 'owner', { can_access_all_users_group: members }));
    expect(expectTo(narrowed, EVERYONE, isType('realm', 'update_dict')).guest).toMatchObject({ property: 'default', data: { can_access_all_users_group: members } });
    try {
      const tz = await after(() => ok('PATCH', '/settings', 'member2', { timezone: 'Asia/Nicosia' }));
      expectTo(tz, NOT('guest'), (e) => e.type === 'realm_user' && e.person?.user_id === idOf('member2'));
      let newcomer = 0;
      const created = await after(async () => (newcomer = (await ok('POST', '/users', 'admin', { email: 'laertes@chat.test', password: 'swordplay', full_name: 'Laertes' })).user_id));
      const person = expectTo(created, NOT('guest'), isType('realm_user', 'add')).member.person;
      expect(person).toMatchObject({ user_id: newcomer, full_name: 'Laertes', is_bot: false, role: 400, profile_data: {}, is_imported_stub: false });
      const deactivated = await after(() => ok('DELETE', `/users/${newcomer}`, 'admin'));
      expect(expectTo(deactivated, NOT('guest'), isType('realm_user', 'update')).owner.person).toEqual({ user_id: newcomer, is_active: false });
    } finally {
      await ok('PATCH', '/realm', 'owner', { can_access_all_users_group: everyoneGroup });
    }
  });
});

describe('a public channel: metadata to everyone who may see it, messages to its subscribers', () => {
  let verona = 0;
  let messageId = 0;
  const onVerona = (e: Event) =>
    e.stream_id === verona || e.stream_ids?.includes(verona) || [...(e.streams ?? []), ...(e.subscriptions ?? [])].some((s: Event) => s.stream_id === verona);
  const subscribers = ['member', 'member2', 'guest'] as const;

  it('stream create, subscription add and peer_add', async () => {
    const got = await after(() => ok('POST', '/users/me/subscriptions', 'member', {
      subscriptions: [{ name: 'Verona', description: 'Two households' }], principals: [idOf('member'), idOf('member2'), idOf('guest')],
    }));
    verona = (await ok('GET', '/get_stream_id', 'member', { stream: 'Verona' })).stream_id;
    const created = expectTo(got, EVERYONE, (e) => isType('stream', 'create')(e) && onVerona(e));
    expect(created.guest.streams).toEqual([expect.objectContaining({
      stream_id: verona, name: 'Verona', description: 'Two households', rendered_description: '<p>Two households</p>', invite_only: false,
      is_web_public: false, history_public_to_subscribers: true, creator_id: idOf('member'), date_created: expect.any(Number),
      first_message_id: null, folder_id: null, is_archived: false, topics_policy: 'inherit', stream_post_policy: 1,
      can_add_subscribers_group: expect.anything(), can_remove_subscribers_group: expect.anything(),
    })]);
    const added = expectTo(got, subscribers, (e) => isType('subscription', 'add')(e) && onVerona(e));
    expect(added.member2.subscriptions).toEqual([expect.objectContaining({
      stream_id: verona, name: 'Verona', subscribers: sorted(idOf('member'), idOf('member2'), idOf('guest')), color: expect.any(String),
      is_muted: false, in_home_view: true, pin_to_top: false, desktop_notifications: null, email_notifications: null,
      push_notifications: null, audible_notifications: null, wildcard_mentions_notify: null,
    })]);
    const peers = expectTo(got, ['owner', 'admin', 'moderator', 'bot'], (e) => isType('subscription', 'peer_add')(e) && onVerona(e));
    expect(peers.moderator).toMatchObject({ stream_ids: [verona], user_ids: sorted(idOf('member'), idOf('member2'), idOf('guest')) });
  });

  it('message, with flags for each recipient and local_message_id only in the sender\'s queue', async () => {
    const got = await after(async () => {
      messageId = (await ok('POST', '/messages', 'member', {
        type: 'stream', to: 'Verona', topic: 'balcony', content: 'But soft! @**Othello the Moor**', read_by_sender: true, queue_id: queues.get('member')!.queueId, local_id: '7.1',
      })).id;
    });
    const e = expectTo(got, subscribers, isType('message'));
    expect(e.member).toMatchObject({ local_message_id: '7.1', flags: expect.arrayContaining(['read']) });
    expect(e.member2).toMatchObject({ flags: expect.arrayContaining(['mentioned']) });
    expect(e.member2).not.toHaveProperty('local_message_id');
    expect(e.guest.flags).toEqual([]);
    expect(e.guest.message).toMatchObject({
      id: messageId, sender_id: idOf('member'), sender_email: user('member').email, sender_full_name: 'King Hamlet', type: 'stream',
      stream_id: verona, display_recipient: 'Verona', subject: 'balcony', content: expect.stringContaining('But soft!'),
      content_type: 'text/html', timestamp: expect.any(Number), reactions: [], is_me_message: false, client: expect.any(String),
      avatar_url: expect.any(String), recipient_id: expect.any(Number), topic_links: [],
    });
    expect(only(got, 'legacy', isType('message')).message.id).toBe(messageId);
  });

  it('reaction add and remove', async () => {
    const got = await after(() => ok('POST', `/messages/${messageId}/reactions`, 'member2', { emoji_name: 'heart' }));
    expect(expectTo(got, subscribers, isType('reaction', 'add')).guest).toMatchObject({
      message_id: messageId, emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji', user_id: idOf('member2'),
    });
    const removed = await after(() => ok('DELETE', `/messages/${messageId}/reactions`, 'member2', { emoji_name: 'heart' }));
    expect(expectTo(removed, subscribers, isType('reaction', 'remove')).member).toMatchObject({ message_id: messageId, user_id: idOf('member2') });
  });

  it('update_message', async () => {
    const got = await after(() => ok('PATCH', `/messages/${messageId}`, 'member', { content: 'But soft, what light' }));
    expect(expectTo(got, subscribers, isType('update_message')).member2).toMatchObject({
      user_id: idOf('member'), message_id: messageId, message_ids: [messageId], edit_timestamp: expect.any(Number), rendering_only: false,
      stream_id: verona, orig_content: 'But soft! @**Othello the Moor**', content: 'But soft, what light',
      orig_rendered_content: expect.stringContaining('But soft!'), rendered_content: '<p>But soft, what light</p>', is_me_message: false,
    });
  });

  it('typing and typing_edit_message to the other subscribers, channel typing only to queues that declared it', async () => {
    const others = (got: Received, match: (e: Event) => boolean) => receivers(got, PEOPLE, match).filter((n) => n !== 'member');
    const typing = await after(() => ok('POST', '/typing', 'member', { op: 'start', type: 'stream', stream_id: verona, topic: 'balcony' }));
    expect(others(typing, isType('typing'))).toEqual(['guest', 'member2']);
    expect(only(typing, 'member2', isType('typing'))).toMatchObject({
      op: 'start', message_type: 'stream', sender: { user_id: idOf('member'), email: user('member').email }, stream_id: verona, topic: 'balcony',
    });
    expect(typing.legacy!.filter(isType('typing'))).toEqual([]);
    const editing = await after(() => ok('POST', `/messages/${messageId}/typing`, 'member', { op: 'start' }));
    expect(others(editing, isType('typing_edit_message'))).toEqual(['guest', 'member2']);
    expect(only(editing, 'guest', isType('typing_edit_message'))).toMatchObject({
      op: 'start', sender_id: idOf('member'), message_id: messageId, recipient: { type: 'channel', channel_id: verona, topic: 'balcony' },
    });
  });

  it('update_message_flags, user_topic and subscription update to the user alone', async () => {
    const starred = await after(() => ok('POST', '/messages/flags', 'member2', { messages: [messageId], op: 'add', flag: 'starred' }));
    expect(expectTo(starred, ['member2'], isType('update_message_flags')).member2).toMatchObject({
      op: 'add', operation: 'add', flag: 'starred', messages: [messageId], all: false,
    });
    const read = await after(() => ok('POST', '/messages/flags', 'guest', { messages: [messageId], op: 'add', flag: 'read' }));
    expect(expectTo(read, ['guest'], isType('update_message_flags')).guest).toMatchObject({ op: 'add', flag: 'read', messages: [messageId] });
    const unread = await after(() => ok('POST', '/messages/flags', 'guest', { messages: [messageId], op: 'remove', flag: 'read' }));
    expect(expectTo(unread, ['guest'], isType('update_message_flags')).guest).toMatchObject({
      op: 'remove', flag: 'read', messages: [messageId], message_details: { [messageId]: { type: 'stream', stream_id: verona, topic: 'balcony' } },
    });
    const muted = await after(() => ok('POST', '/user_topics', 'member2', { stream_id: verona, topic: 'balcony', visibility_policy: 1 }));
    expect(expectTo(muted, ['member2'], isType('user_topic')).member2).toMatchObject({
      stream_id: verona, topic_name: 'balcony', visibility_policy: 1, last_updated: expect.any(Number),
    });
    const pinned = await after(() => ok('POST', '/users/me/subscriptions/properties', 'guest', {
      subscription_data: [{ stream_id: verona, property: 'pin_to_top', value: true }],
    }));
    expect(expectTo(pinned, ['guest'], isType('subscription', 'update')).guest).toMatchObject({ stream_id: verona, property: 'pin_to_top', value: true });
  });

  it('stream update to everyone who can see the channel', async () => {
    const got = await after(() => ok('PATCH', `/streams/${verona}`, 'admin', { description: 'Fair *Verona*' }));
    expect(expectTo(got, EVERYONE, isType('stream', 'update')).guest).toMatchObject({
      stream_id: verona, name: 'Verona', property: 'description', value: 'Fair *Verona*', rendered_description: '<p>Fair <em>Verona</em></p>',
    });
  });

  it('delete_message, one event per message for queues without bulk_message_deletion', async () => {
    const got = await after(() => ok('DELETE', `/messages/${messageId}`, 'admin'));
    expect(expectTo(got, subscribers, isType('delete_message')).guest).toMatchObject({
      message_ids: [messageId], message_type: 'stream', stream_id: verona, topic: 'balcony',
    });
    expect(only(got, 'legacy', isType('delete_message'))).toMatchObject({ message_id: messageId, message_type: 'stream' });
    expect(only(got, 'legacy', isType('delete_message'))).not.toHaveProperty('message_ids');
  });
});

describe('a private channel: only its subscribers and the realm\'s administrators hear of it', () => {
  let elsinore = 0;
  let messageId = 0;
  const onElsinore = (e: Event) =>
    e.stream_id === elsinore || e.stream_ids?.includes(elsinore) || [...(e.streams ?? []), ...(e.subscriptions ?? [])].some((s: Event) => s.stream_id === elsinore);
  const of = (type: string, op?: string) => (e: Event) => isType(type, op)(e) && onElsinore(e);

  it('stream create to administrators and subscribers, peer_add to administrators', async () => {
    const got = await after(() => ok('POST', '/users/me/subscriptions', 'owner', {
      subscriptions: [{ name: 'Elsinore', description: 'Something is rotten' }], invite_only: true, principals: [idOf('owner'), idOf('member'), idOf('member2')],
    }));
    elsinore = (await ok('GET', '/get_stream_id', 'owner', { stream: 'Elsinore' })).stream_id;
    expect(expectTo(got, ['owner', 'admin', 'member', 'member2'], of('stream', 'create')).admin.streams).toEqual([
      expect.objectContaining({ stream_id: elsinore, name: 'Elsinore', invite_only: true, history_public_to_subscribers: false }),
    ]);
    expectTo(got, ['owner', 'member', 'member2'], of('subscription', 'add'));
    expect(expectTo(got, ['admin'], of('subscription', 'peer_add')).admin.user_ids).toEqual(sorted(idOf('owner'), idOf('member'), idOf('member2')));
  });

  it('messages and reactions to subscribers only; a later subscriber does not hear of reactions to history it cannot see', async () => {
    const sent = await after(async () => (messageId = (await ok('POST', '/messages', 'member', { type: 'stream', to: elsinore, topic: 'ghost', content: 'Who\'s there?' })).id));
    expect(expectTo(sent, ['owner', 'member', 'member2'], isType('message')).owner.message).toMatchObject({ id: messageId, stream_id: elsinore, display_recipient: 'Elsinore' });
    const joined = await after(() => ok('POST', '/users/me/subscriptions', 'owner', { subscriptions: [{ name: 'Elsinore' }], principals: [idOf('admin')] }));
    expectTo(joined, ['admin'], of('subscription', 'add'));
    expect(expectTo(joined, ['owner', 'member', 'member2'], of('subscription', 'peer_add')).member.user_ids).toEqual([idOf('admin')]);
    expect(receivers(joined, PEOPLE, of('stream', 'create'))).toEqual([]);
    const reacted = await after(() => ok('POST', `/messages/${messageId}/reactions`, 'member2', { emoji_name: 'ghost' }));
    expectTo(reacted, ['owner', 'member', 'member2'], isType('reaction', 'add'));
  });

  it('stream update to subscribers and administrators', async () => {
    const got = await after(() => ok('PATCH', `/streams/${elsinore}`, 'owner', { description: 'Rotten' }));
    expect(expectTo(got, ['owner', 'admin', 'member', 'member2'], of('stream', 'update')).member).toMatchObject({ property: 'description', value: 'Rotten' });
  });

  it('leaving: subscription remove to the one who left, peer_remove to the rest who can see the channel', async () => {
    const got = await after(() => ok('DELETE', '/users/me/subscriptions', 'member2', { subscriptions: ['Elsinore'] }));
    expect(expectTo(got, ['member2'], of('subscription', 'remove')).member2.subscriptions).toEqual([{ name: 'Elsinore', stream_id: elsinore }]);
    expect(expectTo(got, ['owner', 'admin', 'member'], of('subscription', 'peer_remove')).admin).toMatchObject({ stream_ids: [elsinore], user_ids: [idOf('member2')] });
  });
});

describe('direct messages', () => {
  let messageId = 0;

  it('message, typing and delete_message to the participants only', async () => {
    const sent = await after(async () => (messageId = (await ok('POST', '/messages', 'member', { type: 'direct', to: [idOf('member2')], content: 'Get thee to a nunnery' })).id));
    const e = expectTo(sent, ['member', 'member2'], isType('message'));
    expect(e.member2.message).toMatchObject({
      id: messageId, type: 'private', sender_id: idOf('member'), subject: '',
      display_recipient: expect.arrayContaining([expect.objectContaining({ id: idOf('member'), email: user('member').email, full_name: 'King Hamlet' })]),
    });
    expect(e.member2.message.display_recipient).toHaveLength(2);
    const typing = await after(() => ok('POST', '/typing', 'member', { op: 'start', type: 'direct', to: [idOf('member2')] }));
    expect(expectTo(typing, ['member', 'member2'], isType('typing')).member2).toMatchObject({
      op: 'start', message_type: 'direct', sender: { user_id: idOf('member'), email: user('member').email },
      recipients: expect.arrayContaining([{ user_id: idOf('member'), email: user('member').email }, { user_id: idOf('member2'), email: user('member2').email }]),
    });
    expect(only(typing, 'legacy', isType('typing')).message_type).toBe('direct');
    const editing = await after(() => ok('POST', `/messages/${messageId}/typing`, 'member', { op: 'stop' }));
    expect(receivers(editing, PEOPLE, isType('typing_edit_message')).filter((n) => n !== 'member')).toEqual(['member2']);
    expect(only(editing, 'member2', isType('typing_edit_message'))).toMatchObject({ op: 'stop', message_id: messageId, recipient: { type: 'direct' } });
    const deleted = await after(() => ok('DELETE', `/messages/${messageId}`, 'member'));
    expect(expectTo(deleted, ['member', 'member2'], isType('delete_message')).member2).toMatchObject({ message_ids: [messageId], message_type: 'private' });
  });
});

describe('uploads and deactivation', () => {
  it('attachment add, update when a message links it, and remove, to its owner only', async () => {
    let attachmentId = 0;
    let pathId = '';
    const uploaded = await after(async () => (pathId = (await ok('POST', '/user_uploads', 'member2', {}, { files: [{ field: 'file', name: 'letter.txt', type: 'text/plain', data: Buffer.from('Doubt thou the stars are fire') }] })).url));
    const added = expectTo(uploaded, ['member2'], isType('attachment', 'add')).member2;
    attachmentId = added.attachment.id;
    expect(added).toMatchObject({
      attachment: { id: expect.any(Number), name: 'letter.txt', path_id: pathId.replace('/user_uploads/', ''), size: 29, create_time: expect.any(Number), messages: [] },
      upload_space_used: expect.any(Number),
    });
    // The uploads service links files from the message stream, after the send has committed.
    const sent = await ok('POST', '/messages', 'member2', { type: 'direct', to: [idOf('member')], content: `[letter](${pathId})` });
    const seen: Event[] = [];
    for (let tries = 0; !seen.some(isType('attachment', 'update')); tries++) {
      if (tries > 50) throw new Error('no attachment update arrived');
      const got = await after(async () => undefined);
      expect(receivers(got, PEOPLE, isType('attachment')).filter((n) => n !== 'member2')).toEqual([]);
      seen.push(...got.member2!.filter(isType('attachment')));
    }
    expect(seen).toEqual([expect.objectContaining({ op: 'update', attachment: expect.objectContaining({ id: attachmentId, messages: [{ id: sent.id, date_sent: expect.any(Number) }] }) })]);
    const removed = await after(() => ok('DELETE', `/attachments/${attachmentId}`, 'member2'));
    expect(expectTo(removed, ['member2'], isType('attachment', 'remove')).member2).toMatchObject({ attachment: { id: attachmentId }, upload_space_used: expect.any(Number) });
  });

  it('realm icon as realm update_dict to everyone', async () => {
    const got = await after(() => ok('POST', '/realm/icon', 'admin', {}, { files: [{ field: 'file', name: 'icon.png', type: 'image/png', data: PNG }] }));
    expect(expectTo(got, EVERYONE, isType('realm', 'update_dict')).guest).toMatchObject({ property: 'icon', data: { icon_url: expect.any(String), icon_source: 'U' } });
  });

  it('deactivating a bot: realm_bot update to administrators and its owner, realm_user update to everyone', async () => {
    const bots = (await ok('GET', '/bots', 'member')).bots as Array<{ user_id: number; full_name: string }>;
    const yorick = bots.find((b) => b.full_name === 'Poor Yorick')!.user_id;
    const got = await after(() => ok('DELETE', `/bots/${yorick}`, 'member'));
    expect(expectTo(got, ['owner', 'admin', 'member'], isType('realm_bot')).owner).toEqual({ type: 'realm_bot', id: expect.any(Number), op: 'update', bot: { user_id: yorick, is_active: false } });
    expect(expectTo(got, EVERYONE, isType('realm_user', 'update')).guest.person).toEqual({ user_id: yorick, is_active: false });
  });
});

it('answers a silent blocking poll with a heartbeat', async () => {
  const q = new EventQueue('heartbeat', user('moderator'));
  await q.register(call, { event_types: ['message'] });
  const res = await call('GET', '/events', user('moderator'), { queue_id: q.queueId, last_event_id: '-1' });
  expect(res.body.events).toEqual([{ type: 'heartbeat', id: expect.any(Number) }]);
});
