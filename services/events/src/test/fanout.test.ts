import type { MessageObject } from '@chat/contracts';
import { recordEvent } from '@chat/bus';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import type { QueueStore } from '@chat/queues';
import type Redis from 'ioredis';
import { start, type EventsHandle } from '../app';
import { outboxDrained, recordMessage, register, storeFor, waitForEvents } from './support';

let env: TestEnv;
let realm: SeededRealm;
let other: SeededRealm;
let service: EventsHandle;
let store: QueueStore;
let redis: Redis;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  other = await seedRealm(env.db, 'other');
  service = await start({ ...env.env, STREAM_PARTITIONS: '4', PARTITION_LEASE_MS: '1000' });
  ({ store, redis } = storeFor(env));
  await outboxDrained(env.db);
});

afterAll(async () => {
  await service?.stop();
  redis?.disconnect();
  await env?.close();
});

const queueOf = async (user: SeededRealm['member'], params: Record<string, string> = {}, realmId = realm.realmId) =>
  (await register(service.url, realmId, user, params)).body.queue_id as string;

async function record(realmId: number, event: Record<string, unknown> & { type: string }, users: number[] | 'realm', routing?: Record<string, unknown>) {
  await env.db.$transaction((tx) => recordEvent(tx, { realmId, type: event.type, event, users, routing }));
}

/** Records a marker event to `userId` and returns the queue's events once the marker is in. */
async function drain(queueId: string, userId: number, realmId = realm.realmId) {
  const marker = `m${Math.random()}`;
  await record(realmId, { type: 'marker_test', marker }, [userId]);
  const deadline = Date.now() + 10000;
  for (;;) {
    const events = (await store.fetch(queueId, userId)) ?? [];
    const at = events.findIndex((e) => e.marker === marker);
    if (at >= 0) return events.slice(0, at).filter((e) => e.type !== 'marker_test');
    if (Date.now() > deadline) throw new Error('marker never arrived');
    await new Promise((r) => setTimeout(r, 30));
  }
}

it('filters by event_types and resolves realm-wide recipients within the realm only', async () => {
  const onlyUsers = await queueOf(realm.member, { event_types: JSON.stringify(['realm_user', 'marker_test']) });
  const everything = await queueOf(realm.owner);
  const elsewhere = await queueOf(other.owner, {}, other.realmId);
  await record(realm.realmId, { type: 'realm_user', op: 'update', person: { user_id: 1, full_name: 'X' } }, 'realm');
  await recordMessage(env.db, realm.realmId, { id: 1, sender: realm.owner, users: [realm.member.id, realm.owner.id] });
  expect((await drain(onlyUsers, realm.member.id)).map((e) => e.type)).toEqual(['realm_user']);
  expect((await drain(everything, realm.owner.id)).map((e) => e.type)).toEqual(['realm_user', 'message']);
  expect(await drain(elsewhere, other.owner.id, other.realmId)).toEqual([]);
});

it('gives narrowed queues only matching messages, and all_public_streams queues public ones', async () => {
  const narrowed = await queueOf(realm.member, { narrow: JSON.stringify([['stream', 'denmark'], ['topic', 'Ferries']]) });
  const publicQ = await queueOf(realm.member2, { all_public_streams: 'true' });
  const base = { sender: realm.owner, users: [realm.member.id, realm.owner.id], streamName: 'Denmark', streamId: 3 };
  await recordMessage(env.db, realm.realmId, { ...base, id: 10, topic: 'ferries', publicStream: true });
  await recordMessage(env.db, realm.realmId, { ...base, id: 11, topic: 'bridges', publicStream: true });
  await recordMessage(env.db, realm.realmId, { ...base, id: 12, streamName: 'Secret', streamId: 4, topic: 'ferries', publicStream: false });
  await recordMessage(env.db, realm.realmId, { id: 13, sender: realm.owner, users: [realm.member.id, realm.owner.id] });
  expect((await drain(narrowed, realm.member.id)).map((e) => (e.message as { id: number }).id)).toEqual([10]);
  const pub = await drain(publicQ, realm.member2.id);
  expect(pub.map((e) => (e.message as { id: number }).id)).toEqual([10, 11]);
  expect(pub[0]!.flags).toEqual([]);
});

