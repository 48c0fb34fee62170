/** The measured phases that run through the gateway. */
import { availableParallelism } from 'node:os';
import Redis from 'ioredis';
import { QueueStore } from '@chat/queues';
import { call, form, inParallel, must, summary, type Account, type Site } from './api';
import { startPollers, startSenders, type SenderJob } from './workers';
import { cpuDuring, type Measured } from './cpu';
import { describeProbe, probeFigure, startProbe, stalledDuring, worstDuring, STALL_MS, type ProbeFigure } from './probe';

export interface Timing {
  seconds: number;
  warmupSeconds: number;
}

export type Target = number | 'dm';

export interface SendFigure {
  target: Target;
  concurrency: number;
  msgsPerSec: number;
  p50: number;
  p90: number;
  p99: number;
  sent: number;
  errors: Record<string, number>;
  /**
   * CPU milliseconds per message of each service and of Postgres, when the bench started the
   * cluster (warm-up included, counted at the measured rate).
   */
  cpuMsPerSend?: Record<string, number>;
}

function sendJob(target: Target, channels: Map<number, number>, users: Account[], i: number, topic = 'bench'): SenderJob {
  const sender = users[i % users.length]!;
  const content = `bench message ${i}, sent=__SENT__`;
  const body = target === 'dm'
    ? form({ type: 'direct', to: [users[(i + 1) % users.length]!.id], content })
    : form({ type: 'stream', to: channels.get(target)!, topic, content });
  return { auth: sender.auth, path: '/api/v1/messages', body };
}

/** Send throughput and latency for each fan-out and number of concurrent senders. */
export async function measureSends(
  site: Site, users: Account[], channels: Map<number, number>, targets: Target[], concurrencies: number[], t: Timing,
  /** The cluster's processes, Postgres, Redis and the bench's load, for CPU per send (absent: not measured). */
  measured?: () => Promise<Measured[]>,
): Promise<SendFigure[]> {
  const out: SendFigure[] = [];
  // BENCH_SEND_CELLS=10x16,200x16: only those cells (fan-out or dm, x senders), for iterating on one.
  const cells = process.env.BENCH_SEND_CELLS?.split(',').map((c) => c.trim());
  for (const target of targets) {
    for (const concurrency of concurrencies) {
      if (cells && !cells.includes(`${target}x${concurrency}`)) continue;
      // Senders are the channel's first subscribers (or, beyond them, anyone: a public channel
      // takes posts from non-subscribers, who then receive their own message too).
      const jobs = Array.from({ length: concurrency }, (_, i) => sendJob(target, channels, users, i, `bench ${i % 8}`));
      // The load's processes start and connect before the CPU count begins: their start-up is
      // not the cluster's cost of a send.
      const senders = startSenders({
        url: site.url, host: site.host, jobs, concurrency, durationMs: t.seconds * 1000, warmupMs: t.warmupSeconds * 1000,
      });
      await senders.ready;
      const { result: r, cpuMs } = await cpuDuring(measured ? await measured() : [], () => senders.go());
      const s = summary(r.latencies);
      // The warm-up's sends are not counted in r.done: count them at the measured rate.
      const sentInAll = r.done * (1 + t.warmupSeconds / t.seconds);
      const fig: SendFigure = {
        target, concurrency, msgsPerSec: Math.round((r.done / r.seconds) * 10) / 10,
        p50: s.p50, p90: s.p90, p99: s.p99, sent: r.done, errors: r.errors,
        ...(measured && r.done > 0
          ? { cpuMsPerSend: Object.fromEntries(Object.entries(cpuMs).map(([k, v]) => [k, Math.round((v / sentInAll) * 100) / 100])) }
          : {}),
      };
      out.push(fig);
      const errs = Object.keys(r.errors).length ? ` errors ${JSON.stringify(r.errors).slice(0, 200)}` : '';
      console.log(`  send ${String(target).padStart(4)} x${String(concurrency).padEnd(3)} ${fig.msgsPerSec.toFixed(1).padStart(7)} msg/s  p50 ${fig.p50.toFixed(1)} ms  p99 ${fig.p99.toFixed(1)} ms${errs}`);
    }
  }
  return out;
}

