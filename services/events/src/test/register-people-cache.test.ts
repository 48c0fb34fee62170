/**
 * register keeps the realm's user rows, user objects and groups per replica (state/kept.ts).
 * Whatever changed a person, the register that follows the change shows it, on this replica and
 * on another that had kept the rows too, and what a kept copy gives is what a fresh read gives.
 */
import { ROLE } from '@chat/contracts';
import { doCreateUser } from '@chat/realm';
import { seedRealm, setupTestEnv, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import { EMAIL_VISIBILITY } from '@chat/wire';
import { start, type EventsHandle } from '../app';
import { register } from './support';

let env: TestEnv;
let realm: SeededRealm;
let a: EventsHandle;
let b: EventsHandle;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  const config = { ...env.env, STREAM_PARTITIONS: '2', PARTITION_LEASE_MS: '1000' };
  // Two replicas on one database, each with its own kept rows.
  a = await start(config);
  b = await start(config);
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await env?.close();
});

type Person = Record<string, unknown> & { user_id: number };

async function people(service: EventsHandle, viewer: SeededUser = realm.member, params: Record<string, string> = {}) {
  const res = await register(service.url, realm.realmId, viewer, { fetch_event_types: '["realm_user"]', ...params });
  expect(res.status).toBe(200);
  return res.body as { realm_users: Person[]; realm_non_active_users: Person[]; cross_realm_bots: Person[] } & Record<string, unknown>;
}

const find = (list: Person[], id: number) => list.find((p) => p.user_id === id);

/** Registers on both replicas, so that each keeps the realm's rows before the change. */
async function warm(viewer: SeededUser = realm.member) {
  await people(a, viewer);
  await people(b, viewer);
}

it('shows a rename made after the rows were kept, on every replica', async () => {
  await warm();
  await env.db.user.update({ where: { id: realm.member2.id }, data: { fullName: 'Renamed Person' } });
  expect(find((await people(a)).realm_users, realm.member2.id)?.full_name).toBe('Renamed Person');
  expect(find((await people(b)).realm_users, realm.member2.id)?.full_name).toBe('Renamed Person');
});

it('shows a role change and an avatar change', async () => {
  await warm();
  await env.db.user.update({ where: { id: realm.member2.id }, data: { role: ROLE.MODERATOR, avatarSource: 'U', avatarVersion: { increment: 1 } } });
  const row = await env.db.user.findUniqueOrThrow({ where: { id: realm.member2.id } });
  const seen = find((await people(b)).realm_users, realm.member2.id)!;
  expect(seen.role).toBe(ROLE.MODERATOR);
  expect(seen.avatar_version).toBe(row.avatarVersion);
  expect(seen.avatar_url).toContain(`/avatar/${row.id}?version=${row.avatarVersion}`);
  await env.db.user.update({ where: { id: realm.member2.id }, data: { role: ROLE.MEMBER } });
  expect(find((await people(a)).realm_users, realm.member2.id)?.role).toBe(ROLE.MEMBER);
});

it('moves a deactivated person to realm_non_active_users and back', async () => {
  await warm();
  await env.db.user.update({ where: { id: realm.member2.id }, data: { isActive: false } });
  let state = await people(a);
  expect(find(state.realm_users, realm.member2.id)).toBeUndefined();
  expect(find(state.realm_non_active_users, realm.member2.id)?.is_active).toBe(false);
  await env.db.user.update({ where: { id: realm.member2.id }, data: { isActive: true } });
  state = await people(b);
  expect(find(state.realm_users, realm.member2.id)?.is_active).toBe(true);
  expect(find(state.realm_non_active_users, realm.member2.id)).toBeUndefined();
});

it('lists a new person at once', async () => {
  await warm();
  const created = await doCreateUser(env.db, { realmId: realm.realmId, email: 'newcomer@chat.test', fullName: 'Newcomer' });
  expect(find((await people(a)).realm_users, created.id)?.full_name).toBe('Newcomer');
  expect(find((await people(b)).realm_users, created.id)?.full_name).toBe('Newcomer');
});

it('shows custom profile data as it is set, changed and removed', async () => {
  const field = await env.db.customProfileField.create({ data: { realmId: realm.realmId, name: 'Desk', fieldType: 1, order: 9 } });
  await warm();
  const value = await env.db.customProfileFieldValue.create({ data: { fieldId: field.id, userId: realm.member2.id, value: 'B-12' } });
  const data = async (service: EventsHandle) => (find((await people(service)).realm_users, realm.member2.id)?.profile_data as Record<string, { value: string }>)[String(field.id)];
  expect((await data(a))?.value).toBe('B-12');
  await env.db.customProfileFieldValue.update({ where: { id: value.id }, data: { value: 'C-7' } });
  expect((await data(b))?.value).toBe('C-7');
  await env.db.customProfileFieldValue.delete({ where: { id: value.id } });
  expect(await data(a)).toBeUndefined();
  await env.db.customProfileField.delete({ where: { id: field.id } });
});

