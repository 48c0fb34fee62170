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

export const WASM_FLAGS = ['--disable-warning=ExperimentalWarning', '--experimental-wasm-modules'];

/** Runs a TypeScript file in its own Node process (under tsx); does not throw on a non-zero exit. */
export async function runTs(
  file: string,
  args: string[],
  opts: { wasm?: boolean } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const argv = [...(opts.wasm ? WASM_FLAGS : []), '--import', 'tsx', file, ...args];
  try {
    const { stdout, stderr } = await run(process.execPath, argv, { cwd: pkgDir, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Runs a fixture from ./fixtures and parses the JSON it prints last. */
export async function runFixture<T>(fixture: string, args: string[], opts: { wasm?: boolean } = {}): Promise<T> {
  const res = await runTs(path.join(__dirname, 'fixtures', fixture), args, opts);
  if (res.code !== 0) throw new Error(`${fixture} exited with ${res.code}: ${res.stderr}`);
  const lines = res.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as T;
}
