import { randomBytes } from 'node:crypto';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { userUuid } from '@chat/push-relay';
import type { PushHandle } from '../app';
import { TestRelay } from './relay-server';
import {
  clientDevice,
  fullRegistration,
  keyFields,
  newPushKey,
  post,
  sealedRegistration,
  startPush,
  streamEvents,
  tokenFields,
  tokenIdOf,
  waitFor,
  type ClientDevice,
} from './support';

let env: TestEnv;
let realm: SeededRealm;
let relay: TestRelay;
let push: PushHandle;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  relay = await TestRelay.start();
  // Enough attempts for a registration to outlast a realm upload (the MISSING_REMOTE_REALM case).
  push = await startPush(env, { PUSH_RELAY_URL: relay.url, PUSH_RETRY_ATTEMPTS: '6' });
});

afterAll(async () => {
  await push?.stop();
  await relay?.close();
  await env?.close();
});

const register = (form: Record<string, unknown>, user = realm.member) => post(push, realm.realmId, user, '/mobile_push/register', form);

function device(deviceId: number) {
  return env.db.pushDevice.findUnique({ where: { userId_deviceId: { userId: realm.member.id, deviceId: BigInt(deviceId) } } });
}

/** Registers and waits until the relay has accepted the token. */
async function registered(d: ClientDevice) {
  const res = await register(fullRegistration(d));
  expect(res.body).toEqual({ result: 'success', msg: '' });
  await waitFor('relay registration', async () => (await device(d.deviceId))?.pushTokenId !== null && (await device(d.deviceId)));
}

describe('POST /mobile_push/register without a relay', () => {
  it('answers PUSH_SERVICE_NOT_CONFIGURED and stores nothing', async () => {
    const unconfigured = await startPush(env, { PUSH_RUN_WORKERS: 'false' });
    try {
      const res = await post(unconfigured, realm.realmId, realm.member, '/mobile_push/register', fullRegistration(clientDevice(901)));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        result: 'error',
        code: 'PUSH_SERVICE_NOT_CONFIGURED',
        msg: 'Server is not configured to use push notification service.',
      });
      expect(await device(901)).toBeNull();
    } finally {
      await unconfigured.stop();
    }
  });
});

