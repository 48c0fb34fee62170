/**
 * `npm run bench [-- --quick] [-- --site URL]`: the cluster measured through its gateway, against
 * pgbench and redis-benchmark in the same run. See docs/performance.md.
 *
 * Without --site it starts every service from the workspace on a scratch database and Redis
 * prefix with the rate limit off. With --site URL it measures a running cluster; the site must
 * run with RATE_LIMIT_PER_MINUTE=0 and the bench needs its DATABASE_URL, REDIS_URL and
 * REDIS_PREFIX (the realm, the API keys and the history are written there) and --external-host.
 * BENCH_PROFILE_DIR=<dir> runs the started services under --cpu-prof.
 * BENCH_GATEWAY_NODE_ARGS="--max-semi-space-size=16" adds V8 options to the gateway's (they win over its defaults).
 * BENCH_GATEWAYS=2 starts that many gateway replicas; the delivery phase's polling processes
 * take turns among them, as a balancer in front would spread their connections.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { createDb } from '@chat/db';
import { createTestDatabase } from '@chat/db/testing';
import { setupTestEnv, startCluster, type Cluster } from '@chat/testing';
import { preparePgbench, runPgbench, runRedisBenchmark, type PgbenchFigure } from './baselines';
import { loadHistory, measureListings, measureNarrow } from './narrow';
import { postgresServerCpuMs, redisCpuMs, type Measured } from './cpu';
import { measureDelivery, measureRegister, measureSends, type Target } from './phases';
import { loadCpuMs } from './workers';
import { measureWeb } from './web';
import { chart, figures, goals, markdown, printTable, type Measurements } from './report';
import { createChannels, createRealm, createUsers } from './setup';
import { settle } from './settle';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = flag('--quick');
/** `--only sends,delivery`: run some phases only (sends, pgbench, redis, register, delivery, narrow, web). */
const only = option('--only')?.split(',');
const runs = (phase: string) => !only || only.includes(phase);
const plan = quick
  ? { users: 250, fanouts: [10, 200], concurrencies: [1, 16, 64], send: { seconds: 3, warmupSeconds: 1 }, pgSeconds: 3, polls: 1000, delivery: { seconds: 5, warmupSeconds: 1 }, registerRounds: 5, history: 100_000, narrowRounds: 5, redisRequests: 20_000, web: { logins: 3, switches: 12, longTopic: 2_000 } }
  : { users: 1000, fanouts: [10, 200, 1000], concurrencies: [1, 16, 64], send: { seconds: 8, warmupSeconds: 2 }, pgSeconds: 5, polls: 10_000, delivery: { seconds: 20, warmupSeconds: 2 }, registerRounds: 30, history: 1_000_000, narrowRounds: 50, redisRequests: 100_000, web: { logins: 9, switches: 40, longTopic: 10_000 } };
// BENCH_SEND_SECONDS: how long each send cell is measured, for A/B runs of one cell.
if (process.env.BENCH_SEND_SECONDS) plan.send.seconds = Number(process.env.BENCH_SEND_SECONDS);
const DELIVERY_RECIPIENTS = 200;
const DELIVERY_RATE = 10;

const loadavg = () => os.loadavg().map((v) => Math.round(v * 100) / 100);

/** Runs `work` with a scratch database of its own on the same Postgres (the machine probe's commits), dropped after. */
async function withScratchDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const scratch = await createTestDatabase();
  try {
    return await work(scratch.url);
  } finally {
    await scratch.drop();
  }
}

