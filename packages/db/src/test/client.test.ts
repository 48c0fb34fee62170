import { createDb, Prisma, rawArrays, rawQuery, rowFromJson, withGenericPlans, withShortQuerySettings, type Db, type Realm, type Tx, type User } from '..';
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

test('round trip: create a realm and a user, read them back', async () => {
  const realm: Realm = await db.realm.create({ data: { stringId: 'acme', name: 'Acme', settings: { max: 3 } } });
  const user: User = await db.user.create({
    data: { realmId: realm.id, email: 'iago@acme.test', deliveryEmail: 'iago@acme.test', fullName: 'Iago', apiKey: 'k1' },
  });

  const found = await db.user.findUniqueOrThrow({ where: { id: user.id }, include: { realm: true } });
  expect(found).toMatchObject({ email: 'iago@acme.test', role: 400, isActive: true, settings: {} });
  expect(found.realm).toMatchObject({ stringId: 'acme', name: 'Acme', settings: { max: 3 } });
  expect(found.dateJoined).toBeInstanceOf(Date);
  expect(await db.user.findMany({ where: { realm: { stringId: 'acme' } } })).toHaveLength(1);
});

test('interactive transactions commit together or not at all', async () => {
  const realm = await db.realm.create({ data: { stringId: 'tx', name: 'Tx' } });
  const writeBoth = async (tx: Tx, key: string) => {
    await tx.outboxEvent.create({ data: { realmId: realm.id, type: 'realm_user', payload: { key } } });
    return tx.user.create({
      data: { realmId: realm.id, email: `${key}@tx.test`, deliveryEmail: `${key}@tx.test`, fullName: key, apiKey: key },
    });
  };

  await db.$transaction((tx) => writeBoth(tx, 'one'));
  // Same api_key: the unique violation must undo the outbox row written before it.
  await expect(db.$transaction((tx) => writeBoth(tx, 'one'))).rejects.toBeInstanceOf(
    Prisma.PrismaClientKnownRequestError,
  );
  const events = await db.outboxEvent.findMany({ where: { realmId: realm.id } });
  expect(events).toHaveLength(1);
  expect(typeof events[0]!.id).toBe('bigint');
});

test('rawQuery answers the same on the pool and, inside a transaction, through Prisma', async () => {
  const sql = `SELECT 7::int AS n, ARRAY[1, 2]::int[] AS ids, '{"a": [1]}'::jsonb AS j, true AS b, $1::text AS t`;
  const expected = [{ n: 7, ids: [1, 2], j: { a: [1] }, b: true, t: 'x' }];
  expect(await rawQuery(db, sql, ['x'])).toEqual(expected);
  expect(await db.$transaction((tx) => rawQuery(tx, sql, ['x']))).toEqual(expected);
});

test('rawArrays answers rows as arrays in column order, on the pool and through Prisma', async () => {
  const sql = `SELECT 7::int AS n, NULL::int AS z, '{"a": [1]}'::jsonb AS j, true AS b, floor(date_part('epoch', '2026-01-02 03:04:05.678'::timestamp)) AS s, $1::text AS t`;
  const expected = [[7, null, { a: [1] }, true, 1767323045, 'x']];
  expect(await rawArrays(db, sql, ['x'])).toEqual(expected);
  expect(await db.$transaction((tx) => rawArrays(tx, sql, ['x']))).toEqual(expected);
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

test('rows of arrays, JSON and timestamps read as JSON equal the model query', async () => {
  const realm = await db.realm.create({ data: { stringId: 'rows2', name: 'Rows 2' } });
  const user = await db.user.create({ data: { realmId: realm.id, email: 'q@rows.test', deliveryEmail: 'q@rows.test', fullName: 'Q', apiKey: 'k2' } });
  const stream = await db.stream.create({ data: { realmId: realm.id, name: 'c2', nameKey: 'c2', creatorId: user.id } });
  const linkifier = await db.linkifier.create({ data: { realmId: realm.id, pattern: '#(?P<id>\\d+)', urlTemplate: 'https://t/{id}', alternativeUrlTemplates: ['https://u/{id}', 'ü'] } });
  const field = await db.customProfileField.create({ data: { realmId: realm.id, name: 'F', fieldType: 3, order: 1, fieldData: { a: { text: 'x', order: '1' } } } });
  const group = await db.defaultStreamGroup.create({ data: { realmId: realm.id, name: 'G', streamIds: [stream.id, 7] } });
  const sub = await db.subscription.create({ data: { userId: user.id, streamId: stream.id, color: '#fff', isMuted: true, pushNotifications: false } });
  const draft = await db.draft.create({ data: { realmId: realm.id, userId: user.id, type: 'private', toUserIds: [user.id], content: 'd', lastEditTime: new Date('2026-03-04T05:06:07.089Z') } });

  expect(rowFromJson(db, 'Linkifier', await json('linkifiers', linkifier.id))).toEqual(linkifier);
  expect(rowFromJson(db, 'CustomProfileField', await json('custom_profile_fields', field.id))).toEqual(field);
  expect(rowFromJson(db, 'DefaultStreamGroup', await json('default_stream_groups', group.id))).toEqual(group);
  expect(rowFromJson(db, 'Subscription', await json('subscriptions', sub.id))).toEqual(sub);
  expect(rowFromJson(db, 'Draft', await json('drafts', draft.id))).toEqual(draft);
});

test('a model the data model does not know is refused', () => {
  expect(() => rowFromJson(db, 'Nope' as 'User', {})).toThrow('no data model for Nope');
});

test('withGenericPlans and withShortQuerySettings reach the pool\'s connections, and a named statement keeps one plan', async () => {
  // One connection each, so that the statement and the look at its counts share it.
  const tuned = createDb(withGenericPlans(withShortQuerySettings(t.url)), { poolSize: 1 });
  const plain = createDb(t.url, { poolSize: 1 });
  const plansOf = async (d: Db) => {
    for (let id = 1; id <= 3; id++) await rawQuery(d, 'SELECT id FROM realms WHERE id = $1', [id], 'plan_probe');
    const [counts] = await rawQuery<{ generic: number; custom: number }>(
      d, "SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE name = 'plan_probe'", [],
    );
    return counts;
  };
  try {
    const settings = await rawQuery<{ mode: string; jit: string }>(tuned, "SELECT current_setting('plan_cache_mode') AS mode, current_setting('jit') AS jit", []);
    expect(settings).toEqual([{ mode: 'force_generic_plan', jit: 'off' }]);
    // Planned once and reused, against once per run for a connection left as it was.
    expect(await plansOf(tuned)).toEqual({ generic: 3, custom: 0 });
    expect(await plansOf(plain)).toEqual({ generic: 0, custom: 3 });
  } finally {
    await tuned.$disconnect();
    await plain.$disconnect();
  }
});
