/**
 * What the push and uploads consumers spend on message events they have nothing to do for:
 * `npx tsx bench/consumers-cpu.ts`. Starts both services from their compiled bundles on a
 * scratch database, appends channel messages to the streams as the relay does (`publishRows`,
 * payloads shaped and sized like messaging's, printed by Postgres's jsonb) at a steady rate, and
 * reads each process's CPU time from /proc until both groups have acknowledged every entry.
 * No one receiving them has a push device or links an upload; CONSUMERS_HOLDER=1 registers a
 * device for someone else of the realm, so that push cannot skip the realm as a whole.
 *
 *   AB_BUILDS=/tmp/a,/tmp/b  directories holding push.js and uploads.js (copies of each build's
 *                            dist/main.js), copied over dist/main.js in turn; default: dist as is.
 *                            The copies are newer than the sources: `npm run build` afterwards.
 *   AB_CYCLES=2 CONSUMERS_RATE=250 CONSUMERS_EVENTS=1500 CONSUMERS_FANOUTS=10,200,1000
 *   CONSUMERS_PROFILE_DIR=<dir>  both services under --cpu-prof
 *   CONSUMERS_NODE_ARGS="--trace-gc"  more node flags for both; CONSUMERS_SHOW_OUTPUT=1 prints their output
 */
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { keyspace, publishRows } from '@chat/bus';
import { setupTestEnv, startService, type ServiceProcess } from '@chat/testing';

const root = path.resolve(__dirname, '..');
const SERVICES = ['push', 'uploads'] as const;
const builds = process.env.AB_BUILDS ? process.env.AB_BUILDS.split(',') : [''];
const cycles = Number(process.env.AB_CYCLES ?? (builds.length > 1 ? 2 : 1));
const rate = Number(process.env.CONSUMERS_RATE ?? 250);
const events = Number(process.env.CONSUMERS_EVENTS ?? 1500);
const fanouts = (process.env.CONSUMERS_FANOUTS ?? '10,200,1000').split(',').map(Number);
const PARTITIONS = 8;
const REALM = 7;
const IDLE_MS = 8000;
const SETTLE_MS = 5000;

const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A channel message to `fanout` people as messaging writes it (actions/send/write.ts). */
function messagePayload(fanout: number, id: number): object {
  const users = Array.from({ length: fanout }, (_, i) => 1000 + i);
  const content = `hello ${id}, a line of about the length people write in a busy channel, no links`;
  return {
    event: {
      type: 'message',
      message: {
        id, sender_id: 1000, sender_full_name: 'Bench Sender', sender_email: 'user1000@bench.localhost',
        sender_realm_str: 'bench', avatar_url: null, client: 'bench', content: `<p>${content}</p>`,
        content_type: 'text/html', display_recipient: 'bench-10', is_me_message: false, reactions: [],
        recipient_id: 12, stream_id: 3, subject: 'bench', topic_links: [], submessages: [],
        timestamp: 1_764_000_000 + id, type: 'stream',
      },
    },
    users,
    stream_id: 3, public_stream: true, sender_id: 1000, sender_gravatar: false,
    user_flags: Object.fromEntries(users.map((u) => [String(u), u === 1000 ? ['read'] : []])),
    raw_content: content, topic: 'bench',
  };
}

