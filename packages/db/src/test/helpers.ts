// Shared by the db package's own tests: scratch databases and migration folders.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { dropDatabase, ensureDatabase } from '../admin';
import { MIGRATIONS_DIR } from '../migrate';
import { databaseUrl, withDatabase } from '../url';

export const serverUrl = process.env.TEST_DATABASE_URL ?? databaseUrl();
export const pkgDir = path.resolve(__dirname, '..', '..');

/** An empty database named like the test databases, so a killed run's leftovers get cleaned up. */
export async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const url = withDatabase(serverUrl, `t_${Math.floor(Date.now() / 1000)}_${randomBytes(6).toString('hex')}`);
  await ensureDatabase(url);
  return { url, drop: () => dropDatabase(url) };
}

/** A copy of the real migrations folder plus extra migrations, to test the runner on. */
export function migrationsCopy(extra: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-migrations-'));
  fs.cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  for (const [name, sql] of Object.entries(extra)) writeMigration(dir, name, sql);
  return dir;
}

export function writeMigration(dir: string, name: string, sql: string): void {
  fs.mkdirSync(path.join(dir, name), { recursive: true });
  fs.writeFileSync(path.join(dir, name, 'migration.sql'), sql);
}

const run = promisify(execFile);

/** Runs a TypeScript fixture in its own Node process and parses the JSON it prints last. */
export async function runFixture<T>(fixture: string, args: string[], opts: { wasm?: boolean } = {}): Promise<T> {
  const flags = opts.wasm ? ['--disable-warning=ExperimentalWarning', '--experimental-wasm-modules'] : [];
  const { stdout } = await run(process.execPath, [...flags, '--import', 'tsx', path.join(__dirname, 'fixtures', fixture), ...args], {
    cwd: pkgDir,
    timeout: 60_000,
  });
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as T;
}
