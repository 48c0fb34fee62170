// Offline migration runner: applies prisma/migrations/<timestamp>_<name>/migration.sql in name
// order and records them in `_prisma_migrations` exactly as Prisma Migrate does, so that
// `prisma migrate deploy` (where the native engine exists) accepts a database migrated here and
// vice versa. Why we run our own: docs/adr/0001-offline-migrations.md.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { databaseUrl, redactUrl } from './url';

export const MIGRATIONS_DIR = path.resolve(__dirname, '..', 'prisma', 'migrations');

/**
 * The advisory lock key Prisma Migrate itself takes, so this runner and a `prisma migrate
 * deploy` against the same database also exclude each other. Advisory locks are per database.
 */
export const MIGRATION_LOCK_KEY = 72707369;

/** Prisma's own DDL for the history table (schema-engine, postgres flavour), verbatim. */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);`;

export interface Migration {
  /** Folder name, e.g. `20250101120000_init`; also the `migration_name` recorded. */
  name: string;
  sql: string;
  /** sha256 hex of migration.sql, as Prisma records it. */
  checksum: string;
}

export interface MigrateOptions {
  migrationsDir?: string;
  log?: (line: string) => void;
  /** How long to wait for another process that is migrating the same database. */
  lockTimeoutMs?: number;
}

export interface MigrateResult {
  /** Migrations applied by this call, in order; empty when the database was up to date. */
  applied: string[];
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Reads the migration folders in the order they are applied (by name, like Prisma). */
export function readMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const file = path.join(dir, name, 'migration.sql');
      // A folder without its script is a half-written migration: applying the rest around it
      // would record a history that Prisma then disagrees with.
      if (!fs.existsSync(file)) throw new Error(`migration folder ${name} has no migration.sql`);
      const sql = fs.readFileSync(file, 'utf8');
      return { name, sql, checksum: sha256(sql) };
    });
}

/** Hash over all migration names and checksums: names one migrated state (test templates). */
export function migrationsHash(dir: string = MIGRATIONS_DIR): string {
  const h = createHash('sha256');
  for (const m of readMigrations(dir)) h.update(`${m.name}\n${m.checksum}\n`);
  return h.digest('hex');
}

/** Prisma also accepts a checksum taken before git changed the file's line endings. */
function checksumMatches(sql: string, recorded: string): boolean {
  return [sql, sql.replace(/\r\n/g, '\n'), sql.replace(/\r?\n/g, '\r\n')].some((s) => sha256(s) === recorded);
}

interface HistoryRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Applies the pending migrations to the database at `url`, each in its own transaction, under
 * an advisory lock: when many replicas start at once, one migrates and the others wait, then
 * find nothing to do. Refuses to run when an applied migration's file has changed or when the
 * history holds a failed migration (Prisma's P3009), since both need a human decision.
 */
export async function migrateDatabase(url: string = databaseUrl(), opts: MigrateOptions = {}): Promise<MigrateResult> {
  const log = opts.log ?? (() => undefined);
  const migrations = readMigrations(opts.migrationsDir ?? MIGRATIONS_DIR);
  const client = new Client({ connectionString: url, application_name: 'chat-migrate' });
  await client.connect();
  try {
    await client.query(`SET lock_timeout = ${Math.max(1, Math.floor(opts.lockTimeoutMs ?? 600_000))}`);
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    // The timeout was for the wait above only; migrations may legitimately queue behind traffic.
    await client.query('RESET lock_timeout');
    try {
      return await applyPending(client, migrations, log);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } catch (err) {
    if ((err as { code?: string }).code === '55P03') {
      throw new Error(`timed out waiting for the migration lock on ${redactUrl(url)}`, { cause: err });
    }
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function applyPending(client: Client, migrations: Migration[], log: (line: string) => void): Promise<MigrateResult> {
  const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS t`);
  if (!exists.rows[0]?.t) await client.query(CREATE_MIGRATIONS_TABLE);

  const history = (
    await client.query<HistoryRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY started_at',
    )
  ).rows;
  const failed = history.filter((r) => !r.finished_at && !r.rolled_back_at);
  if (failed.length) {
    throw new Error(
      `migration ${failed.map((r) => r.migration_name).join(', ')} failed earlier and was never resolved; ` +
        'fix the database by hand and mark it with `prisma migrate resolve` (or delete its _prisma_migrations row)',
    );
  }

  const local = new Map(migrations.map((m) => [m.name, m]));
  const applied = new Set<string>();
  const changed: string[] = [];
  for (const row of history) {
    if (row.rolled_back_at) continue; // Prisma ignores rolled-back attempts
    applied.add(row.migration_name);
    const m = local.get(row.migration_name);
    if (!m) {
      // A newer release migrated this database while an older one starts (rolling deploy).
      log(`migration ${row.migration_name} is applied but not in this build; ignoring it`);
    } else if (!checksumMatches(m.sql, row.checksum)) {
      changed.push(m.name);
    }
  }
  if (changed.length) {
    throw new Error(
      `refusing to migrate: applied migration(s) ${changed.join(', ')} were edited after being applied ` +
        '(checksum mismatch); restore the original migration.sql and put the change in a new migration',
    );
  }

  const done: string[] = [];
  for (const m of migrations) {
    if (applied.has(m.name)) continue;
    log(`applying migration ${m.name}`);
    await client.query('BEGIN');
    try {
      const id = randomUUID();
      await client.query(
        'INSERT INTO _prisma_migrations (id, checksum, started_at, migration_name) VALUES ($1, $2, clock_timestamp(), $3)',
        [id, m.checksum, m.name],
      );
      // No parameters: pg then uses the simple query protocol, which runs a multi-statement script.
      await client.query(m.sql);
      await client.query(
        `UPDATE _prisma_migrations
            SET finished_at = clock_timestamp(), applied_steps_count = applied_steps_count + 1
          WHERE id = $1`,
        [id],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      // Rolled back as a whole, so unlike Prisma we leave no failed row behind: the database is
      // exactly as before and the next start can retry once the migration is fixed.
      throw new Error(`migration ${m.name} failed and was rolled back: ${(err as Error).message}`, { cause: err });
    }
    done.push(m.name);
  }
  if (!done.length) log('database schema is up to date');
  return { applied: done };
}