it('applies capabilities: bulk deletion, linkifiers, fallbacks and the empty topic', async () => {
  const modern = await queueOf(realm.member, {
    client_capabilities: JSON.stringify({ bulk_message_deletion: true, linkifier_url_template: true, individual_emoji_changes: true, empty_topic_name: true }),
  });
  const legacy = await queueOf(realm.member);
  const users = [realm.member.id];
  await record(realm.realmId, { type: 'delete_message', message_ids: [5, 6], message_type: 'stream', stream_id: 3, topic: '' }, users);
  await record(realm.realmId, { type: 'realm_linkifiers', realm_linkifiers: [] }, users);
  await record(realm.realmId, { type: 'realm_emoji', op: 'add', realm_emoji: { id: '1' } }, users, {
    capability: 'individual_emoji_changes',
    fallback_event: { type: 'realm_emoji', op: 'update', realm_emoji: { 1: { id: '1' } } },
  });
  expect(await drain(modern, realm.member.id)).toMatchObject([
    { type: 'delete_message', message_ids: [5, 6], topic: '' },
    { type: 'realm_linkifiers' },
    { type: 'realm_emoji', op: 'add' },
  ]);
  const old = await drain(legacy, realm.member.id);
  expect(old).toMatchObject([
    { type: 'delete_message', message_id: 5, topic: 'general chat' },
    { type: 'delete_message', message_id: 6, topic: 'general chat' },
    { type: 'realm_emoji', op: 'update' },
  ]);
  expect(old[0]).not.toHaveProperty('message_ids');
});

it('passes over an event for no client (read by other services’ consumers) and delivers the rest of its batch', async () => {
  const q = await queueOf(realm.member2);
  await env.db.$transaction(async (tx) => {
    await recordEvent(tx, { realmId: realm.realmId, type: 'thumbnails', users: [], event: { type: 'thumbnails', path_id: '1/ab/x/y.png' } });
    await recordEvent(tx, { realmId: realm.realmId, type: 'realm_user', users: [realm.member2.id], event: { type: 'realm_user', op: 'update', person: { user_id: 9, full_name: 'After' } } });
  });
  const events = await drain(q, realm.member2.id);
  expect(events.map((e) => e.type)).toEqual(['realm_user']);
});