describe('POST /mobile_push/register validation', () => {
  const d = clientDevice(1);
  const bad = (field: string, value: unknown) => ({ ...fullRegistration(d), [field]: value });
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['device_id not an integer', bad('device_id', 'abc'), 'device_id is not an integer'],
    ['device_id not positive', bad('device_id', 0), 'Invalid `device_id`'],
    ['push_key not Base64', bad('push_key', 'not base64!'), 'Invalid `push_key`'],
    ['push_key URL-safe Base64', bad('push_key', d.pushKey.replace(/\+/g, '-').replace(/\//g, '_') + (d.pushKey.match(/[+/]/) ? '' : '-')), 'Invalid `push_key`'],
    ['push_key with another cryptosystem', bad('push_key', Buffer.concat([Buffer.from([0x32]), randomBytes(32)]).toString('base64')), 'Invalid `push_key`'],
    ['push_key too short', bad('push_key', Buffer.concat([Buffer.from([0x31]), randomBytes(16)]).toString('base64')), 'Invalid `push_key`'],
    ['push_key_id negative', bad('push_key_id', -1), 'Invalid push_key_id: Not a valid unsigned 32-bit integer'],
    ['push_key_id above 32 bits', bad('push_key_id', 2 ** 32), 'Invalid push_key_id: Not a valid unsigned 32-bit integer'],
    ['push_key_id not an integer', bad('push_key_id', '1.5'), 'push_key_id is not an integer'],
    ['token_kind unknown', bad('token_kind', 'gcm'), 'Invalid token_kind: Not in the list of possible values'],
    ['token_id not Base64', bad('token_id', 'hGsEWGmy*fI='), '`token_id` is not Base64 encoded'],
    ['token_id not 8 bytes', bad('token_id', randomBytes(9).toString('base64')), 'Invalid `token_id`'],
    ['bouncer_public_key not Base64', bad('bouncer_public_key', 'bouncer-public-key'), 'Invalid `bouncer_public_key`'],
    ['bouncer_public_key not 32 bytes', bad('bouncer_public_key', randomBytes(31).toString('base64')), 'Invalid `bouncer_public_key`'],
    ['encrypted_push_registration not Base64', bad('encrypted_push_registration', 'encrypted-push-registration-data'), 'Invalid `encrypted_push_registration`'],
    ['neither group', { device_id: 1 }, 'Missing parameters: must provide either all push key fields, all token fields, or both.'],
    ['half a key group', { device_id: 1, push_key: d.pushKey, ...tokenFields(d) }, 'Missing parameters: must provide either all push key fields, all token fields, or both.'],
    ['half a token group', { device_id: 1, ...keyFields(d), token_id: d.tokenId }, 'Missing parameters: must provide either all push key fields, all token fields, or both.'],
  ];

  it.each(cases)('%s', async (_name, form, msg) => {
    const res = await register(form);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
    expect(await env.db.pushDevice.count()).toBe(0);
  });

  it('requires device_id', async () => {
    const { device_id: _omit, ...rest } = fullRegistration(d);
    const res = await register(rest);
    expect(res.body).toEqual({ result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'device_id' argument", var_name: 'device_id' });
  });

  it('refuses bots', async () => {
    const res = await register(fullRegistration(d), realm.bot);
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'This endpoint does not accept bot requests.' });
  });

  it('cannot rotate what was never registered', async () => {
    expect((await register({ device_id: 2, ...keyFields(d) })).body.msg).toBe('No push registration exists to rotate key for.');
    expect((await register({ device_id: 2, ...tokenFields(d) })).body.msg).toBe('No push registration exists to rotate token for.');
    expect(await env.db.pushDevice.count()).toBe(0);
  });
});

describe('POST /mobile_push/register lifecycle', () => {
  it('registers a device, hands the token to the relay and announces each step', async () => {
    const d = clientDevice(10, 'apns');
    await registered(d);
    const row = (await device(10))!;
    expect(Buffer.from(row.pushKey!).toString('base64')).toBe(d.pushKey);
    expect(Number(row.pushKeyId)).toBe(d.pushKeyId);
    expect(row.pushTokenKind).toBe('apns');
    expect(row.pendingPushTokenId).toBeNull();

    // In the relay's shape: a form naming the organization by its UUID, with this server's
    // registered UUID and key; the relay opened the sealed registration and holds the APNs token.
    const [reg] = relay.requestsTo('/remotes/push/e2ee/register').filter((r) => r.body.token_id === d.tokenId);
    const server = await env.db.pushRelayServer.findUniqueOrThrow({ where: { id: 1 } });
    const realmUuid = (await env.db.pushRelayRealm.findUniqueOrThrow({ where: { realmId: realm.realmId } })).uuid;
    expect(reg!.authorization).toBe(`Basic ${Buffer.from(`${server.uuid}:${server.apiKey}`).toString('base64')}`);
    expect(reg!.contentType).toBe('application/x-www-form-urlencoded');
    expect(reg!.body).toEqual({
      realm_uuid: realmUuid,
      token_id: d.tokenId,
      bouncer_public_key: d.bouncerPublicKey,
      encrypted_push_registration: d.encryptedPushRegistration,
    });
    expect(relay.e2eeDevices.get(`${realmUuid}:${d.tokenId}`)).toMatchObject({ kind: 'apns', token: d.token, iosAppId: 'org.example.app' });
    expect(userUuid(realmUuid, realm.member.id)).not.toBe(userUuid(realmUuid, realm.member2.id));

    const events = await waitFor('device events', async () => {
      const all = (await streamEvents(env, realm.realmId, 'device')).filter((e) => (e.event as { device_id: number }).device_id === 10);
      return all.length >= 3 && all;
    });
    expect(events.map((e) => e.users)).toEqual([[realm.member.id], [realm.member.id], [realm.member.id]]);
    expect(events[0]!.event).toEqual({ type: 'device', op: 'add', device_id: 10 });
    expect(events[1]!.event).toMatchObject({
      type: 'device',
      op: 'update',
      device_id: 10,
      push_key_id: d.pushKeyId,
      pending_push_token_id: d.tokenId,
      push_registration_error_code: null,
    });
    expect(events[2]!.event).toEqual({ type: 'device', op: 'update', device_id: 10, push_token_id: d.tokenId, pending_push_token_id: null });

    // The same registration again changes nothing and bothers nobody.
    const pushRequests = () => relay.requests.filter((r) => r.path.includes('/remotes/push/')).length;
    const before = pushRequests();
    expect((await register(fullRegistration(d))).body.result).toBe('success');
    await new Promise((r) => setTimeout(r, 200));
    expect(pushRequests()).toBe(before);
  });

  it('rotates the key alone, and the token alone', async () => {
    const d = clientDevice(11);
    await registered(d);
    const next = newPushKey();
    expect((await register({ device_id: 11, push_key: next.pushKey, push_key_id: 7 })).body.result).toBe('success');
    let row = (await device(11))!;
    expect(Buffer.from(row.pushKey!).toString('base64')).toBe(next.pushKey);
    expect(Number(row.pushKeyId)).toBe(7);
    expect(row.pushTokenId).not.toBeNull(); // the token is untouched

    const token = `fcm:${randomBytes(20).toString('hex')}`;
    const rotated = { ...d, token, tokenId: tokenIdOf(token), encryptedPushRegistration: sealedRegistration(token, 'fcm') };
    expect((await register({ device_id: 11, ...tokenFields(rotated) })).body.result).toBe('success');
    row = (await device(11))!;
    expect(Buffer.from(row.pushKey!).toString('base64')).toBe(next.pushKey); // the key is untouched
    await waitFor('token rotation', async () => {
      const r = await device(11);
      return r?.pendingPushTokenId === null && r.pushTokenId !== null && r;
    });
    const sent = relay.requestsTo('/e2ee/register').filter((r) => [d.tokenId, rotated.tokenId].includes(r.body.token_id));
    expect(sent.map((r) => r.body.token_id)).toEqual([d.tokenId, rotated.tokenId]);
  });

  it('refuses a second token while the first is still with the relay', async () => {
    relay.mode = { kind: 'hang' };
    try {
      const d = clientDevice(12);
      expect((await register(fullRegistration(d))).body.result).toBe('success');
      const res = await register({ device_id: 12, ...tokenFields(clientDevice(12)) });
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'A registration for the device already in progress.' });
    } finally {
      relay.mode = { kind: 'ok' };
    }
  });

  it('records why the relay refused a registration, and lets the client try again', async () => {
    // Sealed to a key that is not the relay's: the relay cannot open it and says so.
    const d = { ...clientDevice(13), bouncerPublicKey: randomBytes(32).toString('base64') };
    expect((await register(fullRegistration(d))).body.result).toBe('success');
    await waitFor('failure recorded', async () => (await device(13))?.pushRegistrationErrorCode === 'INVALID_BOUNCER_PUBLIC_KEY');
    const events = await waitFor('failure event', async () =>
      (await streamEvents(env, realm.realmId, 'device')).find(
        (e) => (e.event as Record<string, unknown>).device_id === 13 && (e.event as Record<string, unknown>).push_registration_error_code,
      ),
    );
    expect(events.event).toEqual({ type: 'device', op: 'update', device_id: 13, push_registration_error_code: 'INVALID_BOUNCER_PUBLIC_KEY' });

    const retry = clientDevice(13);
    expect((await register(fullRegistration(retry))).body.result).toBe('success');
    await waitFor('registration after retry', async () => {
      const r = await device(13);
      return r?.pushTokenId !== null && r?.pushRegistrationErrorCode === null;
    });
  });

  it('records REQUEST_EXPIRED for a registration sealed too long ago, BAD_REQUEST for one that does not match its token_id', async () => {
    const stale = clientDevice(17);
    stale.encryptedPushRegistration = sealedRegistration(stale.token, 'fcm', Math.floor(Date.now() / 1000) - 2 * 24 * 3600);
    expect((await register(fullRegistration(stale))).body.result).toBe('success');
    await waitFor('expired recorded', async () => (await device(17))?.pushRegistrationErrorCode === 'REQUEST_EXPIRED');

    const mismatched = clientDevice(18);
    mismatched.encryptedPushRegistration = sealedRegistration('fcm:some-other-token', 'fcm');
    expect((await register(fullRegistration(mismatched))).body.result).toBe('success');
    await waitFor('invalid registration recorded', async () => (await device(18))?.pushRegistrationErrorCode === 'BAD_REQUEST');
    expect((await device(18))!.pushTokenId).toBeNull();
  });

  it('uploads the organizations when the relay does not know one (MISSING_REMOTE_REALM), then registers', async () => {
    const fresh = await seedRealm(env.db, 'newer');
    const uploads = relay.requestsTo('/remotes/server/analytics').length;
    const d = clientDevice(19);
    const res = await post(push, fresh.realmId, fresh.member, '/mobile_push/register', fullRegistration(d));
    expect(res.body.result).toBe('success');
    const row = await waitFor('registered in the new organization', async () => {
      const r = await env.db.pushDevice.findUnique({ where: { userId_deviceId: { userId: fresh.member.id, deviceId: 19n } } });
      return r?.pushTokenId != null && r;
    });
    expect(row.pushRegistrationErrorCode).toBeNull();
    const tries = relay.requestsTo('/e2ee/register').filter((r) => r.body.token_id === d.tokenId);
    expect(tries.length).toBeGreaterThanOrEqual(2); // refused first, accepted after the upload
    expect(relay.requestsTo('/remotes/server/analytics').length).toBeGreaterThan(uploads);
    const freshUuid = (await env.db.pushRelayRealm.findUniqueOrThrow({ where: { realmId: fresh.realmId } })).uuid;
    expect(relay.realms.has(freshUuid)).toBe(true);
  });

  it('retries a registration while the relay fails, with backoff', async () => {
    // Only this device's registrations are scripted and counted: an earlier test's device may
    // still be retrying its own.
    const d = clientDevice(14);
    const mine = (body: Record<string, unknown>) => body.encrypted_push_registration === d.encryptedPushRegistration;
    relay.matchedScript.push({ matches: mine, mode: { kind: 'status', status: 503 } }, { matches: mine, mode: { kind: 'status', status: 502 } });
    expect((await register(fullRegistration(d))).body.result).toBe('success');
    await waitFor('registration after retries', async () => (await device(14))?.pushTokenId != null);
    expect(relay.requestsTo('/register').filter((r) => mine(r.body))).toHaveLength(3);
    expect(relay.matchedScript).toHaveLength(0);
  });

  it('removes the legacy registrations of the same token, and only those', async () => {
    const d = clientDevice(15, 'apns');
    await env.db.pushDeviceToken.createMany({
      data: [
        { realmId: realm.realmId, userId: realm.member.id, kind: 'apns', token: d.token, iosAppId: 'org.example.app' },
        { realmId: realm.realmId, userId: realm.member.id, kind: 'apns', token: 'ab'.repeat(32), iosAppId: 'org.example.app' },
        { realmId: realm.realmId, userId: realm.member2.id, kind: 'apns', token: d.token, iosAppId: 'org.example.app' },
      ],
    });
    await registered(d);
    const left = await env.db.pushDeviceToken.findMany({ orderBy: { id: 'asc' } });
    expect(left.map((t) => [t.userId, t.token])).toEqual([
      [realm.member.id, 'ab'.repeat(32)],
      [realm.member2.id, d.token],
    ]);
  });

  it('keeps devices of different users apart', async () => {
    const d = clientDevice(16);
    await registered(d);
    const other = await post(push, realm.realmId, realm.member2, '/mobile_push/register', { device_id: 16, ...keyFields(d) });
    expect(other.body.msg).toBe('No push registration exists to rotate key for.');
  });
});

