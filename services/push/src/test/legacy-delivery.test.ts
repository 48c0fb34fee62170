import { randomBytes } from 'node:crypto';
import { flagBit } from '@chat/contracts';
import { createChannel, markRead, seedRealm, sendMessage, setupTestEnv, userFlags, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import type { PushHandle } from '../app';
import { TestRelay, type RelayRequest } from './relay-server';
import { clientDecrypt, clientDevice, fullRegistration, legacyPending, post, relayPerson, startPush, waitFor, type ClientDevice } from './support';

let env: TestEnv;
let realm: SeededRealm;
let relay: TestRelay;
let push: PushHandle;

const overrides = () => ({ PUSH_RELAY_URL: relay.url, EXTERNAL_HOST: 'chat.example.com', EXTERNAL_SCHEME: 'https' });
const apnsToken = () => randomBytes(32).toString('hex');
const fcmToken = () => `fcm-legacy:${randomBytes(24).toString('base64url')}`;

/** Adds a token and waits until the relay holds it (its registration job has run). */
async function addApns(user: SeededUser, token: string) {
  const res = await post(push, realm.realmId, user, '/users/me/apns_device_token', { token, appid: 'org.example.app' });
  expect(res.body.result).toBe('success');
  await waitFor('APNs token registered with the relay', async () => relay.hasLegacy(user.id, 'apns', token) && !(await legacyPending(env, user.id)).length);
}

async function addFcm(user: SeededUser, token: string) {
  const res = await post(push, realm.realmId, user, '/users/me/android_gcm_reg_id', { token });
  expect(res.body.result).toBe('success');
  await waitFor('FCM token registered with the relay', async () => relay.hasLegacy(user.id, 'fcm', token) && !(await legacyPending(env, user.id)).length);
}

/** Legacy notification requests the relay received for a user. */
const legacyRequests = (user: SeededUser): RelayRequest[] => relay.requestsTo('/remotes/push/notify').filter((r) => r.body.user_id === user.id);

/** Legacy requests about one message: notifications carry zulip_message_id, removals list it in zulip_message_ids. */
function legacyFor(user: SeededUser, messageId: number, event: 'message' | 'remove'): RelayRequest[] {
  return legacyRequests(user).filter((r) => {
    const gcm = r.body.gcm_payload as Record<string, unknown>;
    if (gcm.event !== event) return false;
    return event === 'message' ? gcm.zulip_message_id === messageId : String(gcm.zulip_message_ids).split(',').includes(String(messageId));
  });
}

async function settle(ms = 800) {
  await new Promise((r) => setTimeout(r, ms));
}

const base = (user: SeededUser) => ({
  server: 'chat.example.com',
  realm_id: realm.realmId,
  realm_uri: 'https://chat.example.com',
  realm_url: 'https://chat.example.com',
  realm_name: 'Test Organization',
  user_id: user.id,
});

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  relay = await TestRelay.start();
  push = await startPush(env, overrides());
});

afterAll(async () => {
  await push?.stop();
  await relay?.close();
  await env?.close();
});

