import { randomBytes } from 'node:crypto';
import { recordEvent } from '@chat/bus';
import { seedRealm, sendMessage, setupTestEnv, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import type { PushHandle } from '../app';
import { TestRelay } from './relay-server';
import { del, legacyPending, post, relayPersonForm, startPush, waitFor } from './support';

/**
 * Legacy tokens and the relay's record of them: the relay delivers only to tokens it holds, so
 * every add and remove must reach it, and no notification may list a token before it does.
 */

let env: TestEnv;
let realm: SeededRealm;
let other: SeededRealm;
let relay: TestRelay;
let push: PushHandle;

const apnsToken = () => randomBytes(32).toString('hex');
const fcmToken = () => `fcm-legacy:${randomBytes(24).toString('base64url')}`;

const addApns = (r: SeededRealm, user: SeededUser, token: string) =>
  post(push, r.realmId, user, '/users/me/apns_device_token', { token, appid: 'org.example.app' });
const addFcm = (r: SeededRealm, user: SeededUser, token: string) => post(push, r.realmId, user, '/users/me/android_gcm_reg_id', { token });

const synced = async (user: SeededUser) => (await legacyPending(env, user.id)).length === 0;

/** What the relay handed to a provider for one message. */
const deliveredFor = (messageId: number) =>
  relay.legacyDeliveries.filter((d) => (d.kind === 'fcm' ? d.payload.zulip_message_id : (d.payload as any).custom?.zulip?.message_ids?.[0]) === messageId);

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  other = await seedRealm(env.db, 'other');
  relay = await TestRelay.start();
  push = await startPush(env, { PUSH_RELAY_URL: relay.url });
});

afterAll(async () => {
  await push?.stop();
  await relay?.close();
  await env?.close();
});

afterEach(() => {
  relay.mode = { kind: 'ok' };
  relay.script.length = 0;
});

describe('the relay learns of legacy tokens', () => {
  it('when an APNs token is added, with its app id', async () => {
    const token = apnsToken();
    expect((await addApns(realm, realm.member, token)).body.result).toBe('success');
    await waitFor('registration', async () => relay.hasLegacy(realm.member.id, 'apns', token) && (await synced(realm.member)));
    const [req] = relay.requestsTo('/remotes/push/register').filter((r) => r.body.token === token);
    expect(req!.body).toEqual({ ...(await relayPersonForm(env, realm.realmId, realm.member.id)), token, token_kind: '1', ios_app_id: 'org.example.app' });
    expect(req!.contentType).toBe('application/x-www-form-urlencoded');
  });

  it('when an FCM token is added, and again when it is removed', async () => {
    const token = fcmToken();
    expect((await addFcm(realm, realm.member2, token)).body.result).toBe('success');
    await waitFor('registration', async () => relay.hasLegacy(realm.member2.id, 'fcm', token) && (await synced(realm.member2)));
    expect(relay.requestsTo('/remotes/push/register').find((r) => r.body.token === token)!.body).toEqual({
      ...(await relayPersonForm(env, realm.realmId, realm.member2.id)),
      token,
      token_kind: '2',
    });

    expect((await del(push, realm.realmId, realm.member2, '/users/me/android_gcm_reg_id', { token })).body.result).toBe('success');
    await waitFor('unregistration', async () => !relay.hasLegacy(realm.member2.id, 'fcm', token) && (await synced(realm.member2)));
    expect(relay.requestsTo('/remotes/push/unregister').find((r) => r.body.token === token)!.body).toEqual({
      ...(await relayPersonForm(env, realm.realmId, realm.member2.id)),
      token,
      token_kind: '2',
    });
  });

  it('after a relay outage during the add, by retrying until the relay has it', async () => {
    const token = apnsToken();
    relay.script.push({ kind: 'status', status: 503 }, { kind: 'garbage' });
    // The request does not wait for the relay: it succeeds during the outage.
    expect((await addApns(realm, realm.admin, token)).body.result).toBe('success');
    await waitFor('registered after retries', async () => relay.hasLegacy(realm.admin.id, 'apns', token) && (await synced(realm.admin)));
    const attempts = relay.requestsTo('/remotes/push/register').filter((r) => r.body.token === token);
    expect(attempts).toHaveLength(3);
    // PUSH_RETRY_BASE_MS is 50: the retries back off.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(45);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(90);
  });

  it('in the order the changes were made, when a token is added and removed during an outage', async () => {
    const token = fcmToken();
    relay.mode = { kind: 'status', status: 502 };
    expect((await addFcm(realm, realm.guest, token)).body.result).toBe('success');
    expect((await del(push, realm.realmId, realm.guest, '/users/me/android_gcm_reg_id', { token })).body.result).toBe('success');
    expect((await addFcm(realm, realm.guest, token)).body.result).toBe('success');
    await waitFor('relay tried', async () => relay.requestsTo('/remotes/push/register').filter((r) => r.body.token === token).length >= 2);
    relay.mode = { kind: 'ok' };
    // The token was added last: whichever retry runs last, the relay ends up holding it.
    await waitFor('settled', async () => relay.hasLegacy(realm.guest.id, 'fcm', token) && (await synced(realm.guest)));
    await new Promise((r) => setTimeout(r, 500));
    expect(relay.hasLegacy(realm.guest.id, 'fcm', token)).toBe(true);
  });

  it('all forgotten when the user is deactivated', async () => {
    const a = apnsToken();
    const f = fcmToken();
    await addApns(other, other.member, a);
    await addFcm(other, other.member, f);
    await waitFor('registrations', async () => relay.hasLegacy(other.member.id, 'apns', a) && relay.hasLegacy(other.member.id, 'fcm', f));
    // As the users service records a deactivation.
    await env.db.$transaction(async (tx) => {
      await tx.user.update({ where: { id: other.member.id }, data: { isActive: false } });
      await recordEvent(tx, {
        realmId: other.realmId,
        type: 'realm_user',
        users: [other.owner.id],
        event: { type: 'realm_user', op: 'update', person: { user_id: other.member.id, is_active: false } },
      });
    });
    await waitFor('unregister/all', async () => relay.requestsTo('/remotes/push/unregister/all').some((r) => r.body.user_id === String(other.member.id)));
    expect(relay.requestsTo('/remotes/push/unregister/all').find((r) => r.body.user_id === String(other.member.id))!.body).toEqual(
      await relayPersonForm(env, other.realmId, other.member.id),
    );
    expect(relay.hasLegacy(other.member.id, 'apns', a) || relay.hasLegacy(other.member.id, 'fcm', f)).toBe(false);
    expect(await env.db.pushDeviceToken.count({ where: { userId: other.member.id } })).toBe(0);
  });
});

