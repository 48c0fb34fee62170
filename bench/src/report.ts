/** Turns the run's measurements into flat figures, ratios to the baselines, goals and a chart. */
import { availableParallelism } from 'node:os';
import type { PgbenchFigure, RedisFigure } from './baselines';
import { chartSvg, type Series } from './chart';
import type { NarrowFigure } from './narrow';
import type { DeliveryFigure, RegisterFigure, SendFigure } from './phases';
import type { Settled } from './settle';
import { webFigures, webGoals } from './web-report';
import type { WebFigure } from './web';

export interface Measurements {
  sends: SendFigure[];
  pgbench: PgbenchFigure[];
  redis: RedisFigure[];
  delivery?: DeliveryFigure;
  register?: RegisterFigure;
  narrow?: { messages: number; figures: NarrowFigure[]; listings?: NarrowFigure[] };
  /** How long each phase waited for earlier work to finish (settle.ts). */
  settled?: Settled[];
  web?: WebFigure;
  /** Why the web phase measured nothing, when it failed (the other phases' figures stand). */
  webError?: string;
}

export interface Goal {
  figure: string;
  value: number;
  goal: string;
  met: boolean;
}

const key = (t: number | 'dm') => (t === 'dm' ? 'dm' : `c${t}`);
const round = (v: number, d = 3) => Math.round(v * 10 ** d) / 10 ** d;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
/** Direct messages reach two people: they are compared with pgbench's send to two. */
const subscribersOf = (t: number | 'dm') => (t === 'dm' ? 2 : t);

