/**
 * Register's sections for topic visibility, custom emoji, bots, realm defaults for new users,
 * default channels, push devices, and the honestly empty sections of features this cluster does
 * not have, each from rows stored as their owning service stores them.
 */
import { doCreateUser, DEFAULT_USER_SETTINGS } from '@chat/realm';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { start, type EventsHandle } from '../app';
import { register } from './support';

let env: TestEnv;
let realm: SeededRealm;
let elsewhere: SeededRealm;
let service: EventsHandle;
let lunch: number;
let archived: number;
const updated = new Date('2025-03-04T05:06:07.890Z');
const updatedSecs = Math.floor(updated.getTime() / 1000);

const fetch = (...types: string[]) => ({ fetch_event_types: JSON.stringify(types) });

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  elsewhere = await seedRealm(env.db, 'elsewhere');
  service = await start({ ...env.env, STREAM_PARTITIONS: '2' });
  const { db } = env;
  const realmId = realm.realmId;
  lunch = (await db.stream.create({ data: { realmId, name: 'Lunch', nameKey: 'lunch' } })).id;
  archived = (await db.stream.create({ data: { realmId, name: 'Old', nameKey: 'old', isArchived: true } })).id;
  const topic = (userId: number, streamId: number, topicName: string, visibilityPolicy: number) =>
    db.userTopic.create({ data: { realmId, userId, streamId, topicName, topicKey: topicName.toLowerCase(), visibilityPolicy, lastUpdated: updated } });
  await topic(realm.member.id, lunch, 'Soup', 3);
  await topic(realm.member.id, lunch, '', 1);
  await topic(realm.member.id, archived, 'gone', 1);
  await topic(realm.member2.id, lunch, 'Soup', 1);
});

afterAll(async () => {
  await service?.stop();
  await env?.close();
});

describe('user_topics and muted_topics', () => {
  it('gives the viewer\'s topic policies outside archived channels', async () => {
    const body = (await register(service.url, realm.realmId, realm.member, fetch('user_topic'))).body;
    expect(body.user_topics).toEqual([
      { stream_id: lunch, topic_name: 'Soup', visibility_policy: 3, last_updated: updatedSecs },
      { stream_id: lunch, topic_name: 'general chat', visibility_policy: 1, last_updated: updatedSecs },
    ]);
    expect(body).not.toHaveProperty('muted_topics');
    const raw = (await register(service.url, realm.realmId, realm.member, {
      ...fetch('user_topic'),
      client_capabilities: JSON.stringify({ empty_topic_name: true }),
    })).body;
    expect(raw.user_topics[1].topic_name).toBe('');
  });

  it('gives muted_topics to clients that do not ask for user_topic', async () => {
    const body = (await register(service.url, realm.realmId, realm.member, fetch('muted_topics'))).body;
    expect(body.muted_topics).toEqual([['Lunch', '', updatedSecs]]);
    expect(body).not.toHaveProperty('user_topics');
    expect((await register(service.url, realm.realmId, realm.member, fetch('muted_topics', 'user_topic'))).body).not.toHaveProperty('muted_topics');
    const everything = (await register(service.url, realm.realmId, realm.member)).body;
    expect(everything.muted_topics).toEqual([['Lunch', '', updatedSecs]]);
    expect(everything.user_topics).toHaveLength(2);
  });

  it('shows each user their own policies only', async () => {
    const body = (await register(service.url, realm.realmId, realm.member2, fetch('user_topic'))).body;
    expect(body.user_topics).toEqual([{ stream_id: lunch, topic_name: 'Soup', visibility_policy: 1, last_updated: updatedSecs }]);
    expect((await register(service.url, realm.realmId, realm.admin, fetch('user_topic'))).body.user_topics).toEqual([]);
  });
});

describe('realm_emoji', () => {
  it('gives every custom emoji of the realm by id, deactivated ones included, in the uploads service\'s shape', async () => {
    const { db } = env;
    const emoji = async (realmId: number, name: string, ext: string | null, extra: { isAnimated?: boolean; deactivated?: boolean; authorId?: number } = {}) => {
      const row = await db.realmEmoji.create({ data: { realmId, name, authorId: extra.authorId ?? null, ...extra } });
      return ext === null ? row : db.realmEmoji.update({ where: { id: row.id }, data: { fileName: `${row.id}.${ext}` } });
    };
    const green = await emoji(realm.realmId, 'green_tick', 'png', { authorId: realm.member.id });
    const party = await emoji(realm.realmId, 'party', 'gif', { isAnimated: true, deactivated: true });
    await emoji(realm.realmId, 'still_uploading', null);
    await emoji(elsewhere.realmId, 'not_here', 'png');
    const body = (await register(service.url, realm.realmId, realm.member, fetch('realm_emoji'))).body;
    expect(body.realm_emoji).toEqual({
      [green.id]: {
        id: String(green.id), name: 'green_tick', source_url: `/user_avatars/${realm.realmId}/emoji/images/${green.id}.png`,
        still_url: null, deactivated: false, author_id: realm.member.id,
      },
      [party.id]: {
        id: String(party.id), name: 'party', source_url: `/user_avatars/${realm.realmId}/emoji/images/${party.id}.gif`,
        still_url: `/user_avatars/${realm.realmId}/emoji/images/still/${party.id}.png`, deactivated: true, author_id: null,
      },
    });
    // Only what was asked for.
    for (const key of ['realm_bots', 'user_topics', 'realm_user_settings_defaults', 'devices', 'muted_users', 'unread_msgs']) {
      expect(body).not.toHaveProperty(key);
    }
  });
});