describe('legacy tokens', () => {
  const hamletApns = apnsToken();
  const hamletFcm = fcmToken();

  beforeAll(async () => {
    await addApns(realm.member, hamletApns);
    await addFcm(realm.member, hamletFcm);
  });

  it('get a direct message in the APNs and FCM formats, one request for both', async () => {
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.member], content: 'Lunch at noon?' });
    const [req] = await waitFor('legacy notification', async () => legacyFor(realm.member, msg.id, 'message').length > 0 && legacyFor(realm.member, msg.id, 'message'));
    const avatar = `https://secure.gravatar.com/avatar/${realm.member2.id}?d=identicon`;
    const time = (req!.body.gcm_payload as Record<string, unknown>).time;
    expect(time).toEqual(expect.any(Number));
    const common = { ...base(realm.member), sender_id: realm.member2.id, sender_email: realm.member2.email, time, recipient_type: 'private' };
    expect(req!.body).toEqual({
      ...(await relayPerson(env, realm.realmId, realm.member.id)),
      android_devices: [hamletFcm],
      apple_devices: [hamletApns],
      gcm_options: { priority: 'high' },
      gcm_payload: {
        ...common,
        event: 'message',
        zulip_message_id: msg.id,
        content: 'Lunch at noon?',
        content_truncated: false,
        sender_full_name: 'Othello',
        sender_avatar_url: avatar,
      },
      apns_payload: {
        alert: { title: 'Othello', subtitle: '', body: 'Lunch at noon?' },
        sound: 'default',
        badge: 0,
        custom: { zulip: { ...common, message_ids: [msg.id] } },
      },
    });
    // No E2EE device: nothing encrypted was sent for this user.
    expect(relay.requestsTo('/e2ee/notify').filter((r) => r.body.user_id === realm.member.id)).toEqual([]);
    // Remembered as shown, so that reading it can withdraw it.
    await waitFor('flag set', async () => (await userFlags(env.db, realm.member, msg.id)) & flagBit('active_mobile_push_notification'));
  });

  it('get channel mentions with the channel, topic and mention in the payload', async () => {
    const stream = await createChannel(env.db, realm.realmId, 'Denmark', [realm.member, realm.member2]);
    const long = `@**King Hamlet** ${'the ghost walks '.repeat(20)}`;
    const msg = await sendMessage(env.db, realm.realmId, {
      sender: realm.member2,
      recipients: [realm.member],
      content: long,
      channel: { id: stream.id, name: 'Denmark', topic: 'castle' },
      flags: { [realm.member.id]: ['mentioned'] },
    });
    const [req] = await waitFor('legacy mention', async () => legacyFor(realm.member, msg.id, 'message').length > 0 && legacyFor(realm.member, msg.id, 'message'));
    const gcm = req!.body.gcm_payload as Record<string, any>;
    expect(gcm).toMatchObject({ recipient_type: 'stream', stream: 'Denmark', stream_id: stream.id, topic: 'castle', content_truncated: true });
    expect(gcm.content).toHaveLength(200);
    expect(gcm.content.endsWith('…')).toBe(true);
    const apns = req!.body.apns_payload as Record<string, any>;
    expect(apns.alert).toEqual({ title: '#Denmark > castle', subtitle: 'Othello mentioned you:', body: gcm.content });
    expect(apns.custom.zulip).toMatchObject({ recipient_type: 'stream', stream: 'Denmark', stream_id: stream.id, topic: 'castle', message_ids: [msg.id] });
  });

  it('are withdrawn with the remove payloads once the message is read', async () => {
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.member], content: 'read me' });
    await waitFor('notification', async () => legacyFor(realm.member, msg.id, 'message').length === 1);
    await markRead(env.db, realm.realmId, realm.member, [msg.id]);
    const [removal] = await waitFor('removal', async () => legacyFor(realm.member, msg.id, 'remove').length > 0 && legacyFor(realm.member, msg.id, 'remove'));
    expect(removal!.body).toEqual({
      ...(await relayPerson(env, realm.realmId, realm.member.id)),
      android_devices: [hamletFcm],
      apple_devices: [hamletApns],
      gcm_options: { priority: 'normal' },
      gcm_payload: { ...base(realm.member), event: 'remove', zulip_message_ids: String(msg.id), zulip_message_id: msg.id },
      apns_payload: { badge: 0, custom: { zulip: { ...base(realm.member), event: 'remove', zulip_message_ids: String(msg.id) } } },
    });
    await waitFor('flag cleared', async () => !((await userFlags(env.db, realm.member, msg.id)) & flagBit('active_mobile_push_notification')));
  });

  it('go to a group direct message with its participants named', async () => {
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.member, realm.moderator], content: 'all three' });
    const [req] = await waitFor('group notification', async () => legacyFor(realm.member, msg.id, 'message').length > 0 && legacyFor(realm.member, msg.id, 'message'));
    const ids = [realm.member.id, realm.member2.id, realm.moderator.id].sort((a, b) => a - b).join(',');
    expect(req!.body.gcm_payload).toMatchObject({ recipient_type: 'private', pm_users: ids });
    expect((req!.body.apns_payload as Record<string, any>).alert).toEqual({ title: 'King Hamlet, Othello, Shiva', subtitle: 'Othello:', body: 'all three' });
  });
});

