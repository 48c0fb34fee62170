/**
 * Register's answer as the family's clients parse it: every key the mobile app requires with its
 * JSON type, the version keys whatever was fetched, every realm setting with its default on a
 * fresh realm, the system bots as cross_realm_bots, and idle_queue_timeout=mobile.
 */
import { FEATURE_LEVEL, SERVER_EMOJI_DATA_PATH, SERVER_VERSION } from '@chat/contracts';
import { doCreateUser, REALM_GROUP_SETTING_DEFAULTS, REALM_POLICY_DEFAULTS, SYSTEM_BOTS } from '@chat/realm';
import { seedRealm, setupTestEnv, TEST_REALM_URL, type SeededRealm, type TestEnv } from '@chat/testing';
import { STREAM_GROUP_SETTING_DEFAULTS } from '@chat/wire';
import { start, type EventsHandle } from '../app';
import { MOBILE_IDLE_QUEUE_TIMEOUT_SECS } from '../routes/register-params';
import { register } from './support';

let env: TestEnv;
let realm: SeededRealm;
let service: EventsHandle;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  service = await start({ ...env.env, STREAM_PARTITIONS: '2', PARTITION_LEASE_MS: '1000', MERGE_BASE: 'v1.2.3-5-gabc' });
});

afterAll(async () => {
  await service?.stop();
  await env?.close();
});

type JsonType = 'number' | 'string' | 'boolean' | 'array' | 'object';
const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** InitialSnapshot's REQUIRED keys in the mobile client contract, with their JSON types. */
const REQUIRED: Record<string, JsonType> = {
  last_event_id: 'number',
  zulip_feature_level: 'number',
  zulip_version: 'string',
  zulip_merge_base: 'string',
  alert_words: 'array',
  custom_profile_fields: 'array',
  max_stream_name_length: 'number',
  max_topic_length: 'number',
  server_presence_ping_interval_seconds: 'number',
  server_presence_offline_threshold_seconds: 'number',
  muted_users: 'array',
  presences: 'object',
  realm_emoji: 'object',
  realm_user_groups: 'array',
  recent_private_conversations: 'array',
  subscriptions: 'array',
  unread_msgs: 'object',
  starred_messages: 'array',
  streams: 'array',
  user_status: 'object',
  user_settings: 'object',
  user_topics: 'array',
  realm_wildcard_mention_policy: 'number',
  realm_name: 'string',
  realm_waiting_period_threshold: 'number',
  realm_allow_message_editing: 'boolean',
  realm_enable_read_receipts: 'boolean',
  realm_icon_url: 'string',
  realm_presence_disabled: 'boolean',
  realm_default_external_accounts: 'object',
  max_file_upload_size_mib: 'number',
  server_emoji_data_url: 'string',
  event_queue_longpoll_timeout_seconds: 'number',
  realm_users: 'array',
  realm_non_active_users: 'array',
  cross_realm_bots: 'array',
};

/** The User object's REQUIRED keys. */
const USER_REQUIRED: Record<string, JsonType> = {
  user_id: 'number',
  email: 'string',
  full_name: 'string',
  date_joined: 'string',
  is_active: 'boolean',
  is_bot: 'boolean',
  role: 'number',
  timezone: 'string',
  avatar_version: 'number',
};

function expectTypes(obj: Record<string, unknown>, spec: Record<string, JsonType>, where: string) {
  const wrong = Object.entries(spec)
    .filter(([key, type]) => typeOf(obj[key]) !== type)
    .map(([key, type]) => `${where}.${key}: ${typeOf(obj[key])}, want ${type}`);
  expect(wrong).toEqual([]);
}

