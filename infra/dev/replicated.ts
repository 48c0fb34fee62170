/**
 * `npm run cluster`: the development realm served by two replicas of every service, compiled,
 * with nginx in front of each service's replicas and of the gateways (http://127.0.0.1:9991).
 * Ctrl-C stops everything.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startCluster } from '@chat/testing';
import { developmentPassword, ensureDevelopmentPasswords } from './accounts';
import { developmentSecret, prepareDevelopmentDatabase } from './prepare';

const root = path.resolve(__dirname, '../..');
const dataDir = path.join(root, '.data');
const port = Number(process.env.GATEWAY_PORT ?? 9991);
const replicas = Number(process.env.CLUSTER_REPLICAS ?? 2);

async function main(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const databaseUrl = process.env.DATABASE_URL!;
  await prepareDevelopmentDatabase(databaseUrl);
  const all = Object.fromEntries(['gateway', 'messaging', 'users', 'events', 'uploads', 'push'].map((s) => [s, replicas]));
  const cluster = await startCluster(
    {
      env: {
        DATABASE_URL: databaseUrl,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        INTERNAL_SECRET: developmentSecret(dataDir),
        EXTERNAL_HOST: process.env.EXTERNAL_HOST ?? `127.0.0.1:${port}`,
        UPLOADS_DIR: process.env.UPLOADS_DIR ?? path.join(dataDir, 'uploads'),
        RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE ?? '200',
      },
    },
    { replicas: all, balance: true, publicPort: port },
  );
  console.log(`${replicas} replicas of every service behind nginx. Gateway: ${cluster.url}`);
  for (const p of cluster.processes) console.log(`  ${p.service.padEnd(10)} ${p.url}  metrics ${p.metricsUrl}/metrics`);
  const password = developmentPassword(dataDir);
  const accounts = await ensureDevelopmentPasswords(databaseUrl, password);
  console.log(`Open ${cluster.url}/ in a browser and sign in as one of:`);
  for (const a of accounts) console.log(`  ${a.email.padEnd(28)} ${a.role.padEnd(14)} ${a.fullName}`);
  console.log(`with the development password: ${password}`);
  console.log('Press Ctrl-C to stop.');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping...');
    void cluster.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
