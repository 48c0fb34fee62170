/**
 * Long-poll benchmark: many clients hold GET /events on ONE gateway process at once while
 * messages flow through the real path (outbox -> relay -> stream -> events fan-out -> queue ->
 * wake -> gateway). Prints how many polls were held, the gateway's resident memory, and the
 * latency from commit to delivery.
 *
 *   node --import tsx bench/events-longpoll.ts   (runs services/events/bench/longpoll.ts)
 *
 * Knobs (environment): BENCH_CLIENTS (10000), BENCH_USERS (100), BENCH_RATE messages per second
 * (5), BENCH_SECONDS of sending (15), BENCH_CLIENT_THREADS (4). Uses the local Postgres and Redis (DATABASE_URL,
 * REDIS_URL) with a throwaway database and key prefix.
 */
import type { MessageObject } from '@chat/contracts';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Redis from 'ioredis';
import { recordEvent } from '@chat/bus';
import { createTestDatabase } from '@chat/db/testing';
import { doCreateRealm, doCreateUser } from '@chat/realm';
import { QueueStore } from '@chat/queues';
import { startService, type ServiceProcess } from '@chat/testing';
import type { ClientsReport } from './longpoll-clients';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10000);
const USERS = Number(process.env.BENCH_USERS ?? 100);
const RATE = Number(process.env.BENCH_RATE ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const THREADS = Number(process.env.BENCH_CLIENT_THREADS ?? 4);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Client {
  user: { id: number; auth: string };
  queueId: string;
  lastEventId: number;
}

/** Profiling hooks, e.g. BENCH_GATEWAY_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof". */
const nodeArgs = (name: string) => process.env[name]?.split(' ').filter(Boolean);

const rssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main() {
  const database = await createTestDatabase();
  const prefix = `bench:${randomBytes(4).toString('hex')}:`;
  const redis = new Redis(REDIS_URL);
  const env = {
    DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: prefix, INTERNAL_SECRET: 'bench-internal-secret-0123456789',
    LOG_LEVEL: 'error', NODE_ENV: 'production',
  };
  const procs: ServiceProcess[] = [];
  try {
    console.log(`setting up: ${USERS} users, ${CLIENTS} queues`);
    const realm = await doCreateRealm(database.db, { stringId: '', name: 'Bench' });
    const users: Client['user'][] = [];
    for (let i = 0; i < USERS; i++) {
      const u = await doCreateUser(database.db, { realmId: realm.id, email: `u${i}@bench.test`, fullName: `User ${i}` });
      users.push({ id: u.id, auth: `Basic ${Buffer.from(`${u.email}:${u.apiKey}`).toString('base64')}` });
    }
    const events = await startService('events', { ...env, STREAM_PARTITIONS: '4' }, { label: 'events-bench', nodeArgs: nodeArgs('BENCH_EVENTS_NODE_ARGS') });
    procs.push(events);
    const gateway = await startService('gateway', {
      ...env, EVENTS_URL: events.url, RATE_LIMIT_PER_MINUTE: '0', EVENTS_HEARTBEAT_SECONDS: '50', AUTH_CACHE_SECONDS: '600',
    }, { label: 'gateway-bench', nodeArgs: nodeArgs('BENCH_GATEWAY_NODE_ARGS') });
    procs.push(gateway);
    const gatewayPid = gateway.child.pid!;
    const idleRss = rssMb(gatewayPid);

    const store = new QueueStore(redis, prefix);
    const clients: Client[] = [];
    for (let start = 0; start < CLIENTS; start += 500) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(500, CLIENTS - start) }, async (_, j) => {
          const user = users[(start + j) % USERS]!;
          const queueId = await store.create({
            userId: user.id, realmId: realm.id, eventTypes: ['message'], narrow: [], allPublicStreams: false,
            clientCapabilities: {}, applyMarkdown: true, clientGravatar: true, idleTimeoutSecs: 600, clientName: 'bench',
          });
          return { user, queueId, lastEventId: -1 };
        }),
      );
      clients.push(...batch);
    }

    // The clients run on worker threads (BENCH_CLIENT_THREADS, default 4), so that the load
    // generator's own queueing is not measured as delivery latency.
    const threads = Array.from({ length: THREADS }, (_, t) => {
      const mine = clients.filter((_, i) => i % THREADS === t).map((c) => ({ auth: c.user.auth, queueId: c.queueId }));
      // A worker thread does not inherit the TypeScript loader: register it, then load the file.
      const worker = new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(path.join(__dirname, 'longpoll-clients.ts'))});`, {
        eval: true,
        workerData: { gatewayUrl: gateway.url, clients: mine, staggerMs: 20 * THREADS },
      });
      const thread = { worker, delivered: 0, report: undefined as Promise<ClientsReport> | undefined };
      worker.on('message', (m: { delivered?: number }) => {
        if (typeof m.delivered === 'number') thread.delivered = m.delivered;
      });
      worker.on('error', (err) => console.error('client thread failed:', err));
      return thread;
    });
    const delivered = () => threads.reduce((n, t) => n + t.delivered, 0);
    const stopClients = () =>
      Promise.all(
        threads.map(
          (t) =>
            new Promise<ClientsReport>((resolve) => {
              t.worker.on('message', (m: ClientsReport | { delivered: number }) => {
                if ('latencies' in m) resolve(m);
              });
              t.worker.postMessage('stop');
            }),
        ),
      );

    console.log(`opening ${CLIENTS} long-polls on one gateway (pid ${gatewayPid})`);
    const openStarted = Date.now();
    // Held means held by the gateway, waiting: issued requests may still sit in the accept
    // backlog, and an event sent then would be found by the poll, not woken into it.
    const waitingAtGateway = async () => {
      const text = await fetch(`${gateway.metricsUrl}/metrics`).then((r) => r.text(), () => '');
      return Number(/^gateway_longpolls_waiting(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? 0);
    };
    let held = 0;
    while ((held = await waitingAtGateway()) < CLIENTS && Date.now() - openStarted < 180000) {
      await new Promise((r) => setTimeout(r, 250));
    }
    const openSeconds = (Date.now() - openStarted) / 1000;
    console.log(`${held} long-polls held by the gateway after ${openSeconds.toFixed(1)} s`);
    const heldRss = rssMb(gatewayPid);
    const metricMb = async (name: string) => {
      const text = await fetch(`${gateway.metricsUrl}/metrics`).then((r) => r.text(), () => '');
      return Math.round(Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20);
    };
    const heldHeapUsed = await metricMb('nodejs_heap_size_used_bytes');
    const heldHeapTotal = await metricMb('nodejs_heap_size_total_bytes');

    // Commit -> append into the queue, seen as the wake-up PUBLISH the append makes.
    const userOfQueue = new Map(clients.map((c) => [c.queueId, c.user.id]));
    const lastSentTo = new Map<number, number>();
    const appendLatencies: number[] = [];
    const watcher = new Redis(REDIS_URL);
    await watcher.psubscribe(`${prefix}wake:*`);
    watcher.on('pmessage', (_p: string, channel: string) => {
      const sentAt = lastSentTo.get(userOfQueue.get(channel.slice(`${prefix}wake:`.length)) ?? -1);
      if (sentAt) appendLatencies.push(Date.now() - sentAt);
    });

    let sent = 0;
    let expected = 0;
    const send = async () => {
      const to = users[sent % USERS]!;
      sent++;
      expected += Math.ceil(CLIENTS / USERS);
      lastSentTo.set(to.id, Date.now());
      const message: MessageObject = {
        id: sent, type: 'private', sender_id: to.id, sender_full_name: '', sender_email: '', sender_realm_str: '', avatar_url: null, client: 'bench',
        content: '<p>bench</p>', content_type: 'text/html', display_recipient: [], is_me_message: false, reactions: [], recipient_id: 0,
        subject: '', topic_links: [], submessages: [], timestamp: Math.floor(Date.now() / 1000), sent_at: Date.now(),
      };
      // Routing as the messaging service records it for a direct message.
      await database.db.$transaction((tx) =>
        recordEvent(tx, { realmId: realm.id, type: 'message', users: [to.id], event: { type: 'message', message }, routing: { stream_id: null, public_stream: false, sender_id: to.id, sender_gravatar: false, user_flags: {}, raw_content: 'bench', topic: '' } }),
      );
    };
    const waitForDeliveries = async (ms: number) => {
      const until = Date.now() + ms;
      while (delivered() < expected && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    };

    // Warm-up, not measured: one message to every user, so the fan-out has met every queue
    // (registrations cached) and every process has compiled its hot paths, as in a running
    // cluster; the first event a queue ever gets costs one more Redis round trip.
    console.log(`warming up: one message to each of ${USERS} users`);
    for (let i = 0; i < USERS; i++) {
      await send();
      await new Promise((r) => setTimeout(r, 50));
    }
    await waitForDeliveries(10000);
    const warmUp = { sent, expected };
    appendLatencies.length = 0;
    for (const t of threads) t.worker.postMessage('measure');

    console.log(`sending ${RATE} messages/s for ${SECONDS}s, each to every queue of one user`);
    let peakRss = heldRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(gatewayPid))), 250);
    const measureStarted = Date.now();
    while (Date.now() - measureStarted < SECONDS * 1000) {
      const tick = Date.now();
      const due = warmUp.sent + Math.floor(((tick - measureStarted) / 1000) * RATE) + 1;
      while (sent < due) await send();
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 / RATE - (Date.now() - tick))));
    }
    await waitForDeliveries(10000);
    clearInterval(sampler);
    watcher.disconnect();
    appendLatencies.sort((a, b) => a - b);
    const reports = await stopClients();
    await Promise.all(threads.map((t) => t.worker.terminate()));
    const latencies = reports.flatMap((r) => r.latencies);
    const errorSamples = new Map<string, number>();
    for (const r of reports) for (const [k, n] of Object.entries(r.errors)) errorSamples.set(k, (errorSamples.get(k) ?? 0) + n);
    const errorsSeen = [...errorSamples.values()].reduce((a, b) => a + b, 0);

    // Where the time goes: commit -> stream entry (relay), from the entries' own timestamps.
    const relay: number[] = [];
    for (let p = 0; p < 4; p++) {
      const entries = (await redis.xrange(`${prefix}{s:${p}}:events`, '-', '+')) as Array<[string, string[]]>;
      for (const [id, fields] of entries) {
        const payload = JSON.parse(fields[fields.indexOf('payload') + 1]!) as { event: { message?: { sent_at?: number } } };
        const sentAt = payload.event.message?.sent_at;
        if (sentAt && sentAt >= measureStarted) relay.push(Number(id.split('-')[0]) - sentAt);
      }
    }
    relay.sort((a, b) => a - b);
    const sorted = [...latencies].sort((a, b) => a - b);
    const figures = {
      long_polls_held: held,
      seconds_to_hold_all: Number(openSeconds.toFixed(1)),
      gateway_rss_mb_idle: Math.round(idleRss),
      gateway_rss_mb_holding: Math.round(heldRss),
      gateway_rss_mb_peak_while_sending: Math.round(peakRss),
      gateway_heap_mb_used_holding: heldHeapUsed,
      gateway_heap_mb_total_holding: heldHeapTotal,
      messages_sent: sent - warmUp.sent,
      deliveries_expected: expected - warmUp.expected,
      deliveries_received: latencies.length,
      latency_ms_p50: percentile(sorted, 50),
      latency_ms_p95: percentile(sorted, 95),
      latency_ms_p99: percentile(sorted, 99),
      latency_ms_max: sorted[sorted.length - 1] ?? NaN,
      relay_ms_p50: percentile(relay, 50),
      relay_ms_p99: percentile(relay, 99),
      appends_seen: appendLatencies.length,
      appended_ms_p50: percentile(appendLatencies, 50),
      appended_ms_p99: percentile(appendLatencies, 99),
      client_errors: errorsSeen,
      client_threads: THREADS,
      client_loop_lag_ms_p99: Math.max(...reports.map((r) => r.loopLagP99Ms)),
      // Figures are only meaningful on an otherwise idle machine: say how busy it was.
      cpus: os.cpus().length,
      load_average_1m: Number(os.loadavg()[0]!.toFixed(2)),
    };
    console.log(JSON.stringify(figures, null, 2));
    if (errorSamples.size) console.log('client errors by kind:', Object.fromEntries(errorSamples));
    const ok = held >= CLIENTS && peakRss < 300 && figures.latency_ms_p99 <= 50 && latencies.length >= expected - warmUp.expected;
    console.log(`${ok ? 'PASS' : 'MISS'}: ${held} held (target ${CLIENTS}), peak RSS ${Math.round(peakRss)} MB (target < 300), p99 ${figures.latency_ms_p99} ms (target <= 50)`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    const keys = await redis.keys(`${prefix}*`);
    for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000));
    redis.disconnect();
    await database.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