it('has every key the mobile app requires, with its JSON type', async () => {
  const bot = await doCreateUser(env.db, {
    realmId: realm.realmId, email: `${SYSTEM_BOTS.notification.local}@chat.test`, fullName: SYSTEM_BOTS.notification.fullName, isBot: true,
  });
  await env.db.stream.create({ data: { realmId: realm.realmId, name: 'Denmark', nameKey: 'denmark' } });
  const res = await register(service.url, realm.realmId, realm.member, { client_capabilities: JSON.stringify({ empty_topic_name: true }) });
  expect(res.status).toBe(200);
  expectTypes(res.body, REQUIRED, 'register');
  // Every channel carries every group setting the family's channel objects have.
  const [denmark] = res.body.streams as Array<Record<string, unknown>>;
  for (const key of Object.keys(STREAM_GROUP_SETTING_DEFAULTS)) expect([key, typeOf(denmark[key])]).toEqual([key, 'number']);
  for (const list of ['realm_users', 'realm_non_active_users', 'cross_realm_bots']) {
    for (const u of res.body[list] as Array<Record<string, unknown>>) expectTypes(u, USER_REQUIRED, `${list}[${String(u.user_id)}]`);
  }
  for (const [key, account] of Object.entries(res.body.realm_default_external_accounts as Record<string, Record<string, unknown>>)) {
    expectTypes(account, { name: 'string', text: 'string', hint: 'string', url_pattern: 'string' }, key);
  }
  expect(Object.keys(res.body.realm_default_external_accounts).sort()).toEqual(['github', 'twitter']);
  expect([1, 2, 3, 5, 6, 7]).toContain(res.body.realm_wildcard_mention_policy);
  expect(res.body.server_emoji_data_url).toBe(`${TEST_REALM_URL}${SERVER_EMOJI_DATA_PATH}`);
  expect(res.body).not.toHaveProperty('realm_is_zephyr_mirror_realm');
  // The system bot is listed once, where clients look for it.
  expect(res.body.cross_realm_bots).toEqual([expect.objectContaining({ user_id: bot.id, is_bot: true, is_system_bot: true, full_name: 'Notification Bot' })]);
  expect((res.body.realm_users as Array<{ user_id: number }>).map((u) => u.user_id)).not.toContain(bot.id);
  // A bot someone owns is one of the realm's people, not a system bot.
  expect((res.body.realm_users as Array<{ user_id: number }>).map((u) => u.user_id)).toContain(realm.bot.id);
});

it('sends the version keys under both names even when the realm is not fetched', async () => {
  const res = await register(service.url, realm.realmId, realm.member, { fetch_event_types: '["message"]' });
  expect(res.status).toBe(200);
  const version = { version: SERVER_VERSION, feature_level: FEATURE_LEVEL, merge_base: 'v1.2.3-5-gabc' };
  for (const prefix of ['zulip', 'svc']) {
    for (const [key, value] of Object.entries(version)) expect(res.body[`${prefix}_${key}`]).toEqual(value);
  }
  expect(res.body).not.toHaveProperty('realm_name');
});

