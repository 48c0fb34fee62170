/**
 * The local cluster behind `npm start`: migrates the database, seeds the development realm on
 * first run, writes a zuliprc per user, starts the six compiled services as separate processes and
 * stops them all on Ctrl-C.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_NODE_ARGS } from '@chat/contracts';
import { createDb } from '@chat/db';
import { developmentPassword, ensureDevelopmentPasswords } from './accounts';
import { developmentSecret, prepareDevelopmentDatabase } from './prepare';
import { seedChannels } from './seed';

const root = path.resolve(__dirname, '../..');
const dataDir = path.join(root, '.data');
const host = process.env.HOST ?? '127.0.0.1';
const gatewayPort = Number(process.env.GATEWAY_PORT ?? 9991);
const externalHost = process.env.EXTERNAL_HOST ?? `${host}:${gatewayPort}`;
const site = `http://${externalHost}`;

const SERVICES = [
  { name: 'messaging', port: 9101 },
  { name: 'users', port: 9102 },
  { name: 'events', port: 9103 },
  { name: 'uploads', port: 9104 },
  { name: 'push', port: 9105 },
  { name: 'gateway', port: gatewayPort },
] as const;

async function writeZuliprcs(databaseUrl: string): Promise<string> {
  const db = createDb(databaseUrl, { poolSize: 1 });
  try {
    const users = await db.user.findMany({ where: { realm: { stringId: '' }, isActive: true }, orderBy: { id: 'asc' } });
    const dir = path.join(dataDir, 'zuliprc');
    mkdirSync(dir, { recursive: true });
    for (const u of users) {
      const local = u.email.split('@')[0]!;
      writeFileSync(path.join(dir, `${local}.zuliprc`), `[api]\nemail=${u.email}\nkey=${u.apiKey}\nsite=${site}\n`, { mode: 0o600 });
    }
    return dir;
  } finally {
    await db.$disconnect();
  }
}

/** Channels are seeded through the running cluster; retried on the next start if interrupted. */
async function seedChannelsIfNone(databaseUrl: string, gateway: string): Promise<void> {
  const db = createDb(databaseUrl, { poolSize: 1 });
  try {
    const realm = await db.realm.findUnique({ where: { stringId: '' } });
    if (!realm || (await db.stream.count({ where: { realmId: realm.id } })) > 0) return;
    const users = await db.user.findMany({ where: { realmId: realm.id }, select: { id: true, email: true, apiKey: true, fullName: true, role: true } });
    await seedChannels(gateway, users);
    console.log('Seeded the development channels.');
  } finally {
    await db.$disconnect();
  }
}

async function waitReady(url: string, child: ChildProcess, name: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode} while starting`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not become ready at ${url}`);
}

async function main(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const databaseUrl = process.env.DATABASE_URL!;
  const seeded = await prepareDevelopmentDatabase(databaseUrl);
  if (seeded) console.log(`Seeded the development realm with ${seeded.length} users.`);
  const zuliprcDir = await writeZuliprcs(databaseUrl);

  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    INTERNAL_SECRET: developmentSecret(dataDir),
    EXTERNAL_HOST: externalHost,
    UPLOADS_DIR: process.env.UPLOADS_DIR ?? path.join(dataDir, 'uploads'),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // A bot under development runs on this machine: its service may be reached on loopback
    // (docs/integrations.md, Outgoing webhooks); production allows no private address by default.
    OUTGOING_WEBHOOK_ALLOWED_NETWORKS: process.env.OUTGOING_WEBHOOK_ALLOWED_NETWORKS ?? '127.0.0.0/8,::1/128',
    // The messaging service's inbound mail listener (docs/mail.md); only messaging reads it.
    INBOUND_SMTP_PORT: process.env.INBOUND_SMTP_PORT ?? '2525',
  };
  for (const s of SERVICES) if (s.name !== 'gateway') env[`${s.name.toUpperCase()}_URL`] = `http://${host}:${s.port}`;

  const children: Array<{ name: string; child: ChildProcess }> = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping services...');
    await Promise.all(
      children.map(({ child }) =>
        child.exitCode !== null ? undefined : new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill("SIGKILL"), 15000);
        }),
      ),
    );
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  for (const s of SERVICES) {
    // The compiled output (scripts/build.mjs, run by scripts/start.mjs), as production runs it.
    const child = spawn(process.execPath, [...SERVICE_NODE_ARGS[s.name], `services/${s.name}/dist/main.js`], {
      cwd: root,
      env: { ...env, PORT: String(s.port), HOST: host, SERVICE_NAME: s.name },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push({ name: s.name, child });
    child.on('exit', (code) => {
      if (!stopping) {
        console.error(`${s.name} exited unexpectedly (code ${code}); stopping the cluster.`);
        void stopAll(1);
      }
    });
    await waitReady(`http://${host}:${s.port}`, child, s.name);
  }
  await seedChannelsIfNone(databaseUrl, `http://${host}:${gatewayPort}`);
  const password = developmentPassword(dataDir);
  const accounts = await ensureDevelopmentPasswords(databaseUrl, password);
  console.log(`\nThe cluster is running. Open ${site}/ in a browser and sign in as one of:`);
  for (const a of accounts) console.log(`  ${a.email.padEnd(28)} ${a.role.padEnd(14)} ${a.fullName}`);
  console.log(`with the development password: ${password}`);
  console.log(`zuliprc files for the development users: ${zuliprcDir}`);
  console.log('Press Ctrl-C to stop.');
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
