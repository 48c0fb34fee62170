/** Applies pending migrations once (the k8s migration Job and docker-compose `migrate` run this). */
import { databaseUrl, ensureDatabase, migrateDatabase } from '@chat/db';

async function main(): Promise<void> {
  const url = databaseUrl();
  await ensureDatabase(url);
  const result = await migrateDatabase(url);
  console.log(JSON.stringify(result));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
