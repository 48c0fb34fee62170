import { seedRealm, setupTestEnv, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import type { PushHandle } from '../app';
import { TestRelay, type RelayMode } from './relay-server';
import { clientDecrypt, clientDevice, fullRegistration, post, startPush, streamEvents, waitFor, type ClientDevice } from './support';

let env: TestEnv;
let realm: SeededRealm;
let relay: TestRelay;
let push: PushHandle;
let phone: ClientDevice;
let tablet: ClientDevice;

async function registerActive(user: SeededUser, d: ClientDevice) {
  const res = await post(push, realm.realmId, user, '/mobile_push/register', fullRegistration(d));
  expect(res.body.result).toBe('success');
  await waitFor('relay registration', async () => {
    const row = await env.db.pushDevice.findUnique({ where: { userId_deviceId: { userId: user.id, deviceId: BigInt(d.deviceId) } } });
    return row?.pushTokenId != null;
  });
}

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  relay = await TestRelay.start();
  push = await startPush(env, { PUSH_RELAY_URL: relay.url, EXTERNAL_HOST: 'chat.example.com', EXTERNAL_SCHEME: 'https' });
  phone = clientDevice(1, 'fcm');
  tablet = clientDevice(2, 'apns');
  await registerActive(realm.member, phone);
  await registerActive(realm.member, tablet);
});

afterAll(async () => {
  await push?.stop();
  await relay?.close();
  await env?.close();
});

const testNotify = (form: Record<string, unknown> = {}, user = realm.member, service = push) =>
  post(service, realm.realmId, user, '/mobile_push/e2ee/test_notification', form);

