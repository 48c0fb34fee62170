/**
 * Every channel group setting in register's `subscriptions`, `never_subscribed` and `streams`:
 * stored values as the messaging service stores them (a group id or an anonymous group), the
 * setting's default system group where none was chosen.
 */
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { STREAM_GROUP_SETTINGS, STREAM_GROUP_SETTING_NAMES } from '@chat/wire';
import { start, type EventsHandle } from '../app';
import { register } from './support';

let env: TestEnv;
let realm: SeededRealm;
let service: EventsHandle;
let sys: Map<string, number>;
let joined = 0;
let other = 0;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  service = await start({ ...env.env, STREAM_PARTITIONS: '2' });
  const { db } = env;
  const realmId = realm.realmId;
  sys = new Map((await db.userGroup.findMany({ where: { realmId, isSystemGroup: true } })).map((g) => [g.name, g.id]));
  const chosen = {
    canAdministerChannelGroup: { direct_members: [realm.member.id], direct_subgroups: [sys.get('role:moderators')!] },
    canSubscribeGroup: sys.get('role:members'),
    canDeleteAnyMessageGroup: sys.get('role:moderators'),
    canDeleteOwnMessageGroup: sys.get('role:everyone'),
    canMoveMessagesOutOfChannelGroup: { direct_members: [realm.member2.id], direct_subgroups: [] },
    canMoveMessagesWithinChannelGroup: sys.get('role:fullmembers'),
    canResolveTopicsGroup: sys.get('role:members'),
  };
  joined = (await db.stream.create({ data: { realmId, name: 'Chosen', nameKey: 'chosen', ...chosen } })).id;
  other = (await db.stream.create({ data: { realmId, name: 'Defaults', nameKey: 'defaults' } })).id;
  await db.subscription.create({ data: { userId: realm.member.id, streamId: joined } });
});

afterAll(async () => {
  await service?.stop();
  await env?.close();
});

it('gives each channel its stored group settings and the defaults of the rest', async () => {
  const res = await register(service.url, realm.realmId, realm.member, { fetch_event_types: JSON.stringify(['subscription', 'stream']) });
  expect(res.status).toBe(200);
  const expected = {
    can_administer_channel_group: { direct_members: [realm.member.id], direct_subgroups: [sys.get('role:moderators')] },
    can_subscribe_group: sys.get('role:members'),
    can_delete_any_message_group: sys.get('role:moderators'),
    can_delete_own_message_group: sys.get('role:everyone'),
    can_move_messages_out_of_channel_group: { direct_members: [realm.member2.id], direct_subgroups: [] },
    can_move_messages_within_channel_group: sys.get('role:fullmembers'),
    can_resolve_topics_group: sys.get('role:members'),
  };
  const sub = res.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === joined);
  expect(sub).toMatchObject(expected);
  expect(res.body.streams.find((s: { stream_id: number }) => s.stream_id === joined)).toMatchObject(expected);
  const never = res.body.never_subscribed.find((s: { stream_id: number }) => s.stream_id === other);
  for (const name of STREAM_GROUP_SETTING_NAMES) {
    expect([name, never[name]]).toEqual([name, sys.get(STREAM_GROUP_SETTINGS[name].defaultGroup)]);
  }
});
