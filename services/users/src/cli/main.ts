/**
 * The administrator's command line (`npm run manage -- <command>`): the same actions the API
 * uses, run against DATABASE_URL and REDIS_URL, after applying any pending migrations.
 */
import { createRedis } from '@chat/bus';
import { createDb, ensureDatabase, migrateDatabase } from '@chat/db';
import { readConfig } from '../config';
import { runCommand } from './commands';

async function main(): Promise<number> {
  const config = readConfig();
  await ensureDatabase(config.DATABASE_URL);
  await migrateDatabase(config.DATABASE_URL);
  const db = createDb(config.DATABASE_URL, { poolSize: 2 });
  const redis = createRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'manage', onError: () => undefined });
  try {
    return await runCommand({ db, redis, config }, process.argv.slice(2), console.log, console.error);
  } finally {
    redis.disconnect();
    await db.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
