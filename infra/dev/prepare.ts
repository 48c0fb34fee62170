/** What `npm start` (cluster.ts) and `npm run cluster` (replicated.ts) both do before starting services. */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDb, ensureDatabase, migrateDatabase } from '@chat/db';
import { seedDevelopmentRealm, type SeededUser } from './seed';

/** Creates and migrates the database, then seeds the development realm on first start (null after). */
export async function prepareDevelopmentDatabase(databaseUrl: string): Promise<SeededUser[] | null> {
  await ensureDatabase(databaseUrl);
  await migrateDatabase(databaseUrl);
  const db = createDb(databaseUrl, { poolSize: 2 });
  try {
    return await seedDevelopmentRealm(db, 'chat.example.com');
  } finally {
    await db.$disconnect();
  }
}

/** INTERNAL_SECRET, or one made once and kept in `dataDir`, so a restarted cluster signs as before. */
export function developmentSecret(dataDir: string): string {
  if (process.env.INTERNAL_SECRET) return process.env.INTERNAL_SECRET;
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'internal-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}