export interface DeliveryFigure {
  heldPolls: number;
  recipients: number;
  ratePerSec: number;
  messages: number;
  /** Seconds messages were sent for. */
  seconds: number;
  deliveries: number;
  expectedDeliveries: number;
  p50: number;
  p90: number;
  p99: number;
  sendP50: number;
  /**
   * Where a message's time goes, over messages: its send's own latency (to the commit and the
   * answer), its first recipient's latency (the path to the gateway's first answer) and the
   * spread from first to last recipient (answering every poll of the message).
   */
  perMessage: { sendP50: number; sendP99: number; firstP50: number; firstP99: number; spreadP50: number; spreadP99: number; lastP99: number };
  errors: Record<string, number>;
  /** CPU milliseconds per message sent, by process label, senders to the last poll answered. */
  cpuMsPerMessage?: Record<string, number>;
  /** The machine probe over the measured window (probe.ts), when it ran. */
  probe?: ProbeFigure;
  /**
   * Over the messages during which the probe saw no stall (a timer late or a commit slow by
   * STALL_MS or more, from the send to the last answer): how many, and their deliveries' p99.
   */
  unstalled?: { messages: number; p99: number };
}

async function waitingAtGateway(url: string): Promise<number> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text(), () => '');
  return Number(/^gateway_longpolls_waiting(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? 0);
}

/**
 * Send -> delivery: every subscriber of the channel holds a long-poll on a queue it registered
 * through the API; the rest of the held polls (queues made straight in Redis, as registering
 * ten thousand would only measure register) belong to people the messages do not reach.
 */
