import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';
import type { Redis } from 'ioredis';
import { keyspace, type Keyspace } from '../keys';
import { pgExecutor, type SqlExecutor } from '../outbox';

/** The Redis the tests run against: REDIS_URL, else the local one. */
export const TEST_REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

// The same server as DATABASE_URL (local trust auth by default), but the `postgres` database,
// from which throwaway databases can be created and dropped.
function adminUrl(): string {
  const url = new URL(process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/chat');
  url.pathname = '/postgres';
  return url.toString();
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  url: string;
  pool: Pool;
  drop(): Promise<void>;
}

/**
 * A private database holding only the outbox table as the migrations create it, so these tests
 * need nothing from packages/db.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `bus_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = withDatabase(adminUrl(), name);
  const pool = new Pool({ connectionString: url, max: 8 });
  // drop() force-closes sessions that pool.end() may still be closing; without a listener the
  // resulting error on an idle client would be thrown from the pool.
  pool.on('error', () => undefined);
  await pool.query(`
    CREATE TABLE outbox (
      id BIGSERIAL PRIMARY KEY,
      realm_id INT NOT NULL,
      type TEXT NOT NULL,
      payload JSONB NOT NULL,
      created_at TIMESTAMP(3) NOT NULL DEFAULT now()
    )`);
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Runs `fn` in a transaction on its own connection, like prisma.$transaction. */
export async function inTransaction<T>(pool: Pool, fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(pgExecutor(client));
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}

/** A key space no other test file shares. */
export function testKeyspace(name: string, partitions = 4): Keyspace {
  return keyspace(`test:${name}:${randomBytes(4).toString('hex')}:`, { partitions });
}

export async function deleteKeys(redis: Redis, keys: Keyspace): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${keys.prefix}*`, 'COUNT', 1000);
    if (found.length > 0) await redis.del(...found);
    cursor = next;
  } while (cursor !== '0');
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface RawEntry {
  id: string;
  fields: Record<string, string>;
}

/** Everything in a stream, bypassing consumer groups. */
export async function readStream(redis: Redis, stream: string): Promise<RawEntry[]> {
  const entries = await redis.xrange(stream, '-', '+');
  return entries.map(([id, flat]) => {
    const fields: Record<string, string> = {};
    for (let i = 0; i < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
    return { id, fields };
  });
}
