/**
 * What one sequential channel send costs the database: `npx tsx bench/send-transactions.ts`
 * starts the compiled cluster on a scratch database, sends SENDS (default 200) messages one after
 * another to a channel of ten, and prints the transactions Postgres committed per send (from
 * pg_stat_database, background work the sends cause included) beside the latency percentiles.
 * A count, unlike a time, does not depend on how busy the machine is.
 */
import { setupTestEnv, startCluster } from '@chat/testing';
import { call } from './api';
import { createChannels, createRealm, createUsers } from './setup';

// Backends report their counters at most about once a second and when idle: wait past that.
const STATS_SETTLE_MS = 12_000;

async function main() {
  const env = await setupTestEnv();
  const cluster = await startCluster(env, {
    env: { NODE_ENV: 'production', LOG_LEVEL: 'error', EXTERNAL_HOST: 'bench.localhost', RATE_LIMIT_PER_MINUTE: '0', AUTH_CACHE_SECONDS: '600' },
    readyTimeoutMs: 180_000,
  });
  try {
    const { realm, site } = await createRealm(env.db, cluster.url, 'bench.localhost');
    const users = await createUsers(env.db, site, realm, 12);
    const channel = (await createChannels(env.db, site, realm, users, [10])).get(10)!;
    const send = (i: number) => call(site, users[0]!.auth, 'POST', '/messages', { type: 'stream', to: channel, topic: 'bench', content: `hello ${i}` });
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
    const before = await counters();
    const latencies: number[] = [];
    for (let i = 0; i < n; i++) {
      const a = await send(i);
      if (a.body.result !== 'success') throw new Error(`send failed: ${JSON.stringify(a.body)}`);
      latencies.push(a.ms);
    }
    const after = await counters();
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(1);
    console.log(`${n} sequential sends: ${((after - before) / n).toFixed(1)} transactions per send; latency p50 ${pct(0.5)} ms, p90 ${pct(0.9)} ms`);
  } finally {
    await cluster.stop();
    await env.close();
  }
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
