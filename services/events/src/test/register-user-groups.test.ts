/**
 * register's realm_user_groups: members of role-based system groups by @chat/realm's rule (role,
 * and for full members account age against the realm's waiting period), the same answer as
 * GET /user_groups, and current after a change that writes no group row (the waiting period, a
 * deactivation), though the section is kept per replica (state/kept.ts).
 */
import { ROLE } from '@chat/contracts';
import { doCreateUser } from '@chat/realm';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { start, type EventsHandle } from '../app';
import { register } from './support';

let env: TestEnv;
let realm: SeededRealm;
let events: EventsHandle;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  events = await start(env.env);
});

afterAll(async () => {
  await events?.stop();
  await env?.close();
});

const DAY = 86_400_000;

async function groups(): Promise<Map<string, number[]>> {
  const res = await register(events.url, realm.realmId, realm.member, { fetch_event_types: '["realm_user_groups"]' });
  expect(res.status).toBe(200);
  return new Map((res.body.realm_user_groups as Array<{ name: string; members: number[] }>).map((g) => [g.name, g.members]));
}

async function setWaitingPeriod(days: number) {
  const row = await env.db.realm.findUniqueOrThrow({ where: { id: realm.realmId } });
  await env.db.realm.update({ where: { id: row.id }, data: { settings: { ...(row.settings as object), waiting_period_threshold: days } } });
}

it('lists members of the role-based groups by role and account age, and follows the waiting period', async () => {
  const veteran = await doCreateUser(env.db, { realmId: realm.realmId, email: 'veteran@chat.test', fullName: 'Veteran', role: ROLE.MEMBER });
  const newcomer = await doCreateUser(env.db, { realmId: realm.realmId, email: 'newcomer@chat.test', fullName: 'Newcomer', role: ROLE.MEMBER });
  await env.db.user.update({ where: { id: veteran.id }, data: { dateJoined: new Date(Date.now() - 30 * DAY) } });
  await env.db.user.update({ where: { id: newcomer.id }, data: { dateJoined: new Date(Date.now() - 2 * DAY) } });
  await setWaitingPeriod(10);

  let g = await groups();
  expect(g.get('role:fullmembers')).toContain(veteran.id);
  expect(g.get('role:fullmembers')).not.toContain(newcomer.id);
  expect(g.get('role:fullmembers')).not.toContain(realm.moderator.id);
  expect(g.get('role:members')).toEqual(expect.arrayContaining([veteran.id, newcomer.id, realm.member.id]));
  expect(g.get('role:moderators')).toEqual([realm.moderator.id]);
  expect(g.get('role:administrators')).toEqual([realm.admin.id]);
  expect(g.get('role:owners')).toEqual([realm.owner.id]);
  expect(g.get('role:everyone')).toEqual([realm.guest.id]);

  // Kept since the last register; no group row changes, yet the answer does.
  await setWaitingPeriod(0);
  g = await groups();
  expect(g.get('role:fullmembers')).toEqual(expect.arrayContaining([veteran.id, newcomer.id]));

  await env.db.user.update({ where: { id: veteran.id }, data: { isActive: false } });
  g = await groups();
  expect(g.get('role:fullmembers')).not.toContain(veteran.id);
  expect(g.get('role:members')).not.toContain(veteran.id);
});