describe('realm_bots', () => {
  it('gives members their own bots, deactivated ones included, and administrators every bot', async () => {
    const { db } = env;
    const realmId = realm.realmId;
    const retired = await doCreateUser(db, { realmId, email: 'retired-bot@chat.test', fullName: 'Retired', isBot: true, botType: 2, botOwnerId: realm.member.id });
    await db.user.update({ where: { id: retired.id }, data: { isActive: false } });
    const theirs = await doCreateUser(db, { realmId, email: 'theirs-bot@chat.test', fullName: 'Theirs', isBot: true, botType: 1, botOwnerId: realm.member2.id });
    await doCreateUser(db, { realmId: elsewhere.realmId, email: 'far-bot@chat.test', fullName: 'Far', isBot: true, botType: 1, botOwnerId: elsewhere.member.id });

    const mine = (await register(service.url, realmId, realm.member, fetch('realm_bot'))).body.realm_bots;
    const bot = await db.user.findUniqueOrThrow({ where: { id: realm.bot.id } });
    expect(mine).toEqual([
      {
        user_id: bot.id, email: bot.email, full_name: 'Default Bot', bot_type: 1, is_active: true,
        avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/),
        default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false,
        owner_id: realm.member.id, services: [],
      },
      expect.objectContaining({ user_id: retired.id, bot_type: 2, is_active: false, owner_id: realm.member.id }),
    ]);
    const all = (await register(service.url, realmId, realm.admin, fetch('realm_bot'))).body.realm_bots as Array<{ user_id: number }>;
    expect(all.map((b) => b.user_id)).toEqual([realm.bot.id, retired.id, theirs.id]);
    expect((await register(service.url, realmId, realm.guest, fetch('realm_bot'))).body.realm_bots).toEqual([]);
  });

  it('lists an outgoing-webhook bot with its service', async () => {
    const { db } = env;
    const hook = await doCreateUser(db, { realmId: realm.realmId, email: 'hook-bot@chat.test', fullName: 'Hook', isBot: true, botType: 3, botOwnerId: realm.member.id });
    await db.botService.create({ data: { botId: hook.id, name: 'hook', baseUrl: 'https://bots.example.com/hook', interface: 2, token: 'service-token' } });
    const mine = (await register(service.url, realm.realmId, realm.member, fetch('realm_bot'))).body.realm_bots as Array<{ user_id: number; services: unknown[] }>;
    expect(mine.find((b) => b.user_id === hook.id)).toMatchObject({ bot_type: 3, services: [{ base_url: 'https://bots.example.com/hook', interface: 2, token: 'service-token' }] });
    expect(mine.find((b) => b.user_id === realm.bot.id)!.services).toEqual([]);
  });
});

describe('realm_user_settings_defaults', () => {
  it('gives what people who join later start with, and the choices clients offer', async () => {
    const r = await env.db.realm.findUniqueOrThrow({ where: { id: realm.realmId } });
    await env.db.realm.update({ where: { id: r.id }, data: { settings: { ...(r.settings as object), user_defaults: { twenty_four_hour_time: true, emojiset: 'text' } } } });
    try {
      const body = (await register(service.url, realm.realmId, realm.member, fetch('realm_user_settings_defaults'))).body;
      const { timezone: _timezone, ...defaults } = DEFAULT_USER_SETTINGS;
      expect(body.realm_user_settings_defaults).toEqual({
        ...defaults,
        twenty_four_hour_time: true,
        emojiset: 'text',
        emojiset_choices: [{ key: 'google', text: 'Google' }, { key: 'twitter', text: 'Twitter' }, { key: 'text', text: 'Plain text' }],
        available_notification_sounds: expect.arrayContaining(['zulip', 'ding', 'chime-sequence']),
      });
      const sounds = body.realm_user_settings_defaults.available_notification_sounds as string[];
      expect(sounds).not.toContain('none');
      expect(sounds).toEqual([...sounds].sort());
      // The viewer's own settings are theirs, not the new defaults.
      const own = (await register(service.url, realm.realmId, realm.member, fetch('user_settings'))).body.user_settings;
      expect(own).toMatchObject({ twenty_four_hour_time: false, emojiset_choices: body.realm_user_settings_defaults.emojiset_choices });
    } finally {
      await env.db.realm.update({ where: { id: r.id }, data: { settings: r.settings as object } });
    }
  });
});

