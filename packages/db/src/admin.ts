// Creating and dropping whole databases. These statements cannot run inside the target
// database, so they go through a maintenance database on the same server.
import { Client } from 'pg';
import { databaseName, redactUrl, withDatabase } from './url';

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

const MAINTENANCE_DATABASES = ['postgres', 'template1'];

/** Runs fn with a connection to the server's maintenance database (`postgres`, else `template1`). */
export async function withMaintenanceClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  let lastError: unknown;
  for (const name of MAINTENANCE_DATABASES) {
    const client = new Client({ connectionString: withDatabase(url, name), application_name: 'chat-db-admin' });
    try {
      await client.connect();
    } catch (err) {
      lastError = err;
      await client.end().catch(() => undefined);
      if ((err as { code?: string }).code === '3D000') continue; // no such database: try the next one
      break;
    }
    try {
      return await fn(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw new Error(`cannot reach a maintenance database next to ${redactUrl(url)}: ${String(lastError)}`, {
    cause: lastError,
  });
}

function pgCode(err: unknown): string | undefined {
  return (err as { code?: string } | null)?.code;
}

/**
 * Creates the database named in `url` unless it exists. Several replicas may start at once,
 * so losing the race to another CREATE DATABASE counts as success. Returns whether this call
 * created it.
 */
export async function ensureDatabase(url: string, opts: { template?: string } = {}): Promise<boolean> {
  const name = databaseName(url);
  return withMaintenanceClient(url, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    const template = opts.template ? ` TEMPLATE ${quoteIdent(opts.template)}` : '';
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(name)}${template}`);
      return true;
    } catch (err) {
      // 42P04 duplicate_database; 23505 when both creators got past the catalog check together.
      if (pgCode(err) === '42P04' || pgCode(err) === '23505') return false;
      throw err;
    }
  });
}

/** Drops the database named in `url` if it exists, disconnecting its sessions (PostgreSQL 13+). */
export async function dropDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  await withMaintenanceClient(url, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  });
}
