/**
 * register's realm_users for a guest outside can_access_all_users_group: the people they may
 * not see come as placeholders (or not at all with user_list_incomplete), like GET /users.
 */
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { start, type EventsHandle } from '../app';
import { register } from './support';

let env: TestEnv;
let realm: SeededRealm;
let service: EventsHandle;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  service = await start({ ...env.env, STREAM_PARTITIONS: '2' });
  const { db } = env;
  const realmId = realm.realmId;
  const members = await db.userGroup.findFirstOrThrow({ where: { realmId, name: 'role:members', isSystemGroup: true } });
  const r = await db.realm.findUniqueOrThrow({ where: { id: realmId } });
  await db.realm.update({ where: { id: realmId }, data: { settings: { ...(r.settings as object), can_access_all_users_group: members.id } } });
  // The guest shares one channel with the member, and nothing with anyone else.
  const stream = await db.stream.create({ data: { realmId, name: 'Shared', nameKey: 'shared' } });
  await db.subscription.createMany({ data: [realm.guest.id, realm.member.id].map((userId) => ({ userId, streamId: stream.id, active: true })) });
});

afterAll(async () => {
  await service?.stop();
  await env?.close();
});

type Person = { user_id: number; full_name: string; email: string };

it('shows a restricted guest placeholders for the people they may not see', async () => {
  const body = (await register(service.url, realm.realmId, realm.guest, { fetch_event_types: JSON.stringify(['realm_user']) })).body;
  const people = new Map((body.realm_users as Person[]).map((p) => [p.user_id, p]));
  for (const seen of [realm.guest, realm.member, realm.bot]) expect(people.get(seen.id)!.full_name).not.toBe('Unknown user');
  for (const hidden of [realm.owner, realm.admin, realm.moderator, realm.member2]) {
    expect(people.get(hidden.id)).toMatchObject({ full_name: 'Unknown user', email: `user${hidden.id}@${new URL(body.realm_uri ?? 'http://chat.test').hostname}` });
  }
  const ids = (body.realm_users as Person[]).map((p) => p.user_id);
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  expect(JSON.stringify(body.realm_users)).not.toContain(realm.member2.fullName);
});

it('leaves them out for clients that cope with an incomplete user list', async () => {
  const body = (await register(service.url, realm.realmId, realm.guest, {
    fetch_event_types: JSON.stringify(['realm_user']),
    client_capabilities: JSON.stringify({ user_list_incomplete: true }),
  })).body;
  expect((body.realm_users as Person[]).map((p) => p.user_id).sort((a, b) => a - b)).toEqual([realm.member.id, realm.guest.id, realm.bot.id].sort((a, b) => a - b));
});

it('shows members everyone', async () => {
  const body = (await register(service.url, realm.realmId, realm.member, { fetch_event_types: JSON.stringify(['realm_user']) })).body;
  expect((body.realm_users as Person[]).some((p) => p.full_name === 'Unknown user')).toBe(false);
  expect((body.realm_users as Person[]).map((p) => p.user_id)).toEqual(expect.arrayContaining([realm.owner.id, realm.member2.id, realm.guest.id]));
});