export function figures(m: Measurements): Record<string, number> {
  const f: Record<string, number> = {};
  const pg = (subs: number, clients: number) => m.pgbench.find((p) => p.subscribers === subs && p.clients === clients && p.notify !== false);
  for (const s of m.sends) {
    const k = `send_${key(s.target)}_x${s.concurrency}`;
    f[`${k}_msgs_per_s`] = s.msgsPerSec;
    f[`${k}_p50_ms`] = s.p50;
    f[`${k}_p99_ms`] = s.p99;
    // The CPU a message costs each service and Postgres: what bounds throughput on two cores.
    const base = pg(subscribersOf(s.target), s.concurrency);
    if (s.target !== 'dm' && s.concurrency === 16 && s.cpuMsPerSend) {
      for (const [label, ms] of Object.entries(s.cpuMsPerSend)) f[`${k}_cpu_ms_per_send_${label}`] = ms;
      f[`${k}_cpu_ms_per_send_all`] = round(sum(Object.values(s.cpuMsPerSend)), 2);
      // What every process together may spend on a send for the rate to be half of pgbench's.
      if (base) f[`${k}_cpu_ms_per_send_at_half_pgbench`] = round((availableParallelism() * 1000) / (base.tps / 2), 2);
    }
    if (base) {
      f[`${k}_msgs_per_s_vs_pgbench`] = round(s.msgsPerSec / base.tps);
      f[`${k}_p50_ms_vs_pgbench`] = round(s.p50 / base.latencyMs);
    }
  }
  // Seconds each phase waited for earlier work to drain: the setup's tail shows here, not in a phase.
  for (const w of m.settled ?? []) f[`settle_before_${w.phase}_s`] = w.seconds;
  for (const p of m.pgbench) {
    const k = `pgbench_send_${p.subscribers}_x${p.clients}${p.notify === false ? '_no_notify' : ''}`;
    f[`${k}_tps`] = p.tps;
    f[`${k}_latency_ms`] = p.latencyMs;
  }
  const seq = m.sends.find((s) => s.target === 10 && s.concurrency === 1);
  if (seq) {
    f.send_sequential_p50_ms = seq.p50;
    const base = pg(10, 1);
    if (base) f.send_sequential_p50_ms_vs_pgbench = round(seq.p50 / base.latencyMs);
  }
  for (const r of m.redis) f[`redis_benchmark_${r.command}_ops_per_s`] = r.opsPerSec;
  if (m.delivery) {
    const d = m.delivery;
    Object.assign(f, {
      delivery_held_polls: d.heldPolls, delivery_recipients: d.recipients, delivery_rate_msgs_per_s: d.ratePerSec,
      delivery_sent_msgs_per_s: round(d.messages / Math.max(1, d.seconds), 1),
      delivery_p50_ms: d.p50, delivery_p90_ms: d.p90, delivery_p99_ms: d.p99,
      delivery_delivered_ratio: round(d.deliveries / Math.max(1, d.expectedDeliveries)),
      delivery_per_msg_send_p50_ms: d.perMessage.sendP50, delivery_per_msg_send_p99_ms: d.perMessage.sendP99,
      delivery_per_msg_first_p50_ms: d.perMessage.firstP50, delivery_per_msg_first_p99_ms: d.perMessage.firstP99,
      delivery_per_msg_spread_p50_ms: d.perMessage.spreadP50, delivery_per_msg_spread_p99_ms: d.perMessage.spreadP99,
      delivery_per_msg_last_p99_ms: d.perMessage.lastP99,
      ...(d.probe
        ? {
            delivery_probe_timer_late_p99_ms: d.probe.timerLagP99, delivery_probe_timer_late_max_ms: d.probe.timerLagMax,
            delivery_probe_commit_p50_ms: d.probe.commitP50, delivery_probe_commit_p99_ms: d.probe.commitP99, delivery_probe_commit_max_ms: d.probe.commitMax,
          }
        : {}),
      ...(d.unstalled ? { delivery_unstalled_msgs: d.unstalled.messages, delivery_unstalled_p99_ms: d.unstalled.p99 } : {}),
      ...Object.fromEntries(Object.entries(d.cpuMsPerMessage ?? {}).map(([label, ms]) => [`delivery_cpu_ms_per_msg_${label}`, ms])),
      ...(d.cpuMsPerMessage ? { delivery_cpu_ms_per_msg_all: round(sum(Object.values(d.cpuMsPerMessage)), 2) } : {}),
    });
    const append = m.redis.find((r) => r.command === 'queue_append');
    if (append) {
      // Each delivered message event is one queue append: the share of Redis's append rate used.
      const rate = d.deliveries / Math.max(1, d.seconds);
      f.delivery_appends_per_s = Math.round(rate);
      f.delivery_appends_per_s_vs_redis_benchmark = round(rate / append.opsPerSec);
    }
  }
  if (m.register) {
    Object.assign(f, { register_users: m.register.users, register_p50_ms: m.register.p50, register_p99_ms: m.register.p99, register_kb: Math.round(m.register.bytes / 1024) });
    const r = m.register;
    for (const [label, ms] of Object.entries(r.cpuMsPerRegister ?? {})) f[`register_cpu_ms_${label}`] = ms;
    if (r.cpuMsPerRegister) f.register_cpu_ms_all = round(sum(Object.values(r.cpuMsPerRegister)), 2);
    if (r.probe) {
      Object.assign(f, {
        register_probe_timer_late_max_ms: r.probe.timerLagMax, register_probe_commit_p50_ms: r.probe.commitP50, register_probe_commit_max_ms: r.probe.commitMax,
      });
    }
    if (r.unstalled) Object.assign(f, { register_unstalled_rounds: r.unstalled.rounds, register_unstalled_p50_ms: r.unstalled.p50 });
  }
  if (m.narrow) {
    f.narrow_table_messages = m.narrow.messages;
    for (const n of m.narrow.figures) {
      f[`narrow_${n.name}_p50_ms`] = n.p50;
      f[`narrow_${n.name}_p99_ms`] = n.p99;
      f[`narrow_${n.name}_warmup_p50_ms`] = n.warmupP50;
      f[`narrow_${n.name}_returned`] = n.returned;
    }
    for (const l of m.narrow.listings ?? []) {
      f[`listing_${l.name}_p50_ms`] = l.p50;
      f[`listing_${l.name}_p99_ms`] = l.p99;
    }
  }
  if (m.web) Object.assign(f, webFigures(m.web));
  return f;
}

