/**
 * Register's muted_users (the viewer's own mutes) and realm_domains (the realm's allowed email
 * domains), from rows stored as the users service stores them.
 */
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { start, type EventsHandle } from '../app';
import { register } from './support';

let env: TestEnv;
let realm: SeededRealm;
let elsewhere: SeededRealm;
let service: EventsHandle;
const earlier = new Date('2025-01-02T03:04:05.600Z');
const later = new Date('2025-06-07T08:09:10.000Z');

const fetch = (...types: string[]) => ({ fetch_event_types: JSON.stringify(types) });

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  elsewhere = await seedRealm(env.db, 'elsewhere');
  service = await start({ ...env.env, STREAM_PARTITIONS: '2' });
  const { db } = env;
  // Stored out of order: the section lists the oldest mute first.
  await db.mutedUser.create({ data: { realmId: realm.realmId, userId: realm.member.id, mutedUserId: realm.bot.id, dateMuted: later } });
  await db.mutedUser.create({ data: { realmId: realm.realmId, userId: realm.member.id, mutedUserId: realm.member2.id, dateMuted: earlier } });
  await db.mutedUser.create({ data: { realmId: realm.realmId, userId: realm.member2.id, mutedUserId: realm.owner.id } });
  await db.realmDomain.create({ data: { realmId: realm.realmId, domain: 'zeta.example.com', allowSubdomains: true } });
  await db.realmDomain.create({ data: { realmId: realm.realmId, domain: 'acme.org' } });
  await db.realmDomain.create({ data: { realmId: elsewhere.realmId, domain: 'other.net' } });
});

afterAll(async () => {
  await service?.stop();
  await env?.close();
});

it('muted_users lists the viewer\'s own mutes, oldest first, with unix timestamps', async () => {
  const body = (await register(service.url, realm.realmId, realm.member, fetch('muted_users'))).body;
  expect(body.muted_users).toEqual([
    { id: realm.member2.id, timestamp: Math.floor(earlier.getTime() / 1000) },
    { id: realm.bot.id, timestamp: Math.floor(later.getTime() / 1000) },
  ]);
  expect((await register(service.url, realm.realmId, realm.member2, fetch('muted_users'))).body.muted_users.map((m: { id: number }) => m.id)).toEqual([realm.owner.id]);
  expect((await register(service.url, realm.realmId, realm.owner, fetch('muted_users'))).body.muted_users).toEqual([]);
  expect((await register(service.url, realm.realmId, realm.member)).body.muted_users).toHaveLength(2);
});

it('realm_domains lists the realm\'s domains by name, to every role', async () => {
  const expected = [
    { domain: 'acme.org', allow_subdomains: false },
    { domain: 'zeta.example.com', allow_subdomains: true },
  ];
  for (const user of [realm.owner, realm.member, realm.guest]) {
    const body = (await register(service.url, realm.realmId, user, fetch('realm_domains'))).body;
    expect(body.realm_domains).toEqual(expected);
    expect(body).not.toHaveProperty('muted_users');
  }
  expect((await register(service.url, elsewhere.realmId, elsewhere.member, fetch('realm_domains'))).body.realm_domains).toEqual([
    { domain: 'other.net', allow_subdomains: false },
  ]);
});
