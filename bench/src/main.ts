/**
 * `npm run bench [-- --quick] [-- --only sends,store,...] [-- --site URL]`: the cluster measured
 * through its gateway, against the store's own limit measured in the same run. See
 * docs/performance.md.
 *
 * Without --site it starts every service from the workspace on a scratch database and Redis
 * prefix with the production defaults and the rate limit off. With --site URL it measures a
 * running cluster; the site must run with RATE_LIMIT_PER_MINUTE=0 and the bench needs its
 * DATABASE_URL, REDIS_URL and REDIS_PREFIX (the realms, the API keys and the history are
 * written there) and --external-host.
 * BENCH_VARIANT=<name> with BENCH_SERVICE_ENV="KEY=value ..." runs the services with other
 * settings: a named variant, reported as such and written under its name, never the headline.
 * BENCH_PROFILE_DIR=<dir> runs the started services under --cpu-prof.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { createDb } from '@chat/db';
import { setupTestEnv, startCluster, type Cluster } from '@chat/testing';
import { runRedisBenchmark } from './baselines';
import { postgresServerCpuMs, redisCpuMs, type Measured } from './cpu';
import { loadCpuMs } from './workers';
import { measureWeb } from './web';
import { chart, figures, goals, markdown, printTable, type Measurements, type RunSettings } from './report';
import { createChannels, createRealm, createUsers } from './setup';
import { settle } from './settle';
import { runActive, runNarrow, runOnline, runRegister, runSends, runStore, type Plan, type Run } from './scenarios';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = flag('--quick');
/** `--only sends,online`: run some phases only (sends, store, redis, online, register, active, narrow, web). */
const only = option('--only')?.split(',');
const runs = (phase: string) => !only || only.includes(phase) || (phase === 'sends' && only.includes('store'));
// Every figure is the median of `runs` runs; latencies come from at least 2,000 samples.
const plan: Plan = quick
  ? {
      runs: 3, users: 250, fanouts: [10, 200], senders: 16, send: { seconds: 3, warmupSeconds: 1 }, pgSeconds: 3,
      online: { seconds: 3, warmupSeconds: 1 }, offered: 50, registerRounds: 20,
      big: { people: 2_000, channels: 5, size: 100, polls: 2_000, rate: 10, timing: { seconds: 3, warmupSeconds: 1 } },
      historyCopies: 300_000, narrowRounds: 20, redisRequests: 20_000, web: { logins: 3, switches: 12, longTopic: 2_000 },
    }
  : {
      runs: 3, users: 1000, fanouts: [10, 200], senders: 16, send: { seconds: 8, warmupSeconds: 2 }, pgSeconds: 5,
      online: { seconds: 10, warmupSeconds: 2 }, offered: 50, registerRounds: 667,
      big: { people: 10_000, channels: 20, size: 100, polls: 10_000, rate: 20, timing: { seconds: 10, warmupSeconds: 2 } },
      historyCopies: 10_000_000, narrowRounds: 667, redisRequests: 100_000, web: { logins: 9, switches: 40, longTopic: 10_000 },
    };

const loadavg = () => os.loadavg().map((v) => Math.round(v * 100) / 100);

/** The services' settings: production defaults with the rate limit off, or a named variant. */
function settingsOf(externalHost: string): RunSettings & { secrets: Record<string, string> } {
  const variant = process.env.BENCH_VARIANT;
  const extra = Object.fromEntries((process.env.BENCH_SERVICE_ENV ?? '').split(/\s+/).filter(Boolean).map((kv) => {
    const i = kv.indexOf('=');
    return [kv.slice(0, i), kv.slice(i + 1)];
  }));
  if (Object.keys(extra).length && !variant) throw new Error('BENCH_SERVICE_ENV needs BENCH_VARIANT=<name>: other settings are a named variant');
  // NODE_ENV and EXTERNAL_HOST are what a deployment sets; LOG_LEVEL is the services' own
  // default (the test harness would otherwise start them at 'warn').
  const env = { NODE_ENV: 'production', LOG_LEVEL: 'info', EXTERNAL_HOST: externalHost, RATE_LIMIT_PER_MINUTE: '0', ...extra };
  // A deployment's secrets, which production refuses to start without; not settings, so not in the report.
  return { ...(variant ? { variant } : {}), env, secrets: { IMAGE_PROXY_KEY: randomBytes(32).toString('hex') } };
}

