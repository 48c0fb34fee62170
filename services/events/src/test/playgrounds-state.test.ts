/**
 * Register's realm_playgrounds: the realm's code playgrounds, built by the same @chat/wire
 * function as the users service's realm_playgrounds event.
 */
import { realmPlaygroundList } from '@chat/wire';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { start, type EventsHandle } from '../app';
import { register } from './support';

let env: TestEnv;
let realm: SeededRealm;
let elsewhere: SeededRealm;
let service: EventsHandle;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  elsewhere = await seedRealm(env.db, 'elsewhere');
  service = await start({ ...env.env, STREAM_PARTITIONS: '2' });
});

afterAll(async () => {
  await service?.stop();
  await env?.close();
});

const fetch = (...types: string[]) => ({ fetch_event_types: JSON.stringify(types) });

it('is empty for a realm without playgrounds', async () => {
  const body = (await register(service.url, realm.realmId, realm.member, fetch('realm_playgrounds'))).body;
  expect(body.realm_playgrounds).toEqual([]);
});

it("lists the realm's playgrounds in the order they were added, to everyone", async () => {
  const add = (realmId: number, name: string, lang: string) =>
    env.db.realmPlayground.create({ data: { realmId, name, pygmentsLanguage: lang, urlTemplate: `https://${lang.toLowerCase()}.test/?c={code}` } });
  const a = await add(realm.realmId, 'Python playground', 'Python');
  const b = await add(realm.realmId, 'Rust playground', 'Rust');
  await add(elsewhere.realmId, 'Not ours', 'Go');
  const expected = [
    { id: a.id, name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.test/?c={code}' },
    { id: b.id, name: 'Rust playground', pygments_language: 'Rust', url_template: 'https://rust.test/?c={code}' },
  ];
  expect(realmPlaygroundList([b, a])).toEqual(expected);
  for (const user of [realm.member, realm.guest, realm.admin]) {
    const body = (await register(service.url, realm.realmId, user, fetch('realm_playgrounds'))).body;
    expect(body.realm_playgrounds).toEqual(expected);
  }
  // Not asked for, not given.
  const other = (await register(service.url, realm.realmId, realm.member, fetch('realm_linkifiers'))).body;
  expect(other).not.toHaveProperty('realm_playgrounds');
});