it('gives every realm setting its default on a fresh realm, group settings as system group ids', async () => {
  const res = await register(service.url, realm.realmId, realm.member, { fetch_event_types: '["realm"]' });
  for (const [key, value] of Object.entries(REALM_POLICY_DEFAULTS)) expect([key, res.body[`realm_${key}`]]).toEqual([key, value]);
  const groups = await env.db.userGroup.findMany({ where: { realmId: realm.realmId, isSystemGroup: true } });
  const idOf = new Map(groups.map((g) => [g.name, g.id]));
  for (const [key, group] of Object.entries(REALM_GROUP_SETTING_DEFAULTS)) {
    expect([key, res.body[`realm_${key}`]]).toEqual([key, idOf.get(group)]);
  }
  expect(res.body).toMatchObject({
    realm_wildcard_mention_policy: 5,
    realm_mandatory_topics: false,
    realm_topics_policy: 'allow_empty_topic',
    realm_empty_topic_display_name: 'general chat',
    realm_message_edit_history_visibility_policy: 'all',
    server_typing_started_expiry_period_milliseconds: 15000,
    server_typing_stopped_wait_period_milliseconds: 5000,
    server_typing_started_wait_period_milliseconds: 10000,
    server_thumbnail_formats: [
      { name: '840x560-anim.webp', max_width: 840, max_height: 560, format: 'webp', animated: true },
      { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
    ],
    server_needs_upgrade: false,
    server_web_public_streams_enabled: true,
    server_can_summarize_topics: false,
    server_report_message_types: expect.arrayContaining([{ key: 'spam', name: 'Spam' }]),
  });
  const permissions = res.body.server_supported_permission_settings as Record<string, Record<string, { default_group_name: string }>>;
  expect(permissions.realm.can_invite_users_group.default_group_name).toBe('role:members');
  expect(permissions.stream.can_subscribe_group.default_group_name).toBe('role:nobody');
  expect(Object.keys(permissions.group)).toContain('can_join_group');
});

it('gives a stored setting over its default', async () => {
  const admins = await env.db.userGroup.findFirstOrThrow({ where: { realmId: realm.realmId, name: 'role:moderators' } });
  await env.db.realm.update({
    where: { id: realm.realmId },
    data: { settings: { waiting_period_threshold: 3, can_mention_many_users_group: admins.id }, topicsPolicy: 'disable_empty_topic' },
  });
  const res = await register(service.url, realm.realmId, realm.member, { fetch_event_types: '["realm"]' });
  expect(res.body).toMatchObject({
    realm_waiting_period_threshold: 3,
    realm_allow_message_editing: true,
    realm_can_mention_many_users_group: admins.id,
    realm_wildcard_mention_policy: 7,
    realm_mandatory_topics: true,
  });
  await env.db.realm.update({ where: { id: realm.realmId }, data: { settings: {}, topicsPolicy: 'allow_empty_topic' } });
});

it("tells the viewer what the realm's group settings let them do", async () => {
  const mine = async (user: typeof realm.member) => (await register(service.url, realm.realmId, user, { fetch_event_types: '["realm_user"]' })).body;
  const keys = ['can_create_public_streams', 'can_create_private_streams', 'can_create_web_public_streams', 'can_create_streams', 'can_subscribe_other_users', 'can_invite_others_to_realm'];
  const facts = (body: Record<string, unknown>) => Object.fromEntries(keys.map((k) => [k, body[k]]));
  expect(facts(await mine(realm.member))).toEqual({
    can_create_public_streams: true, can_create_private_streams: true, can_create_web_public_streams: false,
    can_create_streams: true, can_subscribe_other_users: true, can_invite_others_to_realm: true,
  });
  expect(Object.values(facts(await mine(realm.guest)))).toEqual(keys.map(() => false));
  // Only administrators may invite once the setting says so.
  const admins = await env.db.userGroup.findFirstOrThrow({ where: { realmId: realm.realmId, name: 'role:administrators' } });
  await env.db.realm.update({ where: { id: realm.realmId }, data: { settings: { can_invite_users_group: admins.id } } });
  expect((await mine(realm.member)).can_invite_others_to_realm).toBe(false);
  expect((await mine(realm.admin)).can_invite_others_to_realm).toBe(true);
  await env.db.realm.update({ where: { id: realm.realmId }, data: { settings: {} } });
});

it('gives the top-level settings only to clients without user_settings_object', async () => {
  const fetch = { fetch_event_types: '["update_display_settings", "update_global_notifications"]' };
  const legacy = (await register(service.url, realm.realmId, realm.member, fetch)).body;
  expect(legacy).toMatchObject({ enter_sends: false, enable_sounds: true, default_language: 'en', emojiset_choices: expect.any(Array) });
  expect(legacy).not.toHaveProperty('user_settings');
  const modern = (await register(service.url, realm.realmId, realm.member, { ...fetch, client_capabilities: '{"user_settings_object": true}' })).body;
  expect(modern).not.toHaveProperty('enter_sends');
  expect(modern).not.toHaveProperty('enable_sounds');
});

describe('idle_queue_timeout', () => {
  it('takes "mobile" as the long timeout phones get', async () => {
    const res = await register(service.url, realm.realmId, realm.member, { idle_queue_timeout: 'mobile', fetch_event_types: '[]' });
    expect(res.status).toBe(200);
    expect(res.body.idle_queue_timeout_secs).toBe(MOBILE_IDLE_QUEUE_TIMEOUT_SECS);
    const ttl = await env.redis.pttl(`${env.prefix}{q:${res.body.queue_id}}:meta`);
    expect(ttl).toBeGreaterThan((MOBILE_IDLE_QUEUE_TIMEOUT_SECS - 60) * 1000);
  });

  it('refuses other words and fractions', async () => {
    for (const bad of ['desktop', '1.5', '']) {
      const res = await register(service.url, realm.realmId, realm.member, { idle_queue_timeout: bad });
      expect([bad, res.status, res.body]).toEqual([bad, 400, expect.objectContaining({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid idle_queue_timeout', var_name: 'idle_queue_timeout' })]);
    }
  });
});
