// @chat/db: the Prisma client, its types, and database setup (create + migrate).
// The client in ./generated is produced by `node packages/db/scripts/generate.mjs`.
export { createDb, rawArrays, rawQuery } from './client';
export type { CreateDbOptions, Db, Tx } from './client';
export * from './generated/client';
export { databaseUrl, DEFAULT_DATABASE_URL, redactUrl, withDatabase, withGenericPlans, withShortQuerySettings } from './url';
export { dropDatabase, ensureDatabase } from './admin';
export { migrateDatabase, readMigrations, migrationsHash, MIGRATIONS_DIR } from './migrate';
export type { MigrateOptions, MigrateResult, Migration } from './migrate';
export { rowFromJson, type JsonRowModels } from './rows';
