// scripts/migration-new.ts on a copy of the prisma folder: two areas edit their files at the
// same time and each migration must contain only the named area's changes. The scratch
// file names are ones no real area uses, so the test holds whatever the real schema contains.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { migrateDatabase, readMigrations } from '../migrate';
import { emptyDatabase, pkgDir, runTs } from './helpers';

const script = path.join(pkgDir, 'scripts', 'migration-new.ts');
let dir: string;
const newMigration = (args: string[]) => runTs(script, [...args, `--prisma-dir=${dir}`], { wasm: true });
const sqlOf = (name: string) => fs.readFileSync(path.join(dir, 'migrations', name, 'migration.sql'), 'utf8');
const folders = () => readMigrations(path.join(dir, 'migrations')).map((m) => m.name);

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-prisma-'));
  fs.cpSync(path.join(pkgDir, 'prisma'), dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'schema', 'scratch_a.prisma'),
    'model ScratchNote {\n  id      Int    @id @default(autoincrement())\n  userId  Int    @map("user_id")\n  content String\n\n  @@map("scratch_notes")\n}\n',
  );
  fs.writeFileSync(
    path.join(dir, 'schema', 'scratch_b.prisma'),
    'model ScratchPin {\n  userId      Int @map("user_id")\n  mutedUserId Int @map("muted_user_id")\n\n  @@id([userId, mutedUserId])\n  @@map("scratch_pins")\n}\n',
  );
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('the snapshot matches the committed schema and migrations', async () => {
  const check = await runTs(script, ['--check'], { wasm: true });
  expect(check.stderr).toBe('');
  expect(check.code).toBe(0);
});

test('a named file yields a migration of that file only; the rest stays pending', async () => {
  const before = folders();
  const res = await newMigration(['Add notes', 'scratch_a.prisma']);
  expect(res.code).toBe(0);
  expect(res.stdout).toMatch(/not included .*scratch_b\.prisma/);

  const added = folders().filter((f) => !before.includes(f));
  expect(added).toHaveLength(1);
  expect(added[0]).toMatch(/^\d{14}_add_notes$/);
  expect(added[0]! > before[before.length - 1]!).toBe(true);
  const sql = sqlOf(added[0]!);
  expect(sql).toContain('CREATE TABLE "scratch_notes"');
  expect(sql).not.toContain('scratch_pins');
  expect(sql).not.toContain('realms');

  expect(fs.existsSync(path.join(dir, 'snapshot', 'scratch_a.prisma'))).toBe(true);
  expect(fs.existsSync(path.join(dir, 'snapshot', 'scratch_b.prisma'))).toBe(false);

  // scratch_b.prisma is still unmigrated, which the CI check reports.
  const check = await newMigration(['--check']);
  expect(check.code).toBe(1);
  expect(check.stderr).toContain('scratch_pins');

  // Nothing new for messaging: no folder is written.
  const again = await newMigration(['again', 'scratch_a.prisma']);
  expect(again.stdout).toMatch(/no schema changes/);
  expect(folders()).toHaveLength(before.length + 1);

  // The result is a valid migration history.
  const db = await emptyDatabase();
  try {
    await migrateDatabase(db.url, { migrationsDir: path.join(dir, 'migrations') });
    const c = new Client({ connectionString: db.url });
    await c.connect();
    const { rows } = await c.query(`SELECT to_regclass('scratch_notes')::text AS d, to_regclass('scratch_pins')::text AS m`);
    await c.end();
    expect(rows[0]).toEqual({ d: 'scratch_notes', m: null });
  } finally {
    await db.drop();
  }
});

test('without file names every changed file is included, and a removed file drops its tables', async () => {
  const res = await newMigration(['areas']);
  expect(res.code).toBe(0);
  const sql = sqlOf(folders().at(-1)!);
  expect(sql).toContain('CREATE TABLE "scratch_notes"');
  expect(sql).toContain('CREATE TABLE "scratch_pins"');

  fs.rmSync(path.join(dir, 'schema', 'scratch_b.prisma'));
  expect((await newMigration(['drop muted', 'scratch_b.prisma'])).code).toBe(0);
  expect(sqlOf(folders().at(-1)!)).toContain('DROP TABLE "scratch_pins"');
  expect(fs.existsSync(path.join(dir, 'snapshot', 'scratch_b.prisma'))).toBe(false);
  expect((await newMigration(['--check'])).code).toBe(0);
});