export function goals(f: Record<string, number>): Goal[] {
  const out: Goal[] = [];
  const add = (figure: string, goal: string, met: (v: number) => boolean) => {
    if (f[figure] !== undefined) out.push({ figure, value: f[figure]!, goal, met: met(f[figure]!) });
  };
  add('send_c10_x16_msgs_per_s_vs_pgbench', '>= 0.5', (v) => v >= 0.5);
  add('send_c200_x16_msgs_per_s_vs_pgbench', '>= 0.5', (v) => v >= 0.5);
  add('send_sequential_p50_ms', '<= 10 ms', (v) => v <= 10);
  add('delivery_p99_ms', '<= 50 ms', (v) => v <= 50);
  add('register_p50_ms', '<= 30 ms', (v) => v <= 30);
  add('narrow_channel_p50_ms', '<= 20 ms', (v) => v <= 20);
  for (const [figure, goal, met] of webGoals()) add(figure, goal, met);
  return out;
}

export function printTable(f: Record<string, number>, g: Goal[]): void {
  const width = Math.max(...Object.keys(f).map((k) => k.length));
  console.log('\nfigure'.padEnd(width + 1), 'value');
  for (const [k, v] of Object.entries(f)) console.log(k.padEnd(width), String(v).padStart(12));
  console.log('\ngoals');
  for (const x of g) console.log(`${x.met ? 'met    ' : 'NOT met'}  ${x.figure.padEnd(width)} ${String(x.value).padStart(10)}  goal ${x.goal}`);
}

export function chart(m: Measurements, title: string): string {
  const fanouts = [...new Set(m.sends.map((s) => s.target).filter((t): t is number => t !== 'dm'))].sort((a, b) => a - b);
  const colors: Record<number, string> = { 1: '#1b9e77', 16: '#d95f02', 64: '#7570b3' };
  const conc = [...new Set(m.sends.map((s) => s.concurrency))].sort((a, b) => a - b);
  // A run of chosen cells (BENCH_SEND_CELLS) may lack some: their points are left out.
  const at = (c: number, pick: (s: SendFigure) => number) => fanouts.flatMap((t) => {
    const s = m.sends.find((x) => x.target === t && x.concurrency === c);
    return s ? [[t, pick(s)] as [number, number]] : [];
  });
  const pgAt = (c: number, pick: (p: PgbenchFigure) => number) => fanouts.flatMap((t) => {
    const p = m.pgbench.find((x) => x.subscribers === t && x.clients === c && x.notify !== false);
    return p ? [[t, pick(p)] as [number, number]] : [];
  });
  const throughput: Series[] = [
    ...conc.map((c) => ({ name: `cluster, ${c} senders`, color: colors[c] ?? '#333', points: at(c, (s) => s.msgsPerSec) })),
    ...conc.map((c) => ({ name: `pgbench, ${c} clients`, color: colors[c] ?? '#333', dashed: true, points: pgAt(c, (p) => p.tps) })),
  ];
  const latency: Series[] = [
    ...conc.map((c) => ({ name: `cluster p50, ${c} senders`, color: colors[c] ?? '#333', points: at(c, (s) => s.p50) })),
    { name: 'cluster p99, 16 senders', color: '#e7298a', points: at(16, (s) => s.p99) },
    ...conc.map((c) => ({ name: `pgbench avg, ${c} clients`, color: colors[c] ?? '#333', dashed: true, points: pgAt(c, (p) => p.latencyMs) })),
  ];
  return chartSvg(title, fanouts, throughput, latency);
}

/** The goals and the main figures as a Markdown table, for docs/performance.md. */
export function markdown(f: Record<string, number>, g: Goal[]): string {
  const lines = ['| figure | value | goal |', '|---|---|---|'];
  for (const x of g) lines.push(`| \`${x.figure}\` | ${x.value} | ${x.goal} ${x.met ? '(met)' : '(not met)'} |`);
  for (const [k, v] of Object.entries(f)) if (!g.some((x) => x.figure === k)) lines.push(`| \`${k}\` | ${v} | |`);
  return `${lines.join('\n')}\n`;
}
