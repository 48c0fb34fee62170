import type { Db } from '..';
import { rowFromJson } from '../rows';
import { createTestDatabase, type TestDatabase } from '../../testing';

let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
});
afterAll(async () => {
  await t.drop();
});

async function json(table: string, id: number): Promise<Record<string, unknown>> {
  const [row] = await db.$queryRawUnsafe<Array<{ j: Record<string, unknown> }>>(`SELECT to_jsonb(t) AS j FROM ${table} t WHERE id = $1`, id);
  return row!.j;
}

test('a row read as JSON equals the model query, field by field', async () => {
  const realm = await db.realm.create({ data: { stringId: 'rows', name: 'Rows', settings: { a: [1, 'x'], b: null } } });
  const user = await db.user.create({
    data: { realmId: realm.id, email: 'r@rows.test', deliveryEmail: 'r@rows.test', fullName: 'R Ŵ', apiKey: 'k', botType: 1, settings: { x: 1 } },
  });
  const stream = await db.stream.create({
    data: { realmId: realm.id, name: 'ch', nameKey: 'ch', description: 'd', renderedDescription: '<p>d</p>', creatorId: user.id, canSendMessageGroup: { direct_members: [user.id], direct_subgroups: [] } },
  });
  // Timestamps with milliseconds, as every one the application writes.
  await db.user.update({ where: { id: user.id }, data: { dateJoined: new Date('2026-01-02T03:04:05.678Z') } });

  expect(rowFromJson(db, 'Realm', await json('realms', realm.id))).toEqual(await db.realm.findUniqueOrThrow({ where: { id: realm.id } }));
  const u = rowFromJson(db, 'User', await json('users', user.id));
  expect(u).toEqual(await db.user.findUniqueOrThrow({ where: { id: user.id } }));
  expect(u.dateJoined.toISOString()).toBe('2026-01-02T03:04:05.678Z');
  expect(rowFromJson(db, 'Stream', await json('streams', stream.id))).toEqual(await db.stream.findUniqueOrThrow({ where: { id: stream.id } }));
});

test('a model the data model does not know is refused', () => {
  expect(() => rowFromJson(db, 'Nope' as 'User', {})).toThrow('no data model for Nope');
});
