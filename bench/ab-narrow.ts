/**
 * The bench's narrow phase for two builds of a service on one cluster and one history, in
 * turn, so that a busy machine weighs on both alike: `npx tsx bench/ab-narrow.ts`.
 *
 *   AB_BUILDS=.base,.new   services/<svc>/<dir>/main.js copied over dist/main.js, the process
 *                          restarted (copy each build's dist/main.js there first)
 *   AB_SERVICES=messaging  which services' builds are swapped
 *   AB_HISTORY=1000000 AB_ROUNDS=20 AB_CYCLES=3   (AB_HISTORY: user_messages rows, each message copied to its channel's members)
 *   AB_KEEP=1              keep the database (its URL is printed); AB_DATABASE_URL=<url> reuses it
 *   AB_PROFILE_DIR=<dir>   messaging and the gateway under --cpu-prof
 *
 * Prints each build's p50 per narrow and the CPU per fetch of messaging and the gateway.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { createDb } from '@chat/db';
import { setupTestEnv, startCluster, TEST_INTERNAL_SECRET } from '@chat/testing';
import { basicAuth, type Account, type Site } from './src/api';
import { loadHistory, measureNarrow, WARMUP_ROUNDS } from './src/narrow';
import { createChannels, createRealm, createUsers } from './src/setup';

const root = path.resolve(__dirname, '..');
/** CPU milliseconds a process has used (user + system), from /proc. */
const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const builds = (process.env.AB_BUILDS ?? '.base,.new').split(',');
const services = (process.env.AB_SERVICES ?? 'messaging').split(',');
const history = Number(process.env.AB_HISTORY ?? 1_000_000);
const rounds = Number(process.env.AB_ROUNDS ?? 20);
const cycles = Number(process.env.AB_CYCLES ?? 3);

/** AB_DATABASE_URL: a database an earlier run kept (AB_KEEP=1), with its realm and history. */
async function reuse(url: string) {
  const db = createDb(url);
  const prefix = `ab:${randomBytes(4).toString('hex')}:`;
  const env = { DATABASE_URL: url, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: prefix, INTERNAL_SECRET: TEST_INTERNAL_SECRET, LOG_LEVEL: 'silent', NODE_ENV: 'test' };
  const close = async () => {
    const redis = new Redis(env.REDIS_URL);
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== '0');
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await db.$disconnect();
  };
  return { db, env, databaseUrl: url, close };
}

async function main() {
  const env = process.env.AB_DATABASE_URL ? await reuse(process.env.AB_DATABASE_URL) : await setupTestEnv();
  const externalHost = 'bench.localhost';
  const prof = process.env.AB_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.AB_PROFILE_DIR}`] : undefined;
  const cluster = await startCluster(env, {
    // Production refuses to start without the image proxy's key.
    env: { NODE_ENV: 'production', LOG_LEVEL: 'error', EXTERNAL_HOST: externalHost, RATE_LIMIT_PER_MINUTE: '0', EVENTS_HEARTBEAT_SECONDS: '50', AUTH_CACHE_SECONDS: '600', IMAGE_PROXY_KEY: randomBytes(32).toString('hex') },
    readyTimeoutMs: 180_000,
    nodeArgs: prof ? { messaging: prof, gateway: prof } : undefined,
  });
  try {
    let site: Site;
    let viewer: Account;
    let channel: number;
    if (process.env.AB_DATABASE_URL) {
      const realm = await env.db.realm.findFirstOrThrow({ where: { stringId: { startsWith: 'bench' } } });
      site = { url: cluster.url, host: `${realm.stringId}.${externalHost}` };
      const u = await env.db.user.findFirstOrThrow({ where: { realmId: realm.id, email: { startsWith: 'u00000@' } } });
      viewer = { id: u.id, email: u.email, auth: basicAuth(u.email, u.apiKey) };
      channel = (await env.db.stream.findFirstOrThrow({ where: { realmId: realm.id, name: 'fanout 10' } })).id;
    } else {
      const made = await createRealm(env.db, cluster.url, externalHost);
      site = made.site;
      const users = await createUsers(env.db, site, made.realm, 60);
      const channels = await createChannels(env.db, site, made.realm, users, [10, 20, 30]);
      await loadHistory(env.db, made.realm.id, [...channels.values()], users.slice(0, 10).map((u) => u.id), history);
      viewer = users[0]!;
      channel = channels.get(10)!;
    }
    console.log(`database ${env.databaseUrl}`);
    const results: Record<string, Record<string, number[]>> = {};
    for (let c = 0; c < cycles; c++) {
      for (const b of builds) {
        for (const s of services) {
          copyFileSync(path.join(root, `services/${s}/${b}/main.js`), path.join(root, `services/${s}/dist/main.js`));
          const proc = cluster.processes.find((p) => p.service === s)!;
          await cluster.restart(proc);
        }
        console.log(`build ${b}`);
        const pids = ['messaging', 'gateway'].map((name) => cluster.processes.find((p) => p.service === name)!.child.pid!);
        const before = pids.map(cpuMs);
        const figures = await measureNarrow(site, viewer, channel, rounds);
        const used = pids.map((pid, i) => (cpuMs(pid) - before[i]!) / ((rounds + WARMUP_ROUNDS) * figures.length));
        console.log(`  cpu per request: messaging ${used[0]!.toFixed(1)} ms, gateway ${used[1]!.toFixed(1)} ms`);
        for (const f of figures) ((results[b] ??= {})[f.name] ??= []).push(f.p50);
        ((results[b] ??= {}).cpu_messaging ??= []).push(Math.round(used[0]! * 10) / 10);
        ((results[b] ??= {}).cpu_gateway ??= []).push(Math.round(used[1]! * 10) / 10);
      }
    }
    console.log(JSON.stringify(results));
  } finally {
    await cluster.stop();
    if (!process.env.AB_KEEP || process.env.AB_DATABASE_URL) await env.close();
  }
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
