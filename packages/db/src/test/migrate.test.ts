import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { MIGRATIONS_DIR, migrateDatabase, readMigrations, sha256 } from '../migrate';
import { emptyDatabase, migrationsCopy, runFixture, writeMigration } from './helpers';

async function query<T extends object>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

interface Row {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
}
const history = (url: string) => query<Row>(url, 'SELECT * FROM _prisma_migrations ORDER BY started_at');

let scratch: { url: string; drop(): Promise<void> };
beforeEach(async () => {
  scratch = await emptyDatabase();
});
afterEach(async () => {
  await scratch.drop();
});

test('applies the migrations and records them the way Prisma does', async () => {
  const local = readMigrations();
  expect(local.length).toBeGreaterThan(0);
  expect(fs.existsSync(path.join(MIGRATIONS_DIR, 'migration_lock.toml'))).toBe(true);

  const result = await migrateDatabase(scratch.url);
  expect(result.applied).toEqual(local.map((m) => m.name));

  const rows = await history(scratch.url);
  expect(rows.map((r) => r.migration_name)).toEqual(local.map((m) => m.name));
  for (const [i, r] of rows.entries()) {
    const file = fs.readFileSync(path.join(MIGRATIONS_DIR, local[i]!.name, 'migration.sql'), 'utf8');
    expect(r.checksum).toBe(sha256(file));
    expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r.finished_at).toBeInstanceOf(Date);
    expect(r.finished_at!.getTime()).toBeGreaterThanOrEqual(r.started_at.getTime());
    expect(r.logs).toBeNull();
    expect(r.rolled_back_at).toBeNull();
    expect(r.applied_steps_count).toBe(1);
  }

  // Same columns and types as the table Prisma's schema engine creates.
  const columns = await query<{ column_name: string; data_type: string; len: number | null; nullable: string }>(
    scratch.url,
    `SELECT column_name, data_type, character_maximum_length AS len, is_nullable AS nullable
       FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
  );
  expect(columns.map((c) => [c.column_name, c.data_type, c.len, c.nullable])).toEqual([
    ['id', 'character varying', 36, 'NO'],
    ['checksum', 'character varying', 64, 'NO'],
    ['finished_at', 'timestamp with time zone', null, 'YES'],
    ['migration_name', 'character varying', 255, 'NO'],
    ['logs', 'text', null, 'YES'],
    ['rolled_back_at', 'timestamp with time zone', null, 'YES'],
    ['started_at', 'timestamp with time zone', null, 'NO'],
    ['applied_steps_count', 'integer', null, 'NO'],
  ]);
  const tables = await query<{ t: string }>(scratch.url, `SELECT to_regclass('realms')::text AS t`);
  expect(tables[0]!.t).toBe('realms');

  expect((await migrateDatabase(scratch.url)).applied).toEqual([]);
  expect(await history(scratch.url)).toHaveLength(local.length);
});

test("Prisma's own engine accepts the history, and the runner accepts Prisma's", async () => {
  await migrateDatabase(scratch.url);
  const seen = await runFixture<{ diagnosis: Record<string, unknown>; applied: string[] }>(
    'prisma-engine.ts',
    [scratch.url, MIGRATIONS_DIR],
    { wasm: true },
  );
  expect(seen.applied).toEqual([]);
  expect(seen.diagnosis).toMatchObject({ editedMigrationNames: [], failedMigrationNames: [], history: null });

  const other = await emptyDatabase();
  try {
    const byPrisma = await runFixture<{ applied: string[] }>('prisma-engine.ts', [other.url, MIGRATIONS_DIR], { wasm: true });
    expect(byPrisma.applied).toEqual(readMigrations().map((m) => m.name));
    expect((await migrateDatabase(other.url)).applied).toEqual([]);
  } finally {
    await other.drop();
  }
});

// A slow last migration keeps the lock held long enough for every contender to queue on it;
// its CREATE TABLE would fail if it ran twice.
const slow = { '99990101000000_slow': 'SELECT pg_sleep(0.5);\nCREATE TABLE slow_marker (id int);\n' };

test('concurrent runners on several connections apply each migration once', async () => {
  const dir = migrationsCopy(slow);
  const results = await Promise.all(Array.from({ length: 8 }, () => migrateDatabase(scratch.url, { migrationsDir: dir })));
  const applied = results.flatMap((r) => r.applied);
  expect(applied.sort()).toEqual(readMigrations(dir).map((m) => m.name).sort());
  expect(results.filter((r) => r.applied.length > 0)).toHaveLength(1);
  expect(await history(scratch.url)).toHaveLength(readMigrations(dir).length);
});

test('concurrent runners in separate processes apply each migration once', async () => {
  const dir = migrationsCopy(slow);
  const startAt = String(Date.now() + 2500); // after every child has loaded tsx and pg
  const results = await Promise.all(
    Array.from({ length: 4 }, () => runFixture<{ applied: string[] }>('migrate-child.ts', [scratch.url, dir, startAt])),
  );
  const applied = results.flatMap((r) => r.applied);
  expect(applied.sort()).toEqual(readMigrations(dir).map((m) => m.name).sort());
  const rows = await history(scratch.url);
  expect(new Set(rows.map((r) => r.migration_name)).size).toBe(rows.length);
  expect(rows).toHaveLength(readMigrations(dir).length);
});

test('refuses to run when an applied migration was edited', async () => {
  const dir = migrationsCopy({ '99990101000000_extra': 'CREATE TABLE extra (id int);\n' });
  await migrateDatabase(scratch.url, { migrationsDir: dir });

  // Only the line endings changed (git on Windows): still the same migration, as for Prisma.
  writeMigration(dir, '99990101000000_extra', 'CREATE TABLE extra (id int);\r\n');
  expect((await migrateDatabase(scratch.url, { migrationsDir: dir })).applied).toEqual([]);

  writeMigration(dir, '99990101000000_extra', 'CREATE TABLE extra (id bigint);\n');
  writeMigration(dir, '99990102000000_next', 'CREATE TABLE next (id int);\n');
  await expect(migrateDatabase(scratch.url, { migrationsDir: dir })).rejects.toThrow(
    /99990101000000_extra.*checksum mismatch/,
  );
  const rows = await history(scratch.url);
  expect(rows.map((r) => r.migration_name)).not.toContain('99990102000000_next');
});

test('a failing migration is rolled back entirely and can be retried once fixed', async () => {
  const dir = migrationsCopy({ '99990101000000_broken': 'CREATE TABLE half (id int);\nSELECT no_such_function();\n' });
  await expect(migrateDatabase(scratch.url, { migrationsDir: dir })).rejects.toThrow(
    /99990101000000_broken failed and was rolled back/,
  );
  expect((await history(scratch.url)).map((r) => r.migration_name)).toEqual(readMigrations().map((m) => m.name));
  expect((await query<{ t: string | null }>(scratch.url, `SELECT to_regclass('half')::text AS t`))[0]!.t).toBeNull();

  writeMigration(dir, '99990101000000_broken', 'CREATE TABLE half (id int);\n');
  expect((await migrateDatabase(scratch.url, { migrationsDir: dir })).applied).toEqual(['99990101000000_broken']);
});

test('refuses to run over a failed migration recorded by prisma migrate deploy', async () => {
  await migrateDatabase(scratch.url);
  await query(
    scratch.url,
    `INSERT INTO _prisma_migrations (id, checksum, migration_name, logs) VALUES ('x', 'y', '99990101000000_failed', 'boom')`,
  );
  await expect(migrateDatabase(scratch.url)).rejects.toThrow(/99990101000000_failed failed earlier/);
});
