import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import type { PushHandle } from '../app';
import { TestRelay } from './relay-server';
import { clientDevice, fullRegistration, post, startPush, streamEvents, waitFor } from './support';

let env: TestEnv;
let realm: SeededRealm;
let relay: TestRelay;
let push: PushHandle;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  relay = await TestRelay.start();
  push = await startPush(env, { PUSH_RELAY_URL: relay.url });
});

afterAll(async () => {
  await push?.stop();
  await relay?.close();
  await env?.close();
});

describe('POST /remove_client_device', () => {
  it('removes the device and its registration, telling the user', async () => {
    const id = (await post(push, realm.realmId, realm.moderator, '/register_client_device')).body.device_id as number;
    expect((await post(push, realm.realmId, realm.moderator, '/mobile_push/register', fullRegistration(clientDevice(id)))).body.result).toBe('success');
    const res = await post(push, realm.realmId, realm.moderator, '/remove_client_device', { device_id: id });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    expect(await env.db.pushDevice.count({ where: { userId: realm.moderator.id } })).toBe(0);
    const events = await waitFor('device remove event', async () => {
      const all = (await streamEvents(env, realm.realmId, 'device')).filter((e) => (e.users as number[])[0] === realm.moderator.id);
      return all.some((e) => (e.event as { op: string }).op === 'remove') && all;
    });
    expect(events.at(-1)).toMatchObject({ users: [realm.moderator.id], event: { type: 'device', op: 'remove', device_id: id } });
  });

  it("refuses an unknown id, another user's device, and a second removal", async () => {
    const id = (await post(push, realm.realmId, realm.member, '/register_client_device')).body.device_id as number;
    const invalid = { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid `device_id`', var_name: 'device_id' };
    expect((await post(push, realm.realmId, realm.member2, '/remove_client_device', { device_id: id })).body).toEqual(invalid);
    expect((await post(push, realm.realmId, realm.member, '/remove_client_device', { device_id: 987654 })).body).toEqual(invalid);
    expect((await post(push, realm.realmId, realm.member, '/remove_client_device', { device_id: -1 })).body).toEqual(invalid);
    expect(await env.db.pushDevice.count({ where: { userId: realm.member.id } })).toBe(1);
    expect((await post(push, realm.realmId, realm.member, '/remove_client_device', { device_id: id })).body.result).toBe('success');
    expect((await post(push, realm.realmId, realm.member, '/remove_client_device', { device_id: id })).body).toEqual(invalid);
  });

  it('needs device_id and refuses bots', async () => {
    expect((await post(push, realm.realmId, realm.member, '/remove_client_device')).body.msg).toBe('Missing \'device_id\' argument');
    expect((await post(push, realm.realmId, realm.bot, '/remove_client_device', { device_id: 1 })).body.msg).toBe('This endpoint does not accept bot requests.');
  });
});
