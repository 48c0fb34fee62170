import { Client } from 'pg';
import { createTestDatabase, dropStaleTestDatabases, templateName, type TestDatabase } from '../../testing';
import { databaseName, withDatabase } from '../url';
import { serverUrl } from './helpers';

async function databaseExists(name: string): Promise<boolean> {
  const c = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await c.connect();
  try {
    return (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await c.end();
  }
}

test('each test database is a separate, migrated copy of the template', async () => {
  const [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  try {
    expect(a.url).not.toBe(b.url);
    expect(databaseName(a.url)).toMatch(/^t_\d+_[0-9a-f]+$/);
    expect(await databaseExists(templateName())).toBe(true);

    await a.db.realm.create({ data: { stringId: 'only-in-a', name: 'A' } });
    expect(await a.db.realm.count()).toBe(1);
    expect(await b.db.realm.count()).toBe(0);
  } finally {
    await Promise.all([a.drop(), b.drop()]);
  }
  expect(await databaseExists(databaseName(a.url))).toBe(false);
  await a.drop(); // idempotent
});

test('many parallel creations share one template build', async () => {
  const dbs: TestDatabase[] = await Promise.all(Array.from({ length: 6 }, () => createTestDatabase()));
  try {
    expect(new Set(dbs.map((d) => d.url)).size).toBe(6);
    const counts = await Promise.all(dbs.map((d) => d.db.user.count()));
    expect(counts).toEqual([0, 0, 0, 0, 0, 0]);
  } finally {
    await Promise.all(dbs.map((d) => d.drop()));
  }
});

test('stale test databases are dropped, recent ones kept', async () => {
  const c = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await c.connect();
  const old = `t_${Math.floor(Date.now() / 1000) - 2 * 3600}_abc123`;
  const fresh = await createTestDatabase();
  try {
    await c.query(`CREATE DATABASE "${old}"`);
    const dropped = await dropStaleTestDatabases();
    expect(dropped).toContain(old);
    expect(dropped).not.toContain(databaseName(fresh.url));
    expect(await databaseExists(old)).toBe(false);
    expect(await databaseExists(databaseName(fresh.url))).toBe(true);
  } finally {
    await c.query(`DROP DATABASE IF EXISTS "${old}"`);
    await c.end();
    await fresh.drop();
  }
});
