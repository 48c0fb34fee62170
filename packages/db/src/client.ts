// The Prisma client over node-postgres. Prisma 7's `prisma-client` generator runs queries
// through a driver adapter (no native query engine), which is what works offline here.
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Prisma, PrismaClient } from './generated/client';
import { databaseUrl } from './url';

/** How long an interactive transaction may wait for a pooled connection, and may run. */
export const TRANSACTION_WAIT_MS = 10_000;
export const TRANSACTION_TIMEOUT_MS = 15_000;

export type Db = PrismaClient;
/** The client handed to `db.$transaction(async (tx) => ...)`. */
export type Tx = Prisma.TransactionClient;

export interface CreateDbOptions {
  /** Connections in this process's pool (the service's DATABASE_POOL_SIZE); default 10, pg's. */
  poolSize?: number;
}

/**
 * Idle connections are kept five minutes, not node-postgres's ten seconds: a connection carries
 * what Postgres learnt on it (its catalog caches, the named statements rawQuery prepared and
 * their plans), and one opened afresh pays for all of it again, on top of its own start. A
 * service whose reads come a few at a time, like register, otherwise found its pool emptied
 * between two of them and paid that on nearly every request. The pool's size still bounds the
 * connections held.
 */
const IDLE_CONNECTION_MS = 5 * 60_000;

const pools = new WeakMap<object, pg.Pool>();

export function createDb(url: string = databaseUrl(), opts: CreateDbOptions = {}): Db {
  const max = opts.poolSize ?? 10;
  // The pool is made here, not by the adapter, so that rawQuery can share it.
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: IDLE_CONNECTION_MS });
  // An idle connection that fails (the server restarted, an operator killed it) leaves the pool;
  // the next query opens a new one. Without a listener the error would end the process.
  pool.on('error', () => undefined);
  // Prisma gives up on an interactive transaction that waits 2 s for a connection or runs 5 s,
  // answering the request with a 500. A saturated host (a burst, a noisy neighbour, a test run
  // on two cores) reaches both without anything being wrong; waiting longer is the better answer,
  // and the gateway's upstream timeout still bounds what a client waits.
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }), transactionOptions: { maxWait: TRANSACTION_WAIT_MS, timeout: TRANSACTION_TIMEOUT_MS } });
  pools.set(db, pool);
  return db;
}

/**
 * Rows of one statement, sent straight to the pool under `db`: for the few statements on a hot
 * path (a send's read and write), where Prisma's handling of a raw query costs more CPU than
 * the statement does in Postgres. Values come back as node-postgres parses them (int4 as number,
 * json as objects, arrays as arrays; not timestamps without a zone, which it reads as local
 * time: select those as text or inside JSON). `name` makes it a prepared statement of each
 * connection (one name per SQL text). In a transaction, or on a client made elsewhere, it goes
 * through Prisma as before.
 */
export async function rawQuery<T>(db: Db | Tx, sql: string, params: unknown[], name?: string): Promise<T[]> {
  const pool = pools.get(db);
  if (!pool) return db.$queryRawUnsafe<T[]>(sql, ...params);
  // A named statement is parsed and analysed once per connection, not on every call.
  return (await pool.query({ name, text: sql, values: params })).rows as T[];
}

/**
 * Like rawQuery, each row as an array of its columns in the statement's order: node-postgres
 * then makes no object per row, about a fifth of reading a page of a thousand rows of fourteen
 * columns. Column names must be distinct: through Prisma (in a transaction) rows come back as
 * objects, whose values are taken in order.
 */
export async function rawArrays<T extends unknown[]>(db: Db | Tx, sql: string, params: unknown[], name?: string): Promise<T[]> {
  const pool = pools.get(db);
  if (!pool) return (await db.$queryRawUnsafe<Array<Record<string, unknown>>>(sql, ...params)).map((row) => Object.values(row) as T);
  return (await pool.query<T>({ name, text: sql, values: params, rowMode: 'array' })).rows;
}

