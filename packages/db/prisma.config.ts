// Prisma CLI configuration. The CLI is only used for `prisma generate` here (see
// scripts/generate.mjs); migrations are created and applied without the native engine, but
// the paths stay where `prisma migrate deploy` expects them so it works wherever that engine exists.
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { DEFAULT_DATABASE_URL } from './src/url';

export default defineConfig({
  schema: path.join(__dirname, 'prisma', 'schema'),
  migrations: { path: path.join(__dirname, 'prisma', 'migrations') },
  datasource: { url: process.env.DATABASE_URL || DEFAULT_DATABASE_URL },
});