describe('a user with E2EE devices and legacy tokens', () => {
  let device: ClientDevice;
  const iagoFcm = fcmToken();

  beforeAll(async () => {
    device = clientDevice(1);
    expect((await post(push, realm.realmId, realm.admin, '/mobile_push/register', fullRegistration(device))).body.result).toBe('success');
    await waitFor('E2EE registration', async () => {
      const row = await env.db.pushDevice.findUnique({ where: { userId_deviceId: { userId: realm.admin.id, deviceId: 1n } } });
      return row?.pushTokenId != null;
    });
    await addFcm(realm.admin, iagoFcm);
  });

  const e2eePushes = (messageId: number) =>
    relay
      .requestsTo('/e2ee/notify')
      .flatMap((r) => r.body.push_requests as Array<Record<string, any>>)
      .filter((r) => r.token_id === device.tokenId)
      .map((r) => clientDecrypt(device.keyBytes, r.payload.encrypted_data)!)
      .filter((p) => p.type === 'message' && p.message_id === messageId);

  it('gets the encrypted payload on the device and the plaintext one on the legacy token', async () => {
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.admin], content: 'both ways' });
    await waitFor('E2EE push', async () => e2eePushes(msg.id).length === 1);
    const [req] = await waitFor('legacy push', async () => legacyFor(realm.admin, msg.id, 'message').length > 0 && legacyFor(realm.admin, msg.id, 'message'));
    expect(req!.body.android_devices).toEqual([iagoFcm]);
    expect(req!.body.apple_devices).toEqual([]);
    expect(e2eePushes(msg.id)[0]!.content).toBe('both ways');
    // The relay handed it on to the provider for that token.
    expect(relay.legacyDeliveries.filter((d) => d.token === iagoFcm && (d.payload as Record<string, unknown>).zulip_message_id === msg.id)).toHaveLength(1);
  });

  it('is not notified twice on the channel that worked when the other one is retried', async () => {
    // In order: the E2EE request succeeds, the legacy one fails once, then succeeds.
    relay.script.push({ kind: 'ok' }, { kind: 'status', status: 503 }, { kind: 'ok' });
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.admin], content: 'once only' });
    await waitFor('legacy retried', async () => legacyFor(realm.admin, msg.id, 'message').length === 2);
    const job = await push.services.queue.getJob(`notify-${realm.realmId}-${realm.admin.id}-${msg.id}`);
    await waitFor('job completed', async () => (await job!.getState()) === 'completed');
    expect(e2eePushes(msg.id)).toHaveLength(1);
  });
});

describe('relay answers', () => {
  it('drop a token the relay reports as invalid', async () => {
    const good = apnsToken();
    const bad = fcmToken();
    await addApns(realm.owner, good);
    await addFcm(realm.owner, bad);
    relay.mode = { kind: 'ok', deletedDevices: { android_devices: [bad], apple_devices: [] } };
    const first = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.owner], content: 'first' });
    try {
      await waitFor('notification', async () => legacyFor(realm.owner, first.id, 'message').length === 1);
      await waitFor('invalid token removed', async () => (await env.db.pushDeviceToken.count({ where: { userId: realm.owner.id, kind: 'fcm' } })) === 0);
    } finally {
      relay.mode = { kind: 'ok' };
    }
    expect(await env.db.pushDeviceToken.findMany({ where: { userId: realm.owner.id }, select: { kind: true, token: true } })).toEqual([
      { kind: 'apns', token: good },
    ]);
    const second = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.owner], content: 'second' });
    const [req] = await waitFor('next notification', async () => legacyFor(realm.owner, second.id, 'message').length > 0 && legacyFor(realm.owner, second.id, 'message'));
    expect(req!.body.android_devices).toEqual([]);
    expect(req!.body.apple_devices).toEqual([good]);
  });

  it('that fail are retried with backoff until the relay takes the notification', async () => {
    await addFcm(realm.moderator, fcmToken());
    relay.script.push({ kind: 'status', status: 503 }, { kind: 'hang' }, { kind: 'ok' });
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.moderator], content: 'persist' });
    await waitFor('delivery after retries', async () => legacyFor(realm.moderator, msg.id, 'message').length === 3, 15_000);
    const job = await push.services.queue.getJob(`notify-${realm.realmId}-${realm.moderator.id}-${msg.id}`);
    await waitFor('job completed', async () => (await job!.getState()) === 'completed');
    const attempts = legacyFor(realm.moderator, msg.id, 'message');
    // PUSH_RETRY_BASE_MS is 50: about 50 ms before the second attempt, 100 ms (after a 1 s timeout) before the third.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(45);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(1000);
    await waitFor('flag set', async () => (await userFlags(env.db, realm.moderator, msg.id)) & flagBit('active_mobile_push_notification'));
    await settle(300);
    expect(legacyFor(realm.moderator, msg.id, 'message')).toHaveLength(3);
  });
});