describe('POST /register_client_device', () => {
  it('hands out device ids per user that /mobile_push/register then uses', async () => {
    const first = await post(push, realm.realmId, realm.moderator, '/register_client_device');
    const second = await post(push, realm.realmId, realm.moderator, '/register_client_device');
    expect(first.body).toEqual({ result: 'success', msg: '', device_id: 1 });
    expect(second.body.device_id).toBe(2);
    const events = await waitFor('device add events', async () => {
      const all = (await streamEvents(env, realm.realmId, 'device')).filter((e) => (e.users as number[])[0] === realm.moderator.id);
      return all.length >= 2 && all;
    });
    expect(events.map((e) => e.event)).toEqual([
      { type: 'device', op: 'add', device_id: 1 },
      { type: 'device', op: 'add', device_id: 2 },
    ]);

    // A device that exists but was never set up for push: rotation is refused, registration works.
    const d = clientDevice(2);
    const rotate = await post(push, realm.realmId, realm.moderator, '/mobile_push/register', { device_id: 2, ...keyFields(d) });
    expect(rotate.body.msg).toBe('No push registration exists to rotate key for.');
    expect((await post(push, realm.realmId, realm.moderator, '/mobile_push/register', fullRegistration(d))).body.result).toBe('success');
    expect(await env.db.pushDevice.count({ where: { userId: realm.moderator.id } })).toBe(2);
  });

  it('refuses bots', async () => {
    expect((await post(push, realm.realmId, realm.bot, '/register_client_device')).body.msg).toBe('This endpoint does not accept bot requests.');
  });
});
