/**
 * What one sequential channel send costs the database: `npx tsx bench/send-transactions.ts`
 * starts the compiled cluster on a scratch database, sends SENDS (default 200) messages one after
 * another to a channel of ten, and prints the transactions Postgres committed per send (from
 * pg_stat_database, background work the sends cause included) beside the latency percentiles.
 * SENDERS=<n> sends from n people at once. A count, unlike a time, does not depend on how busy the machine is; nor, much, does the CPU time
 * each service spends per send (from /proc/<pid>/stat), printed beside it.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setupTestEnv, startCluster, type ClusterProcess } from '@chat/testing';
import { call } from './api';
import { cpuMsOf } from './cpu';
import { createChannels, createRealm, createUsers } from './setup';

// Backends report their counters at most about once a second and when idle: wait past that.
const STATS_SETTLE_MS = 12_000;
/** CPU so far of a cluster process or a Postgres backend (by pid), in milliseconds. */
const cpuMs = (proc: ClusterProcess | number) => cpuMsOf(typeof proc === 'number' ? proc : proc.child.pid);

async function main() {
  const profileDir = process.env.BENCH_PROFILE_DIR;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : undefined;
  const env = await setupTestEnv();
  const cluster = await startCluster(env, {
    env: {
      NODE_ENV: 'production', LOG_LEVEL: 'error', EXTERNAL_HOST: 'bench.localhost', RATE_LIMIT_PER_MINUTE: '0', AUTH_CACHE_SECONDS: '600',
      // Production refuses to start without the image proxy's key.
      IMAGE_PROXY_KEY: randomBytes(32).toString('hex'),
    },
    readyTimeoutMs: 180_000,
    nodeArgs: profile ? { gateway: profile, messaging: profile, events: profile, users: profile, uploads: profile, push: profile } : undefined,
  });
  try {
    const { realm, site } = await createRealm(env.db, cluster.url, 'bench.localhost');
    const users = await createUsers(env.db, site, realm, 12);
    const channel = (await createChannels(env.db, site, realm, users, [10])).get(10)!;
    const send = (i: number, from = users[0]!) => call(site, from.auth, 'POST', '/messages', { type: 'stream', to: channel, topic: 'bench', content: `hello ${i}` });
    // SENDERS=16: that many people send at once (of the channel's ten, in turn), as the bench's cells do.
    const senders = Math.max(1, Number(process.env.SENDERS ?? 1));
    // The first sends start the topic and warm the caches; they are not counted.
    for (let i = 0; i < 20; i++) await send(i);
    const counters = async () => {
      await new Promise((r) => setTimeout(r, STATS_SETTLE_MS));
      const [row] = await env.db.$queryRawUnsafe<Array<{ commits: bigint }>>(
        'SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()',
      );
      return Number(row!.commits);
    };
    const n = Number(process.env.SENDS ?? 200);
    // What each process spends idle (timers, heartbeats, blocking reads) is taken off its figure.
    const idleStart = cluster.processes.map(cpuMs);
    const idleMs = 5000;
    await new Promise((r) => setTimeout(r, idleMs));
    const idlePerMs = cluster.processes.map((p, i) => (cpuMs(p) - idleStart[i]!) / idleMs);
    const before = await counters();
    // The pools closed their idle connections while the counters settled: open them again (these
    // sends count for the transactions, not for the CPU or the latency).
    const warm = senders * 2;
    await Promise.all(Array.from({ length: warm }, (_, i) => send(n + i, users[i % 10]!)));
    // Postgres's backends serving this database (the pools hold them open through the run).
    const backends = (await env.db.$queryRawUnsafe<Array<{ pid: number }>>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    )).map((r) => r.pid);
    const pgBefore = backends.reduce((sum, pid) => sum + cpuMs(pid), 0);
    const cpuBefore = cluster.processes.map(cpuMs);
    const sendsStarted = Date.now();
    const latencies: number[] = [];
    let next = 0;
    await Promise.all(Array.from({ length: senders }, async (_, s) => {
      for (let i = next++; i < n; i = next++) {
        const a = await send(i, users[s % 10]!);
        if (a.body.result !== 'success') throw new Error(`send failed: ${JSON.stringify(a.body)}`);
        latencies.push(a.ms);
      }
    }));
    const cpuAfter = cluster.processes.map(cpuMs);
    const pgAfter = backends.reduce((sum, pid) => sum + cpuMs(pid), 0);
    const sendsMs = Date.now() - sendsStarted;
    const after = await counters();
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(1);
    console.log(`${n} sends by ${senders} at once: ${((after - before) / (n + warm)).toFixed(1)} transactions per send; ${(n / (sendsMs / 1000)).toFixed(1)} msg/s; latency p50 ${pct(0.5)} ms, p90 ${pct(0.9)} ms`);
    const perSend = cluster.processes.map((p, i) => `${p.label} ${((cpuAfter[i]! - cpuBefore[i]! - idlePerMs[i]! * sendsMs) / n).toFixed(2)}`);
    console.log(`CPU ms per send (idle use taken off): ${perSend.join(', ')}, postgres ${((pgAfter - pgBefore) / n).toFixed(2)} (${backends.length} backends)`);
  } finally {
    await cluster.stop();
    await env.close();
  }
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
