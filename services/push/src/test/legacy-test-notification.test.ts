import { randomBytes } from 'node:crypto';
import { resolveApiRoute } from '@chat/contracts';
import { seedRealm, setupTestEnv, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import type { PushHandle } from '../app';
import { TestRelay, type RelayMode, type RelayRequest } from './relay-server';
import { legacyPending, post, startPush, waitFor } from './support';

// POST /mobile_push/test_notification: the deprecated test notification for legacy APNs/FCM
// tokens, sent through the relay's legacy notify, against a relay that holds a registry of
// tokens and delivers only to those it holds.
let env: TestEnv;
let realm: SeededRealm;
let relay: TestRelay;
let push: PushHandle;

const apnsToken = () => randomBytes(32).toString('hex');
const fcmToken = () => `fcm-legacy:${randomBytes(24).toString('base64url')}`;

async function addToken(user: SeededUser, kind: 'apns' | 'fcm', token: string) {
  const res =
    kind === 'apns'
      ? await post(push, realm.realmId, user, '/users/me/apns_device_token', { token, appid: 'org.example.app' })
      : await post(push, realm.realmId, user, '/users/me/android_gcm_reg_id', { token });
  expect(res.body.result).toBe('success');
  await waitFor('token registered with the relay', async () => relay.hasLegacy(user.id, kind, token) && !(await legacyPending(env, user.id)).length);
}

const testNotify = (user: SeededUser, form: Record<string, unknown> = {}, service = push) =>
  post(service, realm.realmId, user, '/mobile_push/test_notification', form);
const notifyRequests = (user: SeededUser): RelayRequest[] => relay.requestsTo('/remotes/push/notify').filter((r) => r.body.user_id === user.id);
const tokensOf = async (user: SeededUser) =>
  (await env.db.pushDeviceToken.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } })).map((t) => t.token);

const base = (user: SeededUser) => ({
  server: 'chat.example.com',
  realm_id: realm.realmId,
  realm_uri: 'https://chat.example.com',
  realm_url: 'https://chat.example.com',
  realm_name: 'Test Organization',
  user_id: user.id,
  event: 'test',
});

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  relay = await TestRelay.start();
  push = await startPush(env, { PUSH_RELAY_URL: relay.url, EXTERNAL_HOST: 'chat.example.com', EXTERNAL_SCHEME: 'https' });
});

afterAll(async () => {
  await push?.stop();
  await relay?.close();
  await env?.close();
});

it('is routed to the push service and needs a logged-in user', () => {
  expect(resolveApiRoute('/mobile_push/test_notification', 'POST')).toMatchObject({ service: 'push', auth: 'required' });
});