async function main() {
  const env = await setupTestEnv();
  const keys = keyspace(env.prefix, { partitions: PARTITIONS });
  const procEnv = { ...env.env, NODE_ENV: 'production', LOG_LEVEL: 'error', STREAM_PARTITIONS: String(PARTITIONS) };
  if (process.env.CONSUMERS_HOLDER === '1') {
    await env.db.$executeRawUnsafe(`INSERT INTO push_device_tokens (realm_id, user_id, kind, token) VALUES ($1, 99999, 'fcm', 'bench')`, REALM);
  }
  // Postgres prints the payload the relay carries; the same text for every message but its ids.
  const texts = new Map<number, string>();
  for (const fanout of fanouts) {
    const [row] = await env.db.$queryRawUnsafe<Array<{ t: string }>>('SELECT $1::jsonb::text AS t', JSON.stringify(messagePayload(fanout, 1)));
    texts.set(fanout, row!.t);
  }
  try {
    for (let cycle = 0; cycle < cycles; cycle++) {
      for (const build of builds) {
        if (build) for (const s of SERVICES) copyFileSync(path.join(build, `${s}.js`), path.join(root, `services/${s}/dist/main.js`));
        const procs: ServiceProcess[] = [];
        const prof = process.env.CONSUMERS_PROFILE_DIR;
        const nodeArgs = [
          ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(prof)}`] : []),
          ...(process.env.CONSUMERS_NODE_ARGS ? process.env.CONSUMERS_NODE_ARGS.split(' ') : []),
        ];
        for (const s of SERVICES) procs.push(await startService(s, procEnv, { nodeArgs }));
        try {
          // The first events compile the code that reads them: not measured.
          await publish(env.redis, keys, texts.get(fanouts[0]!)!, Math.min(events, 1000));
          await caughtUp(env.redis, keys.stream(keys.partitionOf(REALM)));
          // Compilation and collection of the warm-up's garbage go on for a few seconds.
          await sleep(SETTLE_MS);
          const idleStart = procs.map((p) => cpuMs(p.child.pid!));
          await sleep(IDLE_MS);
          const idlePerS = procs.map((p, i) => ((cpuMs(p.child.pid!) - idleStart[i]!) / IDLE_MS) * 1000);
          const line = [`${build || 'dist'} cycle ${cycle + 1}: idle ${SERVICES.map((s, i) => `${s} ${idlePerS[i]!.toFixed(1)}`).join(', ')} ms/s`];
          for (const fanout of fanouts) {
            const before = procs.map((p) => cpuMs(p.child.pid!));
            const started = Date.now();
            await publish(env.redis, keys, texts.get(fanout)!, events);
            await caughtUp(env.redis, keys.stream(keys.partitionOf(REALM)));
            const ms = Date.now() - started;
            const per = procs.map((p, i) => (cpuMs(p.child.pid!) - before[i]!) / events);
            const net = procs.map((p, i) => per[i]! - (idlePerS[i]! * ms) / 1000 / events);
            line.push(`  ${fanout} recipients, ${((events / ms) * 1000).toFixed(0)} msg/s: CPU ms per message ${SERVICES.map((s, i) => `${s} ${per[i]!.toFixed(3)} (${net[i]!.toFixed(3)} without idle)`).join(', ')}`);
          }
          if (process.env.CONSUMERS_SHOW_OUTPUT) for (const p of procs) console.log(`--- ${p.label}\n${p.output().slice(-4000)}`);
          console.log(line.join('\n'));
        } finally {
          await Promise.all(procs.map((p) => p.stop()));
        }
      }
    }
  } finally {
    await env.close();
  }
}

let outboxId = 0;

/** `count` messages with payload `text` to the realm's stream, `rate` a second, as the relay appends them. */
async function publish(redis: import('ioredis').Redis, keys: ReturnType<typeof keyspace>, text: string, count: number): Promise<void> {
  const started = Date.now();
  const perTick = Math.max(1, Math.round(rate / 100));
  for (let sent = 0; sent < count; sent += perTick) {
    const rows = Array.from({ length: Math.min(perTick, count - sent) }, () => {
      outboxId++;
      return { id: String(outboxId), realmId: REALM, type: 'message', payload: text, createdAt: `${started}-${outboxId}` };
    });
    await publishRows(redis, keys, rows, { streamMaxLen: 100_000, markerTtlSeconds: 600 });
    const due = started + ((sent + perTick) / rate) * 1000 - Date.now();
    if (due > 0) await sleep(due);
  }
}

/** Until the push and uploads groups have read and acknowledged everything in `stream`. */
async function caughtUp(redis: import('ioredis').Redis, stream: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`the groups did not catch up with ${stream} within a minute`);
    const groups = (await redis.call('xinfo', 'groups', stream)) as Array<Array<string | number>>;
    const done = ['push', 'uploads'].every((name) => {
      const g = groups.find((row) => row[1] === name);
      if (!g) return false;
      const field = (k: string) => g[g.indexOf(k) + 1];
      return Number(field('pending')) === 0 && Number(field('lag')) === 0;
    });
    if (done) return;
    await sleep(20);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
