// The Prisma client over node-postgres. Prisma 7's `prisma-client` generator runs queries
// through a driver adapter (no native query engine), which is what works offline here.
import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from './generated/client';
import { databaseUrl } from './url';

export type Db = PrismaClient;
/** The client handed to `db.$transaction(async (tx) => ...)`. */
export type Tx = Prisma.TransactionClient;

export interface CreateDbOptions {
  /** Connections in this process's pool (the service's DATABASE_POOL_SIZE); default 10, pg's. */
  poolSize?: number;
}

export function createDb(url: string = databaseUrl(), opts: CreateDbOptions = {}): Db {
  const max = opts.poolSize ?? 10;
  const adapter = new PrismaPg({ connectionString: url, max });
  return new PrismaClient({ adapter });
}
