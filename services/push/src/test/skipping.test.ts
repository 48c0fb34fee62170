import { randomBytes } from 'node:crypto';
import { keyspace } from '@chat/bus';
import { DEFAULT_STREAM_PARTITIONS } from '@chat/kit';
import { seedRealm, sendMessage, setupTestEnv, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import type { PushHandle } from '../app';
import { listsAnyOf } from '../lib/device-holders';
import { TestRelay } from './relay-server';
import { clientDecrypt, clientDevice, fullRegistration, post, startPush, waitFor } from './support';

// The consumer acknowledges, without parsing them, the events that can concern no one with a
// device, and still handles every event that may. Push runs in this process, so JSON.parse
// shows which payloads it parsed: each message carries a marker of its own.
let env: TestEnv;
let realm: SeededRealm;
let other: SeededRealm;
let relay: TestRelay;
const replicas: PushHandle[] = [];
const devices = new Map<number, ReturnType<typeof clientDevice>>();
const parse = jest.spyOn(JSON, 'parse');

const overrides = (name: string) => ({ PUSH_RELAY_URL: relay.url, EXTERNAL_HOST: 'chat.example.com', EXTERNAL_SCHEME: 'https', CONSUMER_NAME: name });

async function registerDevice(push: PushHandle, realmId: number, user: SeededUser, deviceId: number) {
  const d = clientDevice(deviceId);
  devices.set(user.id, d);
  expect((await post(push, realmId, user, '/mobile_push/register', fullRegistration(d))).body.result).toBe('success');
  await waitFor('relay registration', async () => {
    const row = await env.db.pushDevice.findUnique({ where: { userId_deviceId: { userId: user.id, deviceId: BigInt(deviceId) } } });
    return row?.pushTokenId != null;
  });
}

function messagePushes(user: SeededUser, messageId: number): unknown[] {
  const d = devices.get(user.id);
  if (!d) return [];
  return relay
    .requestsTo('/remotes/push/e2ee/notify')
    .flatMap((r) => r.body.push_requests as Array<Record<string, any>>)
    .filter((req) => req.token_id === d.tokenId)
    .map((req) => clientDecrypt(d.keyBytes, req.payload.encrypted_data) as Record<string, any>)
    .filter((p) => p.type === 'message' && p.message_id === messageId);
}

const marker = () => `marker-${randomBytes(6).toString('hex')}`;
/** Whether an event payload holding `text` was parsed (the test's own database client parses the message rows). */
const parsed = (text: string) => parse.mock.calls.some(([json]) => typeof json === 'string' && json.includes('"raw_content"') && json.includes(text));

/** Until the push group has read and acknowledged everything published for `realmId`. */
async function consumed(realmId: number) {
  const keys = keyspace(env.prefix, { partitions: DEFAULT_STREAM_PARTITIONS });
  await waitFor('push group caught up', async () => {
    const groups = (await env.redis.call('xinfo', 'groups', keys.streamForRealm(realmId))) as Array<Array<string | number>>;
    const push = groups.find((g) => g[1] === 'push');
    const field = (k: string) => Number(push?.[push.indexOf(k) + 1]);
    return !!push && field('pending') === 0 && field('lag') === 0;
  });
}

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  other = await seedRealm(env.db, 'other');
  relay = await TestRelay.start();
  replicas.push(await startPush(env, overrides('push-a')));
  await registerDevice(replicas[0]!, realm.realmId, realm.member, 1);
});

afterAll(async () => {
  parse.mockRestore();
  await Promise.all(replicas.map((p) => p.stop()));
  await relay?.close();
  await env?.close();
});

it('reads the users list of a payload without parsing it', () => {
  const lists = (json: string, ids: number[]) => listsAnyOf(Buffer.from(json), new Set(ids));
  // As Postgres prints a payload, and as JSON.stringify does.
  const printed = '{"event": {"id": 1000001, "users": "not a key\\"users\\": [7]"}, "users": [12, 345], "user_flags": {"99": []}}';
  expect(lists(printed, [345])).toBe(true);
  expect(lists(printed, [12, 999])).toBe(true);
  expect(lists(printed, [34, 45, 99, 1000001, 7])).toBe(false);
  expect(lists('{"users":[3,4],"event":{}}', [4])).toBe(true);
  expect(lists('{"users":[3,4],"event":{}}', [5])).toBe(false);
  expect(lists('{"event": {}, "users": "realm"}', [1])).toBe(false);
  expect(lists('{"event": {}, "users": []}', [1])).toBe(false);
  // A key spelt with escapes cannot be found by its bytes: parse to know.
  expect(lists('{"event": {}, "user\\u0073": [1]}', [2])).toBe(true);
});

it('acknowledges unparsed the messages of a realm where no one has a device', async () => {
  const text = marker();
  await sendMessage(env.db, other.realmId, { sender: other.member2, recipients: [other.member, other.admin], content: text });
  await consumed(other.realmId);
  expect(parsed(text)).toBe(false);
});

it('in a realm with devices, skips unparsed what reaches none of them and handles what reaches one', async () => {
  const skipped = marker();
  await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.admin], content: skipped });
  const handled = marker();
  const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.member, realm.admin], content: handled });
  await waitFor('notification', async () => messagePushes(realm.member, msg.id).length === 1);
  await consumed(realm.realmId);
  expect(parsed(skipped)).toBe(false);
  expect(parsed(handled)).toBe(true);
});

it('notices, on every replica, a device registered in a realm it was skipping', async () => {
  replicas.push(await startPush(env, overrides('push-b')));
  // Both replicas have seen the realm without devices.
  for (let i = 0; i < 4; i++) {
    await sendMessage(env.db, other.realmId, { sender: other.member2, recipients: [other.member], content: marker() });
  }
  await consumed(other.realmId);

  await registerDevice(replicas[1]!, other.realmId, other.member, 7);
  // Whichever replica reads each message must now push it.
  const sent = [];
  for (let i = 0; i < 6; i++) {
    sent.push(await sendMessage(env.db, other.realmId, { sender: other.member2, recipients: [other.member], content: marker() }));
    await new Promise((r) => setTimeout(r, 150));
  }
  for (const msg of sent) await waitFor(`notification of ${msg.id}`, async () => messagePushes(other.member, msg.id).length === 1);
});