export async function measureDelivery(
  site: Site, gatewayUrls: string[], gatewayMetricsUrls: string[], redisUrl: string, redisPrefix: string, realmId: number,
  users: Account[], channelId: number, recipients: number, heldPolls: number, ratePerSec: number, t: Timing,
  /** The cluster's processes, Postgres, Redis and the bench's load, for CPU per message delivered (absent: not measured). */
  measured?: () => Promise<Measured[]>,
  /** A scratch database for the machine probe's commits (absent: no probe). */
  probeDatabaseUrl?: string,
): Promise<DeliveryFigure> {
  const members = users.slice(0, recipients);
  const queues = await inParallel(members, 8, async (u) => {
    const a = await must<{ queue_id: string; last_event_id: number }>(site, u.auth, 'POST', '/register', {
      event_types: ['message'], fetch_event_types: ['message'],
    });
    return { auth: u.auth, queueId: a.body.queue_id, lastEventId: a.body.last_event_id };
  });
  const redis = new Redis(redisUrl);
  const store = new QueueStore(redis, redisPrefix);
  const others = users.slice(recipients);
  const idle = await inParallel(Array.from({ length: Math.max(0, heldPolls - recipients) }, (_, i) => others[i % others.length]!), 50, async (u) => {
    const queueId = await store.create({
      userId: u.id, realmId, eventTypes: ['message'], narrow: [], allPublicStreams: false,
      clientCapabilities: {}, applyMarkdown: true, clientGravatar: true, idleTimeoutSecs: 600, clientName: 'bench',
    });
    return { auth: u.auth, queueId, lastEventId: -1 };
  });
  redis.disconnect();
  const clients = [...queues, ...idle];
  const pollers = startPollers({ urls: gatewayUrls, host: site.host, clients, processes: 4, staggerMs: Math.min(20_000, clients.length) });
  const opened = Date.now();
  let held = 0;
  const count = async () => (await Promise.all(gatewayMetricsUrls.map(waitingAtGateway))).reduce((a, b) => a + b, 0);
  while ((held = await count()) < clients.length && Date.now() - opened < 120_000) await new Promise((r) => setTimeout(r, 250));
  console.log(`  ${held} long-polls held after ${((Date.now() - opened) / 1000).toFixed(1)} s`);
  const jobs = Array.from({ length: 4 }, (_, i) => sendJob(channelId, new Map([[channelId, channelId]]), members, i));
  // Warm-up, as in the sends phase: the first messages after ten thousand polls were opened run
  // the answer path's code before it is compiled and each queue's first append; a server in
  // service has long done both. The measured messages follow the warm-up's without a pause, as
  // a steady stream; only theirs are counted (by the send time each carries). The senders start
  // and connect before any of it: a process starting takes tens of ms of CPU.
  const senders = startSenders({
    url: site.url, host: site.host, jobs, concurrency: 4, durationMs: t.seconds * 1000, warmupMs: t.warmupSeconds * 1000, ratePerSec,
  });
  await senders.ready;
  const probe = probeDatabaseUrl ? startProbe(probeDatabaseUrl, (t.seconds + t.warmupSeconds) * 1000 + 60_000) : undefined;
  await probe?.ready;
  // CPU from the first send until the last answer's settling time, all of it the messages' doing
  // (held polls without traffic cost nothing but their heartbeats).
  const { result: sends, cpuMs } = await cpuDuring(measured ? await measured() : [], async () => {
    const done = await senders.go();
    await new Promise((r) => setTimeout(r, 2000));
    return done;
  });
  const report = await pollers.stop();
  const probed = await probe?.stop();
  await inParallel(queues, 8, (q) => call(site, q.auth, 'DELETE', '/events', { queue_id: q.queueId }));
  const measuredSends = new Set(sends.sends.map(([sent]) => sent));
  const latencies = report.latencies.filter(([sent]) => measuredSends.has(sent)).map(([, ms]) => ms);
  const s = summary(latencies);
  // The warm-up's messages are not in sends.done: count them at the measured rate.
  const sentInAll = sends.done * (1 + t.warmupSeconds / t.seconds);
  const fig: DeliveryFigure = {
    heldPolls: held, recipients, ratePerSec, messages: sends.done, seconds: sends.seconds, deliveries: latencies.length,
    expectedDeliveries: sends.done * recipients, p50: s.p50, p90: s.p90, p99: s.p99,
    sendP50: summary(sends.latencies).p50, perMessage: perMessageSummary(sends.sends, report.perMessage),
    errors: { ...sends.errors, ...report.errors },
    ...(measured && sends.done > 0
      ? { cpuMsPerMessage: Object.fromEntries(Object.entries(cpuMs).map(([k, v]) => [k, Math.round((v / sentInAll) * 100) / 100])) }
      : {}),
  };
  console.log(`  delivery to ${recipients} of ${held} polls at ${ratePerSec} msg/s: p50 ${fig.p50} ms p99 ${fig.p99} ms (${fig.deliveries}/${fig.expectedDeliveries} delivered)`);
  const pm = fig.perMessage;
  console.log(`  per message p50/p99: send ${pm.sendP50}/${pm.sendP99} ms, first recipient ${pm.firstP50}/${pm.firstP99} ms, first to last ${pm.spreadP50}/${pm.spreadP99} ms`);
  const ofMeasured = report.perMessage.filter(([sent]) => measuredSends.has(sent));
  const t0 = Math.min(...ofMeasured.map(([sent]) => sent));
  const sendOf = new Map(sends.sends);
  const atProbe = (sent: number, last: number) => {
    if (!probed) return '';
    const w = worstDuring(probed, sent, sent + last);
    return ` (probe: timer late ${w.lag} ms, commit ${w.commit === null ? 'none' : `${w.commit} ms`})`;
  };
  const slowest = [...ofMeasured].sort((a, b) => b[2] - a[2]).slice(0, 5)
    .map(([sent, first, last]) => `at ${((sent - t0) / 1000).toFixed(1)} s: send ${sendOf.get(sent)?.toFixed(0) ?? '?'}, first ${first}, last ${last} ms${atProbe(sent, last)}`);
  console.log(`  slowest messages (from ${new Date(t0).toISOString()}): ${slowest.join('; ')}`);
  if (probed) {
    const tEnd = Math.max(t0, ...ofMeasured.map(([sent, , last]) => sent + last));
    fig.probe = probeFigure(probed, t0, tEnd);
    const stalled = new Set(ofMeasured.filter(([sent, , last]) => stalledDuring(probed, sent, sent + last)).map(([sent]) => sent));
    const calm = report.latencies.filter(([sent]) => measuredSends.has(sent) && !stalled.has(sent)).map(([, ms]) => ms);
    fig.unstalled = { messages: ofMeasured.length - stalled.size, p99: summary(calm).p99 };
    console.log(`  ${describeProbe(fig.probe)}; ${stalled.size} of ${ofMeasured.length} messages met a stall of ${STALL_MS} ms or more, the others' p99 ${fig.unstalled.p99} ms`);
  }
  if (fig.cpuMsPerMessage) {
    // Every part of a message's delivery runs on the same cores: its last answer cannot come
    // sooner than all of this work spread over all of them.
    const all = Object.values(fig.cpuMsPerMessage).reduce((a, b) => a + b, 0);
    const parts = Object.entries(fig.cpuMsPerMessage).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ');
    console.log(`  CPU per message, every process: ${all.toFixed(1)} ms on ${availableParallelism()} cores (${parts})`);
  }
  return fig;
}