async function main() {
  const started = Date.now();
  const root = path.resolve(__dirname, '../..');
  const siteUrl = option('--site');
  const loadBefore = loadavg();
  console.log(`bench ${quick ? '(quick) ' : ''}on ${os.cpus().length} cores, load ${loadBefore.join(' ')}`);

  let cluster: Cluster | undefined;
  let settings: RunSettings & { secrets?: Record<string, string> };
  let cleanup = async () => undefined as void;
  let db;
  let redisUrl: string;
  let redisPrefix: string;
  let url: string;
  /** Where each gateway serves /metrics (its METRICS_PORT): held long-polls are counted there. */
  let gatewayMetricsUrls: string[];
  let externalHost: string;
  let databaseUrl: string;
  if (siteUrl) {
    if (!process.env.DATABASE_URL || !process.env.REDIS_PREFIX) throw new Error('--site needs DATABASE_URL, REDIS_URL and REDIS_PREFIX of the site');
    db = createDb(process.env.DATABASE_URL);
    databaseUrl = process.env.DATABASE_URL;
    redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    redisPrefix = process.env.REDIS_PREFIX;
    url = siteUrl;
    gatewayMetricsUrls = (option('--gateway-metrics') ?? siteUrl).split(',');
    externalHost = option('--external-host') ?? new URL(siteUrl).host;
    settings = { ...(process.env.BENCH_VARIANT ? { variant: process.env.BENCH_VARIANT } : {}), env: { site: siteUrl } };
  } else {
    const env = await setupTestEnv();
    externalHost = 'bench.localhost';
    const profileDir = process.env.BENCH_PROFILE_DIR;
    const prof = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : undefined;
    settings = settingsOf(externalHost);
    console.log(`starting the cluster from the workspace: ${settings.variant ? `variant ${settings.variant}` : 'production defaults'}, ${JSON.stringify(settings.env)}`);
    cluster = await startCluster(env, {
      ...(process.env.BENCH_GATEWAYS ? { replicas: { gateway: Number(process.env.BENCH_GATEWAYS) } } : {}),
      env: { ...settings.env, ...settings.secrets },
      readyTimeoutMs: 180_000,
      nodeArgs: {
        ...(prof ? { messaging: prof, events: prof, users: prof, uploads: prof, push: prof } : {}),
        // BENCH_GATEWAY_NODE_ARGS: V8 options tried on the gateway (after SERVICE_NODE_ARGS, so they win).
        gateway: [...(prof ?? []), ...(process.env.BENCH_GATEWAY_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [])],
      },
    });
    db = env.db;
    databaseUrl = env.databaseUrl;
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

  const m: Measurements = { settings: { ...(settings.variant ? { variant: settings.variant } : {}), env: settings.env }, sends: [], store: [], redis: [], settled: [] };
  let stopMeter = () => undefined as void;
  try {
    console.log(`setting up a realm of ${plan.users} users through the API`);
    const { realm, site } = await createRealm(db, url, externalHost);
    const users = await createUsers(db, site, realm, plan.users);
    const channels = await createChannels(db, site, realm, users, plan.fanouts);

    // CPU per operation is read from /proc, so only for a cluster the bench started here: every
    // service process, every Postgres server process and Redis (the cluster), and apart from
    // them the bench's own load.
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
    const messaging = cluster?.processes.find((p) => p.service === 'messaging');
    const run: Run = {
      plan, db, site, realm, users, channels, redisUrl, redisPrefix, externalHost, url, measured,
      databaseUrl,
      messagingMetricsUrl: messaging?.metricsUrl ?? option('--messaging-metrics'),
      // With BENCH_GATEWAYS the polling processes go to the replicas straight, in turn.
      pollUrls: cluster && process.env.BENCH_GATEWAYS ? cluster.gateways.map((g) => g.url) : [url],
      gatewayMetricsUrls,
      // Each phase starts once the work earlier steps set off is done (settle.ts).
      settled: async (phase: string) => {
        m.settled!.push(await settle(db, redisUrl, redisPrefix, phase, siteUrl ? 60_000 : 300_000));
      },
    };
    if (runs('sends')) m.sends = await runSends(run);
    if (runs('store')) m.store = await runStore(run, m.sends);
    if (runs('redis')) {
      console.log('redis-benchmark: the commands of one delivery');
      m.redis = await runRedisBenchmark(redisUrl, redisPrefix, plan.redisRequests);
    }
    if (runs('online')) m.online = await runOnline(run);
    if (runs('register')) m.register = [{ key: '1k', runs: await runRegister(run, site, users[users.length - 1]!, realm.id) }];
    if (runs('active') || runs('register')) {
      const big = await runActive(run, runs('active'), runs('register'));
      if (big.register) (m.register ??= []).push({ key: '10k', runs: big.register });
      if (big.active) m.active = big.active;
    }
    if (runs('narrow')) m.narrow = await runNarrow(run);
    if (runs('web')) {
      console.log('the web app in Chromium: first load, login, channel switches, a long topic scrolled');
      await run.settled('web');
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
  const name = `${date}${settings.variant ? `-${settings.variant}` : ''}${quick ? '-quick' : ''}${only ? `-${only.join('-')}` : ''}`;
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
    date: new Date().toISOString(), quick, commit, settings: { variant: settings.variant, env: settings.env }, runs: plan.runs, site: siteUrl ?? 'workspace cluster', cores: os.cpus().length, node: process.version,
    load_before: loadBefore, load_after: loadavg(), seconds: Math.round((Date.now() - started) / 1000),
    figures: f, goals: g, raw: m,
  };
  writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(path.join(dir, `${name}.md`), markdown(f, g, settings));
  if (m.sends.length) writeFileSync(path.join(dir, `${name}.svg`), chart(m, `npm run bench ${quick ? '--quick ' : ''}${report.date.slice(0, 16)} (${commit}), ${os.cpus().length} cores`));
  console.log(`\nwrote bench/results/${name}.json, .md${m.sends.length ? ' and .svg' : ''} in ${report.seconds} s`);
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