it('shows each viewer the real addresses their role allows, whoever registered first', async () => {
  await env.db.user.update({ where: { id: realm.member2.id }, data: { settings: { email_address_visibility: EMAIL_VISIBILITY.ADMINS } } });
  const address = (state: { realm_users: Person[] }) => find(state.realm_users, realm.member2.id)?.delivery_email;
  for (let round = 0; round < 2; round++) {
    expect(address(await people(a, realm.member))).toBeNull();
    expect(address(await people(a, realm.admin))).toBe(realm.member2.email);
    expect(address(await people(a, realm.moderator))).toBeNull();
    // One's own address is always shown, whatever one's setting.
    expect(address(await people(a, realm.member2))).toBe(realm.member2.email);
  }
  await env.db.user.update({ where: { id: realm.member2.id }, data: { settings: { email_address_visibility: EMAIL_VISIBILITY.EVERYONE } } });
  expect(address(await people(a, realm.member))).toBe(realm.member2.email);
});

it('gives from kept rows exactly what a replica reading them afresh gives', async () => {
  // Each viewer's role and client_gravatar is met for the first time by the fresh replica.
  const fresh = await start({ ...env.env, STREAM_PARTITIONS: '2', PARTITION_LEASE_MS: '1000' });
  try {
    for (const viewer of [realm.member, realm.admin, realm.guest, realm.owner]) {
      for (const params of [{}, { client_gravatar: 'false' }] as Array<Record<string, string>>) {
        await people(a, viewer, params);
        const kept = await people(a, viewer, params);
        const read = await people(fresh, viewer, params);
        for (const key of ['realm_users', 'realm_non_active_users', 'cross_realm_bots', 'user_id', 'delivery_email', 'avatar_url', 'role']) {
          expect([viewer.email, key, kept[key]]).toEqual([viewer.email, key, read[key]]);
        }
      }
    }
  } finally {
    await fresh.stop();
  }
});

it('shows group changes made after the groups were kept: members, subgroups, names, deactivation', async () => {
  const groups = async (service: EventsHandle, params: Record<string, string> = {}) => {
    const res = await register(service.url, realm.realmId, realm.member, { fetch_event_types: '["realm_user_groups"]', ...params });
    expect(res.status).toBe(200);
    return res.body.realm_user_groups as Array<{ id: number; name: string; members: number[]; direct_subgroup_ids: number[]; deactivated: boolean }>;
  };
  const group = await env.db.userGroup.create({ data: { realmId: realm.realmId, name: 'Kept group', description: '' } });
  const other = await env.db.userGroup.create({ data: { realmId: realm.realmId, name: 'Other group', description: '' } });
  const find = async (service: EventsHandle, id = group.id, params: Record<string, string> = {}) => (await groups(service, params)).find((g) => g.id === id);
  await find(a);
  await find(b);
  await env.db.userGroupMember.create({ data: { groupId: group.id, userId: realm.member2.id } });
  expect((await find(a))?.members).toEqual([realm.member2.id]);
  expect((await find(b))?.members).toEqual([realm.member2.id]);
  await env.db.userGroupSubgroup.create({ data: { supergroupId: group.id, subgroupId: other.id } });
  expect((await find(b))?.direct_subgroup_ids).toEqual([other.id]);
  await env.db.userGroupMember.delete({ where: { groupId_userId: { groupId: group.id, userId: realm.member2.id } } });
  expect((await find(a))?.members).toEqual([]);
  await env.db.userGroup.update({ where: { id: group.id }, data: { name: 'Renamed group' } });
  expect((await find(b))?.name).toBe('Renamed group');
  await env.db.userGroup.update({ where: { id: other.id }, data: { deactivated: true } });
  expect(await find(a, other.id)).toBeUndefined();
  expect((await find(a, other.id, { client_capabilities: '{"include_deactivated_groups":true}' }))?.deactivated).toBe(true);
  await env.db.userGroup.update({ where: { id: other.id }, data: { deactivated: false } });
  expect((await find(a, other.id))?.deactivated).toBe(false);
});

it('shows the viewer their own settings and bots as just changed (both read from the kept people)', async () => {
  const state = async (service: EventsHandle) => {
    const res = await register(service.url, realm.realmId, realm.member, { fetch_event_types: '["user_settings","realm_bot","realm_user"]' });
    expect(res.status).toBe(200);
    return res.body as { user_settings: Record<string, unknown>; realm_bots: Array<{ user_id: number; full_name: string }> };
  };
  await state(a);
  await state(b);
  const row = await env.db.user.findUniqueOrThrow({ where: { id: realm.member.id } });
  await env.db.user.update({ where: { id: realm.member.id }, data: { settings: { ...(row.settings as object), enter_sends: true }, timezone: 'Europe/Oslo' } });
  const bot = await doCreateUser(env.db, { realmId: realm.realmId, email: 'helper-bot@chat.test', fullName: 'Helper', isBot: true, botType: 1, botOwnerId: realm.member.id });
  for (const service of [a, b]) {
    const seen = await state(service);
    expect(seen.user_settings).toMatchObject({ enter_sends: true, timezone: 'Europe/Oslo' });
    expect(seen.realm_bots.find((x) => x.user_id === bot.id)?.full_name).toBe('Helper');
  }
  await env.db.user.update({ where: { id: bot.id }, data: { fullName: 'Renamed helper' } });
  expect((await state(a)).realm_bots.find((x) => x.user_id === bot.id)?.full_name).toBe('Renamed helper');
});