describe('legacy notifications', () => {
  it('reach only the tokens the relay holds; one it never got is reported and dropped', async () => {
    const known = fcmToken();
    const unknown = apnsToken();
    await addFcm(realm, realm.moderator, known);
    await waitFor('registration', async () => relay.hasLegacy(realm.moderator.id, 'fcm', known) && (await synced(realm.moderator)));
    // A row the relay was never told of (stored while no relay was configured).
    await env.db.pushDeviceToken.create({
      data: { realmId: realm.realmId, userId: realm.moderator.id, kind: 'apns', token: unknown, iosAppId: 'org.example.app' },
    });
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.moderator], content: 'who gets this' });
    await waitFor('delivery', async () => deliveredFor(msg.id).length > 0);
    await waitFor('unknown token dropped', async () => (await env.db.pushDeviceToken.count({ where: { userId: realm.moderator.id, kind: 'apns' } })) === 0);
    expect(deliveredFor(msg.id).map((d) => [d.kind, d.token])).toEqual([['fcm', known]]);
  });

  it('do not overtake a pending registration: the token is registered first, and kept', async () => {
    const token = apnsToken();
    // The relay fails every registration attempt of the job (3), so the token stays pending.
    relay.mode = { kind: 'status', status: 503 };
    expect((await addApns(realm, realm.owner, token)).body.result).toBe('success');
    await waitFor('registration job gave up', async () => relay.requestsTo('/remotes/push/register').filter((r) => r.body.token === token).length === 3);
    await new Promise((r) => setTimeout(r, 200));
    expect(relay.hasLegacy(realm.owner.id, 'apns', token)).toBe(false);
    expect(await legacyPending(env, realm.owner.id)).toEqual([`apns:${token}`]);
    relay.mode = { kind: 'ok' };

    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.owner], content: 'after the outage' });
    await waitFor('delivery', async () => deliveredFor(msg.id).length > 0);
    expect(deliveredFor(msg.id).map((d) => [d.kind, d.token])).toEqual([['apns', token]]);
    // Registered before the notification was sent, so the relay reported nothing deleted.
    const register = relay.requestsTo('/remotes/push/register').filter((r) => r.body.token === token).at(-1)!;
    const notify = relay.requestsTo('/remotes/push/notify').find((r) => r.body.user_id === realm.owner.id)!;
    expect(register.at).toBeLessThanOrEqual(notify.at);
    expect(relay.requests.indexOf(register)).toBeLessThan(relay.requests.indexOf(notify));
    expect(await env.db.pushDeviceToken.count({ where: { userId: realm.owner.id, token } })).toBe(1);
    expect(await legacyPending(env, realm.owner.id)).toEqual([]);
  });

  it('wait for the relay when the pending registration fails again, and are retried', async () => {
    const token = fcmToken();
    relay.mode = { kind: 'status', status: 503 };
    await addFcm(other, other.admin, token);
    await waitFor('registration job gave up', async () => relay.requestsTo('/remotes/push/register').filter((r) => r.body.token === token).length === 3);
    await new Promise((r) => setTimeout(r, 200));
    // Still away when the notification's first attempt registers the token; back for the retry.
    relay.mode = { kind: 'ok' };
    relay.script.push({ kind: 'status', status: 503 });
    const msg = await sendMessage(env.db, other.realmId, { sender: other.member2, recipients: [other.admin], content: 'eventually' });
    await waitFor('delivery', async () => deliveredFor(msg.id).length > 0);
    expect(relay.requestsTo('/remotes/push/register').filter((r) => r.body.token === token)).toHaveLength(5);
    expect(deliveredFor(msg.id).map((d) => d.token)).toEqual([token]);
    expect(await env.db.pushDeviceToken.count({ where: { userId: other.admin.id, token } })).toBe(1);
  });
});