async function main() {
  const started = Date.now();
  const root = path.resolve(__dirname, '../..');
  const siteUrl = option('--site');
  const loadBefore = loadavg();
  console.log(`bench ${quick ? '(quick) ' : ''}on ${os.cpus().length} cores, load ${loadBefore.join(' ')}`);

  let cluster: Cluster | undefined;
  let cleanup = async () => undefined as void;
  let db;
  let redisUrl: string;
  let redisPrefix: string;
  let url: string;
  /** Where each gateway serves /metrics (its METRICS_PORT): held long-polls are counted there. */
  let gatewayMetricsUrls: string[];
  let externalHost: string;
  if (siteUrl) {
    if (!process.env.DATABASE_URL || !process.env.REDIS_PREFIX) throw new Error('--site needs DATABASE_URL, REDIS_URL and REDIS_PREFIX of the site');
    db = createDb(process.env.DATABASE_URL);
    redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    redisPrefix = process.env.REDIS_PREFIX;
    url = siteUrl;
    gatewayMetricsUrls = (option('--gateway-metrics') ?? siteUrl).split(',');
    externalHost = option('--external-host') ?? new URL(siteUrl).host;
  } else {
    const env = await setupTestEnv();
    externalHost = 'bench.localhost';
    const profileDir = process.env.BENCH_PROFILE_DIR;
    const prof = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : undefined;
    console.log('starting the cluster from the workspace');
    cluster = await startCluster(env, {
      ...(process.env.BENCH_GATEWAYS ? { replicas: { gateway: Number(process.env.BENCH_GATEWAYS) } } : {}),
      env: { NODE_ENV: 'production', LOG_LEVEL: 'error', EXTERNAL_HOST: externalHost, RATE_LIMIT_PER_MINUTE: '0', EVENTS_HEARTBEAT_SECONDS: '50', AUTH_CACHE_SECONDS: '600' },
      readyTimeoutMs: 180_000,
      nodeArgs: {
        ...(prof ? { messaging: prof, events: prof, users: prof, uploads: prof, push: prof } : {}),
        // BENCH_GATEWAY_NODE_ARGS: V8 options tried on the gateway (after SERVICE_NODE_ARGS, so they win).
        gateway: [...(prof ?? []), ...(process.env.BENCH_GATEWAY_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [])],
      },
    });
    db = env.db;
    redisUrl = env.redisUrl;
    redisPrefix = env.prefix;
    url = cluster.url;
    gatewayMetricsUrls = cluster.gateways.map((g) => g.metricsUrl);
    const c = cluster;
    cleanup = async () => {
      await c.stop();
      await env.close();
    };
  }

  const m: Measurements = { sends: [], pgbench: [], redis: [], settled: [] };
  let stopMeter = () => undefined as void;
  try {
    console.log(`setting up a realm of ${plan.users} users through the API`);
    const { realm, site } = await createRealm(db, url, externalHost);
    const users = await createUsers(db, site, realm, plan.users);
    const channels = await createChannels(db, site, realm, users, plan.fanouts);

    // CPU per operation is read from /proc, so only for a cluster the bench started here. Redis
    // and the bench's own load run on the same cores: with them the figures add up to all the
    // CPU an operation costs the machine.
    const redisMeter = cluster ? new Redis(redisUrl) : undefined;
    stopMeter = () => redisMeter?.disconnect();
    const measured = cluster
      ? async (): Promise<Measured[]> => [
          ...cluster!.processes.map((p) => ({ label: p.label, pid: p.child.pid })),
          { label: 'postgres', read: postgresServerCpuMs },
          { label: 'redis', read: () => redisCpuMs(redisMeter!) },
          { label: 'bench_load', read: loadCpuMs },
        ]
      : undefined;
    // Each phase starts once the work earlier steps set off is done (settle.ts).
    const settled = async (phase: string) => {
      m.settled!.push(await settle(db, redisUrl, redisPrefix, phase, siteUrl ? 60_000 : 300_000));
    };
    if (runs('sends')) {
      console.log('sends through the gateway');
      await settled('sends');
      const targets: Target[] = [...plan.fanouts, 'dm'];
      m.sends = await measureSends(site, users, channels, targets, plan.concurrencies, plan.send, measured);
    }
    if (runs('pgbench')) {
      console.log('pgbench: the SQL of one send');
      await settled('pgbench');
      const scratch = await createTestDatabase();
      try {
        const prepared = await preparePgbench(scratch.db, Math.max(...plan.fanouts));
        for (const subs of [2, ...plan.fanouts]) {
          for (const c of plan.concurrencies) m.pgbench.push(await runPgbench(scratch.url, prepared, subs, c, plan.pgSeconds) as PgbenchFigure);
        }
        for (const c of [16, 64]) m.pgbench.push(await runPgbench(scratch.url, prepared, 10, c, plan.pgSeconds, false));
      } finally {
        await scratch.drop();
      }
    }
    if (runs('redis')) {
      console.log('redis-benchmark: the commands of one delivery');
      m.redis = await runRedisBenchmark(redisUrl, redisPrefix, plan.redisRequests);
    }
    if (runs('register')) {
      console.log('register');
      await settled('register');
      const realmUsers = await db.user.count({ where: { realmId: realm.id, isActive: true } });
      m.register = await withScratchDatabase((probeUrl) =>
        measureRegister(site, users[users.length - 1]!, realmUsers, plan.registerRounds, measured, probeUrl));
    }
    if (runs('delivery')) {
      console.log('send -> delivery with every recipient long-polling');
      await settled('delivery');
      // With BENCH_GATEWAYS the polling processes go to the replicas straight, in turn.
      const pollUrls = cluster && process.env.BENCH_GATEWAYS ? cluster.gateways.map((g) => g.url) : [site.url];
      m.delivery = await withScratchDatabase((probeUrl) =>
        measureDelivery(site, pollUrls, gatewayMetricsUrls, redisUrl, redisPrefix, realm.id, users, channels.get(200)!, DELIVERY_RECIPIENTS, plan.polls, DELIVERY_RATE, plan.delivery, measured, probeUrl));
    }
    if (runs('narrow')) {
      console.log('narrowed fetches on a long history');
      const viewer = users[0]!;
      await loadHistory(db, realm.id, [...channels.values()], users.slice(0, 50).map((u) => u.id), viewer.id, plan.history);
      m.narrow = {
        messages: await db.message.count({ where: { realmId: realm.id } }),
        figures: await measureNarrow(site, viewer, channels.get(10)!, plan.narrowRounds),
        listings: await measureListings(site, viewer, plan.narrowRounds),
      };
    }
    if (runs('web')) {
      console.log('the web app in Chromium: first load, login, channel switches, a long topic scrolled');
      await settled('web');
      // Last, and on its own: a browser that cannot start or an app that does not draw must not
      // cost the run the figures the other phases measured. Its error goes in the report.
      try {
        m.web = await measureWeb(db, site, url, realm.id, realm.owner, users, plan.web);
      } catch (err) {
        console.error(`  the web phase failed: ${(err as Error).stack ?? err}`);
        m.webError = String((err as Error).message ?? err).slice(0, 2000);
        if (only?.length === 1) throw err;
      }
    }
  } catch (err) {
    for (const p of cluster?.processes ?? []) if (p.output().trim()) console.error(`--- ${p.label}:\n${p.output().slice(-3000)}`);
    throw err;
  } finally {
    stopMeter();
    await cleanup();
  }

  const f = figures(m);
  const g = goals(f);
  printTable(f, g);
  const date = new Date().toISOString().slice(0, 10);
  const name = `${date}${quick ? '-quick' : ''}${only ? `-${only.join('-')}` : ''}`;
  const dir = path.join(root, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const commit = (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
    } catch {
      return 'unknown';
    }
  })();
  const report = {
    date: new Date().toISOString(), quick, commit, site: siteUrl ?? 'workspace cluster', cores: os.cpus().length, node: process.version,
    load_before: loadBefore, load_after: loadavg(), seconds: Math.round((Date.now() - started) / 1000),
    figures: f, goals: g, raw: m,
  };
  writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(dir, `${name}.md`), markdown(f, g));
  if (m.sends.length) writeFileSync(path.join(dir, `${name}.svg`), chart(m, `npm run bench ${quick ? '--quick ' : ''}${report.date.slice(0, 16)} (${commit}), ${os.cpus().length} cores`));
  console.log(`\nwrote bench/results/${name}.json, .md and .svg in ${report.seconds} s`);
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