describe('realm_default_streams', () => {
  it('gives the default channels that still exist, and none to guests', async () => {
    const r = await env.db.realm.findUniqueOrThrow({ where: { id: realm.realmId } });
    await env.db.realm.update({ where: { id: r.id }, data: { settings: { ...(r.settings as object), default_stream_ids: [archived, lunch, 987654] } } });
    try {
      const types = fetch('default_streams', 'default_stream_groups');
      const body = (await register(service.url, realm.realmId, realm.member, types)).body;
      expect(body.realm_default_streams).toEqual([lunch]);
      expect(body.realm_default_stream_groups).toEqual([]);
      expect((await register(service.url, realm.realmId, realm.guest, types)).body.realm_default_streams).toEqual([]);
    } finally {
      await env.db.realm.update({ where: { id: r.id }, data: { settings: r.settings as object } });
    }
  });
});

describe('devices', () => {
  it('gives the words message search ignores, each one the database ignores', async () => {
    const body = (await register(service.url, realm.realmId, realm.member, fetch('stop_words'))).body;
    const words = body.stop_words as string[];
    expect(words.length).toBeGreaterThan(100);
    // Each is dropped by the english configuration search runs on; an ordinary word is not.
    const [row] = await env.db.$queryRawUnsafe<Array<{ kept: string; plain: string }>>(
      `SELECT to_tsvector('english', $1)::text AS kept, to_tsvector('english', 'castle')::text AS plain`, words.join(' '),
    );
    expect(row).toEqual({ kept: '', plain: "'castl':1" });
    // Sent by default, and not when other sections alone are asked for.
    expect((await register(service.url, realm.realmId, realm.member)).body.stop_words).toEqual(words);
    expect((await register(service.url, realm.realmId, realm.member, fetch('realm_user'))).body.stop_words).toBeUndefined();
    // Nor at the top level any more: role, avatar_version and is_billing_admin are only in one's user object, or gone.
    const own = (await register(service.url, realm.realmId, realm.member, fetch('realm_user'))).body;
    expect(['role', 'avatar_version', 'is_billing_admin'].filter((k) => k in own)).toEqual([]);
    expect(own.realm_users.find((u: { user_id: number }) => u.user_id === realm.member.id)).toMatchObject({ role: 400, avatar_version: expect.any(Number) });
    expect(own.realm_users.some((u: Record<string, unknown>) => 'is_billing_admin' in u)).toBe(false);
  });

  it('gives the viewer\'s push devices by device_id with their registration state', async () => {
    const { db } = env;
    const realmId = realm.realmId;
    await db.pushDevice.createMany({
      data: [
        {
          realmId, userId: realm.member.id, deviceId: 7n, pushKey: Buffer.alloc(33, 1), pushKeyId: 4_000_000_000n, pushTokenKind: 'fcm',
          // Beyond 2^53: register must not read it through a JSON number.
          pushTokenId: -9007199254740993n, pendingPushTokenId: 1n, pushTokenLastUpdated: updated, pushRegistrationErrorCode: 'REQUEST_EXPIRED',
        },
        { realmId, userId: realm.member.id, deviceId: 2n },
        { realmId, userId: realm.member2.id, deviceId: 3n },
      ],
    });
    const body = (await register(service.url, realmId, realm.member, fetch('device'))).body;
    expect(body.devices).toEqual({
      2: { push_key_id: null, push_token_id: null, pending_push_token_id: null, push_token_last_updated_timestamp: null, push_registration_error_code: null },
      7: {
        push_key_id: 4_000_000_000, push_token_id: '/9////////8=', pending_push_token_id: 'AAAAAAAAAAE=',
        push_token_last_updated_timestamp: updatedSecs, push_registration_error_code: 'REQUEST_EXPIRED',
      },
    });
    expect((await register(service.url, realmId, realm.admin, fetch('device'))).body.devices).toEqual({});
  });
});

it('sends empty sections in their shapes: a new realm\'s mutes, domains and default channel groups', async () => {
  const body = (await register(service.url, realm.realmId, realm.member)).body;
  expect(body).toMatchObject({ muted_users: [], realm_domains: [], realm_default_stream_groups: [] });
  const some = (await register(service.url, realm.realmId, realm.member, fetch('muted_users'))).body;
  expect(some.muted_users).toEqual([]);
  for (const key of ['onboarding_steps', 'realm_domains', 'realm_default_stream_groups', 'realm_default_streams']) expect(some).not.toHaveProperty(key);
});
