import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import type { PushHandle } from '../app';
import { del, post, startPush } from './support';

let env: TestEnv;
let realm: SeededRealm;
let push: PushHandle;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  push = await startPush(env, { PUSH_RUN_WORKERS: 'false' });
});

afterAll(async () => {
  await push?.stop();
  await env?.close();
});

const APNS = 'c0ffee'.repeat(8);
const tokens = () => env.db.pushDeviceToken.findMany({ orderBy: { id: 'asc' } });

describe('POST /users/me/apns_device_token', () => {
  it('stores the token with its app id, once however often it is sent', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await post(push, realm.realmId, realm.member, '/users/me/apns_device_token', { token: APNS, appid: 'org.example.app' });
      expect(res.body).toEqual({ result: 'success', msg: '' });
    }
    const rows = await tokens();
    expect(rows.map((t) => [t.userId, t.kind, t.token, t.iosAppId])).toEqual([[realm.member.id, 'apns', APNS, 'org.example.app']]);
  });

  it.each([
    [{ token: '', appid: 'org.example.app' }, 'BAD_REQUEST', 'Empty or invalid length token'],
    [{ token: 'a'.repeat(4098), appid: 'org.example.app' }, 'BAD_REQUEST', 'Empty or invalid length token'],
    [{ token: 'not-hex!', appid: 'org.example.app' }, 'BAD_REQUEST', 'Invalid APNS token'],
    [{ token: 'abc', appid: 'org.example.app' }, 'BAD_REQUEST', 'Invalid APNS token'],
    [{ token: APNS, appid: 'bad app id!' }, 'BAD_REQUEST', 'Invalid app ID'],
    [{ appid: 'org.example.app' }, 'REQUEST_VARIABLE_MISSING', "Missing 'token' argument"],
    [{ token: APNS }, 'REQUEST_VARIABLE_MISSING', "Missing 'appid' argument"],
  ])('rejects bad input #%#', async (form, code, msg) => {
    const res = await post(push, realm.realmId, realm.member2, '/users/me/apns_device_token', form);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code, msg });
    expect((await tokens()).filter((t) => t.userId === realm.member2.id)).toEqual([]);
  });

  it('refuses bots', async () => {
    const res = await post(push, realm.realmId, realm.bot, '/users/me/apns_device_token', { token: APNS, appid: 'org.example.app' });
    expect(res.body.msg).toBe('This endpoint does not accept bot requests.');
  });
});

describe('DELETE /users/me/apns_device_token', () => {
  it("removes the caller's token, and only the caller's", async () => {
    await post(push, realm.realmId, realm.admin, '/users/me/apns_device_token', { token: APNS, appid: 'org.example.app' });
    const res = await del(push, realm.realmId, realm.member, '/users/me/apns_device_token', { token: APNS });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect((await tokens()).map((t) => t.userId)).toEqual([realm.admin.id]);
    const again = await del(push, realm.realmId, realm.member, '/users/me/apns_device_token', { token: APNS });
    expect(again.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Token does not exist' });
  });

  it('validates the token like registration does', async () => {
    const res = await del(push, realm.realmId, realm.member, '/users/me/apns_device_token', { token: 'xyz' });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid APNS token' });
  });
});

describe('/users/me/android_gcm_reg_id', () => {
  it('registers and removes an FCM token', async () => {
    const token = 'fcm-registration:APA91bH-token_value';
    expect((await post(push, realm.realmId, realm.guest, '/users/me/android_gcm_reg_id', { token })).body.result).toBe('success');
    expect((await tokens()).filter((t) => t.userId === realm.guest.id).map((t) => [t.kind, t.token, t.iosAppId])).toEqual([
      ['fcm', token, null],
    ]);
    // Same string, other kind: an FCM token is not an APNs registration.
    expect((await del(push, realm.realmId, realm.guest, '/users/me/apns_device_token', { token: 'abcd' })).body.msg).toBe(
      'Token does not exist',
    );
    expect((await del(push, realm.realmId, realm.guest, '/users/me/android_gcm_reg_id', { token })).body.result).toBe('success');
    expect((await tokens()).filter((t) => t.userId === realm.guest.id)).toEqual([]);
  });

  it('rejects an empty token', async () => {
    const res = await post(push, realm.realmId, realm.guest, '/users/me/android_gcm_reg_id', { token: '' });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Empty or invalid length token' });
  });
});
