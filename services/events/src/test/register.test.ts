import { FEATURE_LEVEL, SERVER_VERSION } from '@chat/contracts';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import type { QueueStore } from '@chat/queues';
import type Redis from 'ioredis';
import { start, type EventsHandle } from '../app';
import { recordMessage, register, storeFor, waitForEvents } from './support';

let env: TestEnv;
let realm: SeededRealm;
let service: EventsHandle;
let store: QueueStore;
let redis: Redis;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  service = await start({ ...env.env, STREAM_PARTITIONS: '2', PARTITION_LEASE_MS: '1000' });
  ({ store, redis } = storeFor(env));
});

afterAll(async () => {
  await service?.stop();
  redis?.disconnect();
  await env?.close();
});

it('returns a queue and the limits every client reads', async () => {
  const res = await register(service.url, realm.realmId, realm.member);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({
    result: 'success',
    last_event_id: -1,
    idle_queue_timeout_secs: 600,
    event_queue_longpoll_timeout_seconds: 90,
    max_message_length: 10000,
    max_topic_length: 60,
    realm_empty_topic_display_name: 'general chat',
    realm_topics_policy: 'allow_empty_topic',
    max_channel_folder_name_length: 60,
    max_channel_folder_description_length: 1024,
    max_file_upload_size_mib: 100,
    svc_feature_level: FEATURE_LEVEL,
  });
  expect(typeof res.body.queue_id).toBe('string');
  expect(await store.get(res.body.queue_id)).toMatchObject({ userId: realm.member.id, realmId: realm.realmId });
  const emails = (res.body.realm_users as Array<{ email: string }>).map((u) => u.email);
  expect(emails).toEqual(expect.arrayContaining([realm.owner.email, realm.member.email, realm.bot.email]));
  expect(res.body.user_settings).toMatchObject({ enter_sends: false, default_language: 'en' });
  expect(res.body.subscriptions).toEqual([]);
  expect(res.body.recent_private_conversations).toEqual([]);
  expect((res.body.realm_user_groups as Array<{ name: string }>).map((g) => g.name)).toContain('role:everyone');
});

it('sends the version keys under both names whatever was fetched', async () => {
  const cases: Array<Record<string, string>> = [{}, { fetch_event_types: JSON.stringify(['message']) }, { fetch_event_types: JSON.stringify([]) }];
  for (const params of cases) {
    const res = await register(service.url, realm.realmId, realm.member, params);
    expect(res.body).toMatchObject({
      svc_feature_level: FEATURE_LEVEL,
      svc_version: SERVER_VERSION,
      svc_merge_base: SERVER_VERSION,
      zulip_feature_level: FEATURE_LEVEL,
      zulip_version: SERVER_VERSION,
      zulip_merge_base: SERVER_VERSION,
    });
  }
});

it('delivers a message event to the recipients\' queues, formatted per queue', async () => {
  const html = (await register(service.url, realm.realmId, realm.member, { apply_markdown: 'true', client_gravatar: 'false' })).body.queue_id as string;
  const raw = (await register(service.url, realm.realmId, realm.member2, {
    apply_markdown: 'false',
    client_gravatar: 'true',
    client_capabilities: JSON.stringify({ empty_topic_name: true }),
  })).body.queue_id as string;
  const outsider = (await register(service.url, realm.realmId, realm.guest)).body.queue_id as string;

  await recordMessage(env.db, realm.realmId, {
    id: 1001,
    sender: realm.member,
    users: [realm.member.id, realm.member2.id],
    streamId: 5,
    streamName: 'Denmark',
    topic: '',
    senderQueueId: html,
    localId: '7.01',
    userFlags: { [realm.member.id]: ['read'], [realm.member2.id]: ['mentioned'] },
    senderGravatar: true,
  });

  const [mine] = await waitForEvents(store, html, realm.member.id, 1);
  expect(mine).toMatchObject({
    id: 0,
    type: 'message',
    flags: ['read'],
    local_message_id: '7.01',
    message: { id: 1001, content: '<p>message 1001</p>', content_type: 'text/html', subject: 'general chat', avatar_url: 'https://example.test/avatar.png' },
  });
  const [theirs] = await waitForEvents(store, raw, realm.member2.id, 1);
  expect(theirs).toMatchObject({
    type: 'message',
    flags: ['mentioned'],
    message: { content: 'message 1001', content_type: 'text/x-markdown', subject: '', avatar_url: null },
  });
  expect(theirs).not.toHaveProperty('local_message_id');
  expect(await store.fetch(outsider, realm.guest.id)).toEqual([]);
});