describe('POST /mobile_push/e2ee/test_notification', () => {
  it('encrypts a test notification for every device with its own key', async () => {
    relay.requests.length = 0;
    const res = await testNotify();
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const [sent] = relay.requestsTo('/remotes/push/e2ee/notify');
    // The relay's shape: one JSON document naming the organization by UUID, one request per
    // device; FCM gets a priority, APNs the headers the relay passes on and a visible alert the
    // app replaces once it has decrypted the payload.
    const realmUuid = (await env.db.pushRelayRealm.findUniqueOrThrow({ where: { realmId: realm.realmId } })).uuid;
    expect(sent!.contentType).toBe('application/json');
    expect(Object.keys(sent!.body).sort()).toEqual(['push_requests', 'realm_uuid']);
    expect(sent!.body.realm_uuid).toBe(realmUuid);
    const requests = sent!.body.push_requests as Array<Record<string, any>>;
    expect(requests.map((r) => ({ ...r, payload: Object.keys(r.payload) }))).toEqual([
      { token_id: phone.tokenId, fcm_priority: 'high', payload: ['push_key_id', 'encrypted_data'] },
      { token_id: tablet.tokenId, http_headers: { apns_priority: 10, apns_push_type: 'alert' }, payload: ['push_key_id', 'encrypted_data', 'aps'] },
    ]);
    expect(requests[1]!.payload.aps).toEqual({ 'mutable-content': 1, alert: { title: 'New notification' } });
    expect(relay.e2eeDeliveries.slice(-2).map((d) => [d.kind, d.tokenId])).toEqual([
      ['fcm', phone.tokenId],
      ['apns', tablet.tokenId],
    ]);
    for (const [r, d] of [
      [requests[0]!, phone],
      [requests[1]!, tablet],
    ] as const) {
      expect(r.payload.push_key_id).toBe(d.pushKeyId);
      const plain = clientDecrypt(d.keyBytes, r.payload.encrypted_data) as Record<string, unknown>;
      expect(plain).toEqual({
        realm_name: 'Test Organization',
        realm_url: 'https://chat.example.com',
        time: expect.any(Number),
        type: 'test',
        user_id: realm.member.id,
      });
      expect(Math.abs((plain.time as number) - Date.now() / 1000)).toBeLessThan(30);
    }
    // One device's key does not open the other's payload.
    expect(clientDecrypt(phone.keyBytes, requests[1]!.payload.encrypted_data)).toBeNull();
  });

  it('notifies only the device named by device_id', async () => {
    relay.requests.length = 0;
    expect((await testNotify({ device_id: 2 })).body.result).toBe('success');
    const [sent] = relay.requestsTo('/notify');
    expect((sent!.body.push_requests as Array<{ token_id: string }>).map((r) => r.token_id)).toEqual([tablet.tokenId]);
  });

  it.each([
    ['a user without devices', {}, () => realm.member2],
    ['an unknown device', { device_id: 99 }, () => realm.member],
  ])('answers NO_ACTIVE_PUSH_DEVICE for %s', async (_name, form, user) => {
    relay.requests.length = 0;
    const res = await testNotify(form, user());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', code: 'NO_ACTIVE_PUSH_DEVICE', msg: 'No active registered push device' });
    expect(relay.requests).toEqual([]);
  });

  it('does not count a device whose registration is still pending', async () => {
    relay.mode = { kind: 'hang' };
    try {
      const pending = clientDevice(3);
      expect((await post(push, realm.realmId, realm.moderator, '/mobile_push/register', fullRegistration(pending))).body.result).toBe(
        'success',
      );
      expect((await testNotify({}, realm.moderator)).body.code).toBe('NO_ACTIVE_PUSH_DEVICE');
    } finally {
      relay.mode = { kind: 'ok' };
    }
  });

  const ADMIN = {
    status: 403,
    code: 'ADMIN_ACTION_REQUIRED',
    msg: 'Push notification configuration issue on server, contact the server administrator or retry later.',
  };
  const SERVER = { status: 502, code: 'INTERNAL_SERVER_ERROR_ON_BOUNCER', msg: 'Internal server error on the push notification service, retry later.' };
  const NETWORK = { status: 502, code: 'FAILED_TO_CONNECT_BOUNCER', msg: 'Network error while connecting to the push notification service.' };
  const failures: Array<[string, RelayMode, typeof ADMIN]> = [
    ['a 500', { kind: 'status', status: 500 }, SERVER],
    ['a 503', { kind: 'status', status: 503 }, SERVER],
    ['a 200 that is not the relay answering', { kind: 'garbage' }, SERVER],
    ['bad credentials (401)', { kind: 'status', status: 401, code: 'UNAUTHORIZED' }, ADMIN],

    ['an unregistered organization (403)', { kind: 'status', status: 403, code: 'MISSING_REMOTE_REALM', msg: 'Organization not registered' }, ADMIN],
    ['no answer before the timeout', { kind: 'hang' }, NETWORK],
  ];

  it.each(failures)('maps %s from the relay', async (_name, mode, expected) => {
    relay.notifyScript.push(mode);
    const res = await testNotify();
    expect(res.status).toBe(expected.status);
    expect(res.body).toEqual({ result: 'error', code: expected.code, msg: expected.msg });
  });

  it('answers ADMIN_ACTION_REQUIRED when the relay refuses this server\'s key, and when the server never registered', async () => {
    const server = await env.db.pushRelayServer.findUniqueOrThrow({ where: { id: 1 } });
    // A push service started now reads the stored credentials afresh.
    const askFresh = async () => {
      const service = await startPush(env, { PUSH_RELAY_URL: relay.url, PUSH_RUN_WORKERS: 'false' });
      try {
        return await testNotify({}, realm.member, service);
      } finally {
        await service.stop();
      }
    };
    try {
      await env.db.pushRelayServer.update({ where: { id: 1 }, data: { apiKey: 'x'.repeat(64) } });
      const refused = await askFresh();
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ result: 'error', code: ADMIN.code, msg: ADMIN.msg });
      expect(relay.requests.at(-1)!.server).toBeUndefined(); // the relay did not take the credentials

      await env.db.pushRelayServer.update({ where: { id: 1 }, data: { apiKey: server.apiKey, registeredAt: null } });
      const before = relay.requests.length;
      const answer = await askFresh();
      expect(answer.body.code).toBe(ADMIN.code);
      expect(relay.requests.length).toBe(before); // nothing is sent without credentials
    } finally {
      await env.db.pushRelayServer.update({ where: { id: 1 }, data: { apiKey: server.apiKey, registeredAt: server.registeredAt } });
    }
  });

  it('answers ADMIN_ACTION_REQUIRED when the relay operator\'s plan disallows pushes', async () => {
    relay.pushDisallowed = 'Your plan has expired.';
    try {
      const res = await testNotify();
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ result: 'error', code: ADMIN.code, msg: ADMIN.msg });
      expect(relay.requests.at(-1)!.path).toBe('/api/v1/remotes/push/e2ee/notify');
    } finally {
      relay.pushDisallowed = undefined;
    }
  });

  it('maps a refused connection to FAILED_TO_CONNECT_BOUNCER', async () => {
    const unreachable = await startPush(env, {
      PUSH_RELAY_URL: await TestRelay.refusingUrl(),
      PUSH_RUN_WORKERS: 'false',
    });
    try {
      const res = await testNotify({}, realm.member, unreachable);
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ result: 'error', code: NETWORK.code, msg: NETWORK.msg });
    } finally {
      await unreachable.stop();
    }
  });

  it('forgets tokens the relay reports as expired', async () => {
    const gone = clientDevice(5);
    await registerActive(realm.admin, gone);
    relay.script.push({ kind: 'ok', expiredTokenIds: [gone.tokenId] });
    const res = await testNotify({}, realm.admin);
    expect(res.body.code).toBe('NO_ACTIVE_PUSH_DEVICE');
    const row = await env.db.pushDevice.findUnique({ where: { userId_deviceId: { userId: realm.admin.id, deviceId: 5n } } });
    expect(row!.pushTokenId).toBeNull();
    const event = await waitFor('token cleared event', async () =>
      (await streamEvents(env, realm.realmId, 'device')).find(
        (e) => (e.event as Record<string, unknown>).push_token_id === null && (e.users as number[])[0] === realm.admin.id,
      ),
    );
    expect(event.event).toEqual({ type: 'device', op: 'update', device_id: 5, push_token_id: null });
  });
});