it('keeps the order of a burst and numbers each queue\'s events from 0', async () => {
  const q = await queueOf(realm.moderator);
  for (let i = 0; i < 40; i++) {
    await record(realm.realmId, { type: 'burst_test', n: i }, [realm.moderator.id]);
  }
  const events = await waitForEvents(store, q, realm.moderator.id, 40);
  expect(events.map((e) => e.n)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  expect(events.map((e) => e.id)).toEqual(Array.from({ length: 40 }, (_, i) => i));
});

it('drops collected queues from the indexes it meets them in', async () => {
  const q = await queueOf(realm.guest, { idle_queue_timeout: '1' });
  expect(await redis.sismember(store.userIndexKey(realm.realmId, realm.guest.id), q)).toBe(1);
  await new Promise((r) => setTimeout(r, 1200));
  await record(realm.realmId, { type: 'realm_test' }, [realm.guest.id]);
  const deadline = Date.now() + 5000;
  while ((await redis.sismember(store.userIndexKey(realm.realmId, realm.guest.id), q)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(await redis.sismember(store.userIndexKey(realm.realmId, realm.guest.id), q)).toBe(0);
});

it('drops a collected queue met through an event to many people from its own index only', async () => {
  const gone = await queueOf(realm.guest, { idle_queue_timeout: '1' });
  const kept = await queueOf(realm.member);
  const keptOwner = await queueOf(realm.owner);
  await new Promise((r) => setTimeout(r, 1200));
  await record(realm.realmId, { type: 'many_test' }, [realm.member.id, realm.guest.id, realm.owner.id]);
  expect(await drain(kept, realm.member.id)).toMatchObject([{ type: 'many_test' }]);
  const deadline = Date.now() + 5000;
  while ((await redis.sismember(store.userIndexKey(realm.realmId, realm.guest.id), gone)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(await redis.sismember(store.userIndexKey(realm.realmId, realm.guest.id), gone)).toBe(0);
  expect(await redis.sismember(store.userIndexKey(realm.realmId, realm.member.id), kept)).toBe(1);
  expect(await redis.sismember(store.userIndexKey(realm.realmId, realm.owner.id), keptOwner)).toBe(1);
  expect(await drain(keptOwner, realm.owner.id)).toMatchObject([{ type: 'many_test' }]);
});

it('nulls avatar_url for client_gravatar queues when the producer left the gravatar decision out', async () => {
  const gravatarQ = await queueOf(realm.member, { client_gravatar: 'true' });
  const plainQ = await queueOf(realm.member, { client_gravatar: 'false' });
  await env.db.$transaction((tx) => recordEvent(tx, {
    realmId: realm.realmId, type: 'message', users: [realm.member.id],
    event: { type: 'message', message: { id: 77, type: 'private', sender_id: realm.owner.id, avatar_url: 'https://secure.gravatar.com/avatar/x', content: '<p>x</p>', content_type: 'text/html', subject: '' } as MessageObject },
    routing: { stream_id: null, public_stream: false, sender_id: realm.owner.id, user_flags: {}, raw_content: 'x', topic: '' },
  }));
  expect((await drain(gravatarQ, realm.member.id))[0]).toMatchObject({ message: { id: 77, avatar_url: null } });
  expect((await drain(plainQ, realm.member.id))[0]).toMatchObject({ message: { id: 77, avatar_url: 'https://secure.gravatar.com/avatar/x' } });
});

it('gives each recipient of a non-message event its own flags from user_flags', async () => {
  const memberQ = await queueOf(realm.member);
  const ownerQ = await queueOf(realm.owner);
  const update = { type: 'update_message', message_id: 88, message_ids: [88], user_id: realm.owner.id, edit_timestamp: 1, rendering_only: false };
  await record(realm.realmId, update, [realm.member.id, realm.owner.id], {
    user_flags: { [realm.member.id]: ['mentioned'], [realm.owner.id]: ['read'] },
  });
  await record(realm.realmId, { type: 'reaction', op: 'add', message_id: 88 }, [realm.member.id]);
  const forMember = await drain(memberQ, realm.member.id);
  expect(forMember).toMatchObject([{ type: 'update_message', message_id: 88, flags: ['mentioned'] }, { type: 'reaction' }]);
  expect(forMember[1]).not.toHaveProperty('flags');
  expect(await drain(ownerQ, realm.owner.id)).toMatchObject([{ type: 'update_message', message_id: 88, flags: ['read'] }]);
});

it('leaves email out of legacy presence events for slim_presence queues', async () => {
  const slimQ = await queueOf(realm.member, { slim_presence: 'true' });
  const legacyQ = await queueOf(realm.member);
  const modernQ = await queueOf(realm.member, { slim_presence: 'true', client_capabilities: JSON.stringify({ simplified_presence_events: true }) });
  const entry = { client: 'website', status: 'active', timestamp: 1700000000, pushable: false };
  await record(realm.realmId, { type: 'presence', presences: { [realm.owner.id]: { active_timestamp: 1700000000, idle_timestamp: 1700000000 } } }, [realm.member.id], {
    capability: 'simplified_presence_events',
    fallback_event: { type: 'presence', user_id: realm.owner.id, email: realm.owner.email, server_timestamp: 1700000000.5, presence: { website: entry } },
  });
  const [slim] = await drain(slimQ, realm.member.id);
  expect(slim).toEqual({ id: 0, type: 'presence', user_id: realm.owner.id, server_timestamp: 1700000000.5, presence: { website: entry } });
  expect((await drain(legacyQ, realm.member.id))[0]).toMatchObject({ type: 'presence', user_id: realm.owner.id, email: realm.owner.email });
  expect((await drain(modernQ, realm.member.id))[0]).toEqual({ id: 0, type: 'presence', presences: { [realm.owner.id]: { active_timestamp: 1700000000, idle_timestamp: 1700000000 } } });
});
