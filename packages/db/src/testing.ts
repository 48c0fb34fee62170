// A fresh, migrated database per jest test file (import from '@chat/db/testing').
//
// Migrating from scratch for every file would dominate test time, so the migrations are applied
// once to a template database whose name carries a hash of the migration set, and every test
// database is a `CREATE DATABASE ... TEMPLATE` copy of it (a file-level copy, milliseconds).
// Parallel jest workers, and parallel runs from different checkouts, share the server: the
// template is built under an advisory lock and marked ready only once fully migrated.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { quoteIdent, withMaintenanceClient } from './admin';
import { createDb, type Db } from './client';
import { MIGRATIONS_DIR, migrateDatabase, migrationsHash } from './migrate';
import { databaseUrl, withDatabase } from './url';

export interface TestDatabase {
  url: string;
  db: Db;
  /** Disconnects the client and drops the database. */
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Server and credentials to use; default TEST_DATABASE_URL, else DATABASE_URL / the local default. */
  serverUrl?: string;
  migrationsDir?: string;
  poolSize?: number;
}

/** Test databases are `t_<unix seconds>_<random>`: recognisable, and their age is in the name. */
const TEST_DB_PATTERN = /^t_(\d+)_[0-9a-f]+$/;
const TEMPLATE_PREFIX = 'tmpl_chat_';
/** Arbitrary key, distinct from the migration lock, serialising template builds on a server. */
const TEMPLATE_LOCK_KEY = 727073690;
const STALE_AFTER_MS = 60 * 60 * 1000;

const templates = new Map<string, Promise<string>>();
let cleanedUp = false;

function serverUrlOf(opts: TestDatabaseOptions): string {
  return opts.serverUrl ?? process.env.TEST_DATABASE_URL ?? databaseUrl();
}

/** Name of the template database for a migration set. */
export function templateName(migrationsDir: string = MIGRATIONS_DIR): string {
  return `${TEMPLATE_PREFIX}${migrationsHash(migrationsDir).slice(0, 16)}`;
}

async function isReadyTemplate(client: Client, name: string): Promise<boolean> {
  const r = await client.query('SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate', [name]);
  return r.rowCount === 1;
}

async function buildTemplate(serverUrl: string, migrationsDir: string): Promise<string> {
  const name = templateName(migrationsDir);
  await withMaintenanceClient(serverUrl, async (client) => {
    if (await isReadyTemplate(client, name)) return;
    await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      if (await isReadyTemplate(client, name)) return; // another worker built it while we waited
      // Left half-migrated by a crashed run: it was never marked as a template, so rebuild it.
      await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
      await migrateDatabase(withDatabase(serverUrl, name), { migrationsDir });
      // IS_TEMPLATE doubles as the "ready" marker; refusing connections keeps stray sessions
      // from blocking the copies (CREATE DATABASE fails while the template has sessions).
      await client.query(`ALTER DATABASE ${quoteIdent(name)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
  });
  return name;
}

function ensureTemplate(serverUrl: string, migrationsDir: string): Promise<string> {
  const key = `${serverUrl}\n${migrationsDir}\n${migrationsHash(migrationsDir)}`;
  let p = templates.get(key);
  if (!p) {
    p = buildTemplate(serverUrl, migrationsDir);
    p.catch(() => templates.delete(key)); // let a later call retry
    templates.set(key, p);
  }
  return p;
}

async function cloneTemplate(serverUrl: string, template: string, name: string): Promise<void> {
  await withMaintenanceClient(serverUrl, async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`);
        return;
      } catch (err) {
        // 55006: the template is briefly "being accessed by other users" (e.g. another clone).
        if ((err as { code?: string }).code !== '55006' || attempt >= 50) throw err;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
      }
    }
  });
}

/** Creates an isolated, fully migrated database for one test file. */
export async function createTestDatabase(opts: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = serverUrlOf(opts);
  const migrationsDir = opts.migrationsDir ?? MIGRATIONS_DIR;
  if (!cleanedUp) {
    cleanedUp = true;
    await dropStaleTestDatabases({ serverUrl }).catch(() => undefined); // housekeeping only
  }
  const template = await ensureTemplate(serverUrl, migrationsDir);
  const name = `t_${Math.floor(Date.now() / 1000)}_${randomBytes(6).toString('hex')}`;
  await cloneTemplate(serverUrl, template, name);
  const url = withDatabase(serverUrl, name);
  const db = createDb(url, { poolSize: opts.poolSize ?? 4 });
  let dropped = false;
  return {
    url,
    db,
    async drop() {
      if (dropped) return;
      dropped = true;
      await db.$disconnect();
      await withMaintenanceClient(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
    },
  };
}

/**
 * Drops test databases left behind by killed runs (older than an hour by default). With
 * `templates: true` it also drops every test template, e.g. after many migration changes.
 * Returns the names dropped.
 */
export async function dropStaleTestDatabases(
  opts: { serverUrl?: string; olderThanMs?: number; templates?: boolean } = {},
): Promise<string[]> {
  const cutoff = (Date.now() - (opts.olderThanMs ?? STALE_AFTER_MS)) / 1000;
  return withMaintenanceClient(serverUrlOf(opts), async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 't\\_%' OR datname LIKE $1`,
      [`${TEMPLATE_PREFIX.replace(/_/g, '\\_')}%`],
    );
    const dropped: string[] = [];
    for (const { datname } of rows) {
      const m = TEST_DB_PATTERN.exec(datname);
      const stale = m ? Number(m[1]) < cutoff : opts.templates === true && datname.startsWith(TEMPLATE_PREFIX);
      if (!stale) continue;
      try {
        if (!m) await client.query(`ALTER DATABASE ${quoteIdent(datname)} WITH IS_TEMPLATE false`);
        await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`);
        dropped.push(datname);
      } catch {
        // Another worker is dropping the same leftovers at this moment; let it.
      }
    }
    return dropped;
  });
}
