import { ROLE } from '@chat/contracts';
import { createTestDatabase, type TestDatabase } from '@chat/db/testing';
import { userObject } from '@chat/wire';
import { doCreateRealm, doCreateUser, SYSTEM_GROUPS } from '..';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

async function eventsAfter(id: bigint | number, type: string) {
  const rows = await database.db.outboxEvent.findMany({ where: { type, id: { gt: id } }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.payload as { event: Record<string, any>; users: number[] | 'realm' });
}

it('announces a new account with the User object, delivery_email as each viewer may see it', async () => {
  const { db } = database;
  const realm = await doCreateRealm(db, { stringId: 'verona', name: 'Verona' });
  const owner = await doCreateUser(db, { realmId: realm.id, email: 'owner@chat.test', fullName: 'Owner', role: ROLE.OWNER });
  const member = await doCreateUser(db, { realmId: realm.id, email: 'member@chat.test', fullName: 'Member' });
  // Addresses of accounts made from now on are for administrators only.
  await db.realm.update({ where: { id: realm.id }, data: { settings: { user_defaults: { email_address_visibility: 3 } } } });
  const before = (await db.outboxEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
  const juliet = await doCreateUser(db, { realmId: realm.id, email: 'juliet@chat.test', fullName: 'Juliet', timezone: 'Europe/Rome' });

  const adds = await eventsAfter(before, 'realm_user');
  expect(adds.map((e) => e.users)).toEqual([[owner.id, juliet.id], [member.id]]);
  const [seen, hidden] = adds.map((e) => e.event);
  expect(seen).toEqual({
    type: 'realm_user',
    op: 'add',
    person: userObject(juliet, { id: owner.id, role: owner.role }, { realmUrl: '', clientGravatar: false, profileData: {} }),
  });
  expect(seen!.person).toMatchObject({
    user_id: juliet.id, delivery_email: 'juliet@chat.test', full_name: 'Juliet', timezone: 'Europe/Rome', is_bot: false,
    avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\//), is_imported_stub: false, profile_data: {},
  });
  // To the minute, as register's realm_users gives it.
  expect(seen!.person.date_joined).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d\+00:00$/);
  expect(hidden!.person).toEqual({ ...seen!.person, delivery_email: null });

  const [joined] = await eventsAfter(before, 'user_group');
  const members = await db.userGroup.findFirstOrThrow({ where: { realmId: realm.id, name: SYSTEM_GROUPS.members } });
  expect(joined).toEqual({
    event: { type: 'user_group', op: 'add_members', group_id: members.id, user_ids: [juliet.id] },
    users: [owner.id, member.id, juliet.id],
  });
});

it('announces bots without profile data, their addresses visible to all', async () => {
  const { db } = database;
  const realm = await doCreateRealm(db, { stringId: 'denmark', name: 'Denmark' });
  await db.realm.update({ where: { id: realm.id }, data: { settings: { user_defaults: { email_address_visibility: 4 } } } });
  const owner = await doCreateUser(db, { realmId: realm.id, email: 'hamlet@chat.test', fullName: 'Hamlet', role: ROLE.OWNER });
  const before = (await db.outboxEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
  const bot = await doCreateUser(db, { realmId: realm.id, email: 'bot@chat.test', fullName: 'Bot', isBot: true, botOwnerId: owner.id });
  const [add, ...more] = await eventsAfter(before, 'realm_user');
  expect(more).toEqual([]);
  expect(add!.users).toEqual([owner.id, bot.id]);
  expect(add!.event.person).toMatchObject({ user_id: bot.id, is_bot: true, bot_type: 1, bot_owner_id: owner.id, delivery_email: 'bot@chat.test' });
  expect(add!.event.person).not.toHaveProperty('profile_data');
});
