/** The measured phases that run through the gateway. */
import { call, form, must, summary, type Account, type Site } from './api';
import { startSenders, type SenderJob } from './workers';
import { cpuDuring, type Measured } from './cpu';
import { describeProbe, probeFigure, startProbe, stalledDuring, STALL_MS, type ProbeFigure } from './probe';

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

/** Long-polls the gateway at `url` holds now (its gateway_longpolls_waiting gauge). */
export async function waitingAtGateway(url: string): Promise<number> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text(), () => '');
  return Number(/^gateway_longpolls_waiting(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? 0);
}

export interface RegisterFigure {
  users: number;
  /** Registers measured. */
  rounds: number;
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
  const fig: RegisterFigure = { users: realmUsers, rounds, p50: s.p50, p90: s.p90, p99: s.p99, bytes };
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