/** Per-message percentiles of the send's latency, the first recipient's and the spread to the last. */
function perMessageSummary(sends: Array<[number, number]>, delivered: Array<[number, number, number, number]>): DeliveryFigure['perMessage'] {
  const sendMs = new Map(sends);
  const ofSent = delivered.filter(([sent]) => sendMs.has(sent));
  const send = summary(ofSent.map(([sent]) => sendMs.get(sent)!));
  const first = summary(ofSent.map(([, f]) => f));
  const spread = summary(ofSent.map(([, f, l]) => l - f));
  return {
    sendP50: send.p50, sendP99: send.p99, firstP50: first.p50, firstP99: first.p99,
    spreadP50: spread.p50, spreadP99: spread.p99, lastP99: summary(ofSent.map(([, , l]) => l)).p99,
  };
}

export interface RegisterFigure {
  users: number;
  p50: number;
  p90: number;
  p99: number;
  bytes: number;
  /** CPU milliseconds per register (its queue's deletion included), by process label. */
  cpuMsPerRegister?: Record<string, number>;
  /** The machine probe over the measured rounds, when it ran. */
  probe?: ProbeFigure;
  /** Over the rounds during which the probe saw no stall: how many, and their p50. */
  unstalled?: { rounds: number; p50: number };
}

/** POST /register with the whole initial state, the queue deleted after each. */
export async function measureRegister(
  site: Site, user: Account, realmUsers: number, rounds: number,
  measured?: () => Promise<Measured[]>, probeDatabaseUrl?: string,
): Promise<RegisterFigure> {
  let bytes = 0;
  const round = async () => {
    const started = Date.now();
    const a = await must<{ queue_id: string }>(site, user.auth, 'POST', '/register', {});
    bytes = a.bytes;
    await call(site, user.auth, 'DELETE', '/events', { queue_id: a.body.queue_id });
    return [started, a.ms] as [number, number];
  };
  // Two rounds not measured: the first builds the events service's kept state of the realm.
  for (let i = 0; i < 2; i++) await round();
  const probe = probeDatabaseUrl ? startProbe(probeDatabaseUrl, rounds * 5_000 + 60_000) : undefined;
  await probe?.ready;
  const { result: spans, cpuMs } = await cpuDuring(measured ? await measured() : [], async () => {
    const out: Array<[number, number]> = [];
    for (let i = 0; i < rounds; i++) out.push(await round());
    return out;
  });
  const probed = await probe?.stop();
  const s = summary(spans.map(([, ms]) => ms));
  const fig: RegisterFigure = { users: realmUsers, p50: s.p50, p90: s.p90, p99: s.p99, bytes };
  if (measured) fig.cpuMsPerRegister = Object.fromEntries(Object.entries(cpuMs).map(([k, v]) => [k, Math.round((v / rounds) * 100) / 100]));
  console.log(`  register, whole state, ${realmUsers} users: p50 ${s.p50} ms p99 ${s.p99} ms (${Math.round(bytes / 1024)} KB)`);
  if (fig.cpuMsPerRegister) {
    const parts = Object.entries(fig.cpuMsPerRegister).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ');
    console.log(`  CPU per register, every process: ${Object.values(fig.cpuMsPerRegister).reduce((a, b) => a + b, 0).toFixed(1)} ms (${parts})`);
  }
  if (probed) {
    fig.probe = probeFigure(probed, spans[0]?.[0] ?? Date.now(), Date.now());
    const calm = spans.filter(([at, ms]) => !stalledDuring(probed, at, at + ms)).map(([, ms]) => ms);
    fig.unstalled = { rounds: calm.length, p50: summary(calm).p50 };
    console.log(`  ${describeProbe(fig.probe)}; ${rounds - calm.length} of ${rounds} rounds met a stall of ${STALL_MS} ms or more, the others' p50 ${fig.unstalled.p50} ms`);
  }
  return fig;
}
