import { flagBit } from '@chat/contracts';
import { doCreateUser } from '@chat/realm';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { start, type EventsHandle } from '../app';
import { register } from './support';

let env: TestEnv;
let realm: SeededRealm;
let service: EventsHandle;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  service = await start({ ...env.env, STREAM_PARTITIONS: '2' });
  const { db } = env;
  const realmId = realm.realmId;
  const me = realm.member.id;
  await db.navigationView.createMany({ data: [{ realmId, userId: me, fragment: 'inbox', isPinned: true }, { realmId, userId: me, fragment: 'narrow/is/alerted', isPinned: false, name: 'Alerts' }] });
  await db.savedSnippet.create({ data: { realmId, userId: me, title: 'Hi', content: 'Hello **there**' } });
  await db.savedSnippet.create({ data: { realmId, userId: realm.member2.id, title: 'Not mine', content: 'x' } });
  await db.linkifier.create({ data: { realmId, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://tracker.test/{id}' } });
  await db.alertWord.create({ data: { realmId, userId: me, word: 'fjord' } });
  await db.userStatus.create({ data: { realmId, userId: me, statusText: 'On a boat' } });
  const field = await db.customProfileField.create({ data: { realmId, name: 'Phone', fieldType: 1, order: 1 } });
  await db.customProfileFieldValue.create({ data: { fieldId: field.id, userId: me, value: '555' } });
  // A direct conversation with one message, the way messaging stores it.
  const conv = await db.directConversation.create({ data: { realmId, memberKey: [me, realm.member2.id].sort().join(','), memberIds: [me, realm.member2.id] } });
  const msg = await db.message.create({ data: { realmId, senderId: me, recipientType: 'private', conversationId: conv.id, content: 'hi', renderedContent: '<p>hi</p>' } });
  const flags = flagBit('is_private');
  await db.userMessage.createMany({ data: [{ userId: me, messageId: msg.id, flags }, { userId: realm.member2.id, messageId: msg.id, flags }] });
});

afterAll(async () => {
  await service?.stop();
  await env?.close();
});

it('reads the sections other areas own from the shared database', async () => {
  const body = (await register(service.url, realm.realmId, realm.member, {
    client_capabilities: JSON.stringify({ linkifier_url_template: true }),
  })).body;
  expect(body.navigation_views).toEqual([
    { fragment: 'inbox', is_pinned: true },
    { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' },
  ]);
  expect(body.saved_snippets).toEqual([{ id: expect.any(Number), title: 'Hi', content: 'Hello **there**', date_created: expect.any(Number) }]);
  expect(body.realm_linkifiers).toMatchObject([{ pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.test/{id}', id: expect.any(Number) }]);
  expect(body.alert_words).toEqual(['fjord']);
  expect(body.user_status).toEqual({ [realm.member.id]: { status_text: 'On a boat' } });
  expect(body.custom_profile_fields).toMatchObject([{ name: 'Phone', type: 1 }]);
  const me = body.realm_users.find((u: { user_id: number }) => u.user_id === realm.member.id);
  expect(Object.values(me.profile_data)).toEqual([{ value: '555' }]);
  expect(body.recent_private_conversations).toEqual([{ max_message_id: expect.any(Number), user_ids: [realm.member2.id] }]);
  expect(body.max_message_id).toBe(body.recent_private_conversations[0].max_message_id);
});

it('gives the viewer\'s drafts while they are synchronised, and none once the user turns that off', async () => {
  const { db } = env;
  const draft = await db.draft.create({
    data: { realmId: realm.realmId, userId: realm.member.id, type: 'private', toUserIds: [realm.member2.id], content: 'half a thought', lastEditTime: new Date(1_700_000_000_000) },
  });
  await db.draft.create({ data: { realmId: realm.realmId, userId: realm.member2.id, type: '', content: 'not mine', lastEditTime: new Date() } });
  const fetch = { fetch_event_types: JSON.stringify(['drafts']) };
  expect((await register(service.url, realm.realmId, realm.member, fetch)).body.drafts).toEqual([
    { id: draft.id, type: 'private', to: [realm.member2.id], topic: '', content: 'half a thought', timestamp: 1_700_000_000 },
  ]);
  const user = await db.user.findUniqueOrThrow({ where: { id: realm.member.id } });
  await db.user.update({ where: { id: user.id }, data: { settings: { ...(user.settings as object), enable_drafts_synchronization: false } } });
  try {
    expect((await register(service.url, realm.realmId, realm.member, fetch)).body.drafts).toEqual([]);
  } finally {
    await db.user.update({ where: { id: user.id }, data: { settings: user.settings as object } });
  }
});

it('sends no linkifiers to clients without URL-template support', async () => {
  const body = (await register(service.url, realm.realmId, realm.member)).body;
  expect(body.realm_linkifiers).toEqual([]);
});

it('hides delivery emails by the owner\'s visibility setting', async () => {
  await env.db.user.update({ where: { id: realm.member2.id }, data: { settings: { email_address_visibility: 3 } } });
  const asMember = (await register(service.url, realm.realmId, realm.member)).body.realm_users;
  const asAdmin = (await register(service.url, realm.realmId, realm.admin)).body.realm_users;
  const find = (list: Array<{ user_id: number; delivery_email: string | null }>) => list.find((u) => u.user_id === realm.member2.id)!;
  expect(find(asMember).delivery_email).toBeNull();
  expect(find(asAdmin).delivery_email).toBe(realm.member2.email);
});

it('gives the realm icon the way the uploads service announces it: the identicon until one is uploaded', async () => {
  const before = (await register(service.url, realm.realmId, realm.member)).body;
  expect(before.realm_icon_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon$/);
  expect(before.realm_icon_source).toBe('G');
  const uploaded = `/user_avatars/${realm.realmId}/realm/icon.png?version=1`;
  await env.db.realm.update({ where: { id: realm.realmId }, data: { iconUrl: uploaded } });
  const after = (await register(service.url, realm.realmId, realm.member)).body;
  expect(after).toMatchObject({ realm_icon_url: uploaded, realm_icon_source: 'U' });
  await env.db.realm.update({ where: { id: realm.realmId }, data: { iconUrl: null } });
});

it('gives realm_users the User object GET /users gives, and the viewer\'s medium avatar', async () => {
  const body = (await register(service.url, realm.realmId, realm.member)).body;
  const byId = new Map((body.realm_users as Array<Record<string, unknown>>).map((u) => [u.user_id, u]));
  const fields = [
    'user_id', 'delivery_email', 'email', 'full_name', 'date_joined', 'is_active', 'is_owner', 'is_admin', 'is_guest',
    'is_bot', 'bot_type', 'bot_owner_id', 'role', 'timezone', 'avatar_url', 'avatar_version', 'is_imported_stub',
  ];
  for (const u of byId.values()) for (const f of fields) expect(u).toHaveProperty(f);
  const owner = byId.get(realm.owner.id)!;
  expect(owner).toMatchObject({ is_owner: true, is_bot: false, bot_type: null, bot_owner_id: null, profile_data: {} });
  expect(owner.date_joined).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d\+00:00$/);
  const bot = byId.get(realm.bot.id)!;
  expect(bot).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: realm.member.id });
  expect(bot).not.toHaveProperty('profile_data');
  expect(body.avatar_url_medium).toMatch(/[?&]s=500&/);
  expect(body.avatar_url).not.toMatch(/[?&]s=500/);
});

it('gives channels the object the messaging service gives: counts of active subscribers, traffic, recent activity', async () => {
  const { db } = env;
  // A realm of its own: channel traffic is counted once per realm and replica and kept a while.
  const own = await seedRealm(db, 'traffic');
  const realmId = own.realmId;
  const day = 86_400_000;
  const stream = await db.stream.create({
    data: { realmId, name: 'Lagoon', nameKey: 'lagoon', dateCreated: new Date(Date.now() - 60 * day), creatorId: own.owner.id },
  });
  const gone = await doCreateUser(db, { realmId, email: 'gone@chat.test', fullName: 'Gone' });
  await db.user.update({ where: { id: gone.id }, data: { isActive: false } });
  await db.subscription.createMany({
    data: [own.member.id, own.member2.id, gone.id].map((userId) => ({ userId, streamId: stream.id, color: '#76ce90' })),
  });
  const send = (daysAgo: number) =>
    db.message.create({
      data: { realmId, senderId: own.member.id, recipientType: 'stream', streamId: stream.id, topic: 't', content: 'x', renderedContent: '<p>x</p>', dateSent: new Date(Date.now() - daysAgo * day) },
    });
  await send(100);
  for (let i = 0; i < 8; i++) await send(10);

  const body = (await register(service.url, realmId, own.member, { include_subscribers: 'true' })).body;
  const expected = { subscriber_count: 2, stream_weekly_traffic: 2, is_recently_active: true };
  const sub = body.subscriptions.find((s: { stream_id: number }) => s.stream_id === stream.id);
  expect(sub).toMatchObject({ ...expected, subscribers: [own.member.id, own.member2.id] });
  expect(body.streams.find((s: { stream_id: number }) => s.stream_id === stream.id)).toMatchObject(expected);
  // Without notification_settings_null, null channel notification settings take the user's
  // defaults; wildcard_mentions_notify stays null.
  expect(sub).toMatchObject({ desktop_notifications: false, push_notifications: false, wildcard_mentions_notify: null });
});