describe('a user with an APNs and an FCM token', () => {
  const apns = apnsToken();
  const fcm = fcmToken();
  beforeAll(async () => {
    await addToken(realm.member, 'apns', apns);
    await addToken(realm.member, 'fcm', fcm);
  });
  afterEach(() => {
    relay.mode = { kind: 'ok' };
  });

  it('gets the test payloads on both tokens in one request', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await testNotify(realm.member);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const [req] = notifyRequests(realm.member);
    expect(notifyRequests(realm.member)).toHaveLength(1);
    expect(req!.body.apple_devices).toEqual([apns]);
    expect(req!.body.android_devices).toEqual([fcm]);
    expect(req!.body.apns_payload).toEqual({
      alert: { title: 'Test notification', body: 'This is a test notification from Test Organization (https://chat.example.com).' },
      sound: 'default',
      custom: { zulip: base(realm.member) },
    });
    const gcm = req!.body.gcm_payload as Record<string, unknown>;
    expect(gcm).toEqual({ ...base(realm.member), time: expect.any(Number) });
    expect(gcm.time).toBeGreaterThanOrEqual(before);
    expect(gcm.time).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(req!.body.gcm_options).toEqual({ priority: 'high' });
    const delivered = relay.legacyDeliveries.filter((d) => d.user_id === realm.member.id).map((d) => [d.kind, d.token]);
    expect(delivered).toEqual([
      ['fcm', fcm],
      ['apns', apns],
    ]);
  });

  it('sends only to the token named by token', async () => {
    const seen = notifyRequests(realm.member).length;
    expect((await testNotify(realm.member, { token: fcm })).body.result).toBe('success');
    const req = notifyRequests(realm.member)[seen]!;
    expect([req.body.android_devices, req.body.apple_devices]).toEqual([[fcm], []]);
    expect((await testNotify(realm.member, { token: apns })).body.result).toBe('success');
    const second = notifyRequests(realm.member)[seen + 1]!;
    expect([second.body.android_devices, second.body.apple_devices]).toEqual([[], [apns]]);
  });

  it('does not recognize a token that is not the caller\'s', async () => {
    const seen = relay.requestsTo('/remotes/push/notify').length;
    for (const [user, token] of [
      [realm.member2, fcm],
      [realm.member, 'no-such-token'],
      [realm.member, ''],
    ] as const) {
      const res = await testNotify(user, { token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: 'error', code: 'INVALID_PUSH_DEVICE_TOKEN', msg: 'Device not recognized' });
    }
    expect(relay.requestsTo('/remotes/push/notify')).toHaveLength(seen);
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
    ['a 200 that is not the relay answering', { kind: 'garbage' }, SERVER],
    ['bad credentials (401)', { kind: 'status', status: 401, code: 'UNAUTHORIZED' }, ADMIN],
    ['an unregistered organization (400)', { kind: 'status', status: 400, code: 'MISSING_REMOTE_REALM' }, ADMIN],
    ['no answer before the timeout', { kind: 'hang' }, NETWORK],
  ];

  it.each(failures)('maps %s from the relay and keeps the tokens', async (_name, mode, expected) => {
    relay.mode = mode;
    const res = await testNotify(realm.member, { token: apns });
    expect(res.status).toBe(expected.status);
    expect(res.body).toEqual({ result: 'error', code: expected.code, msg: expected.msg });
    expect(await tokensOf(realm.member)).toEqual([apns, fcm]);
  });

  it('maps a refused connection to FAILED_TO_CONNECT_BOUNCER', async () => {
    const unreachable = await startPush(env, { PUSH_RELAY_URL: await TestRelay.refusingUrl(), PUSH_RUN_WORKERS: 'false' });
    try {
      const res = await testNotify(realm.member, {}, unreachable);
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ result: 'error', code: NETWORK.code, msg: NETWORK.msg });
    } finally {
      await unreachable.stop();
    }
  });

  it('answers PUSH_SERVICE_NOT_CONFIGURED without a relay, after checking the token', async () => {
    const unconfigured = await startPush(env, { PUSH_RUN_WORKERS: 'false' });
    try {
      const res = await testNotify(realm.member, {}, unconfigured);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        result: 'error',
        code: 'PUSH_SERVICE_NOT_CONFIGURED',
        msg: 'Server is not configured to use push notification service.',
      });
      const unknown = await testNotify(realm.member, { token: 'no-such-token' }, unconfigured);
      expect(unknown.body.code).toBe('INVALID_PUSH_DEVICE_TOKEN');
    } finally {
      await unconfigured.stop();
    }
  });
});

describe('tokens the relay does not hold', () => {
  it('are reported as not recognized by the relay and forgotten, after the others got it', async () => {
    const kept = fcmToken();
    const lost = apnsToken();
    await addToken(realm.admin, 'fcm', kept);
    await addToken(realm.admin, 'apns', lost);
    // The relay lost this one (e.g. its registry was reset).
    relay.legacyRegistry.delete(`${realm.admin.id}:1:${lost}`);
    const res = await testNotify(realm.admin);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', code: 'INVALID_REMOTE_PUSH_DEVICE_TOKEN', msg: 'Device not recognized by the push bouncer' });
    expect(relay.legacyDeliveries.filter((d) => d.user_id === realm.admin.id).map((d) => d.token)).toEqual([kept]);
    expect(await tokensOf(realm.admin)).toEqual([kept]);
    // The lost token is gone here too: naming it now is a token this server does not know.
    expect((await testNotify(realm.admin, { token: lost })).body.code).toBe('INVALID_PUSH_DEVICE_TOKEN');
    expect((await testNotify(realm.admin, { token: kept })).body.result).toBe('success');
  });

  it('include a token the provider refuses', async () => {
    const token = fcmToken();
    await addToken(realm.owner, 'fcm', token);
    relay.script.push({ kind: 'ok', deletedDevices: { android_devices: [token], apple_devices: [] } });
    const res = await testNotify(realm.owner, { token });
    expect(res.body.code).toBe('INVALID_REMOTE_PUSH_DEVICE_TOKEN');
    expect(await tokensOf(realm.owner)).toEqual([]);
  });
});

describe('without legacy tokens', () => {
  it('succeeds with nothing sent, as the reference server does', async () => {
    const seen = relay.requests.length;
    const res = await testNotify(realm.guest);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(relay.requests).toHaveLength(seen);
  });

  it('refuses bots', async () => {
    const res = await testNotify(realm.bot);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', msg: 'This endpoint does not accept bot requests.' });
  });
});
