/**
 * Turns the run's measurements into flat figures (each the median of its runs, with its spread),
 * ratios to the store's baselines, goals and a chart.
 */
import type { PgbenchFigure, RedisFigure } from './baselines';
import { chartSvg, type Series } from './chart';
import type { NarrowFigure } from './narrow';
import type { DeliveryRun } from './online';
import type { RegisterFigure, SendFigure } from './phases';
import type { Settled } from './settle';
import { median, repeated, spreadKeys } from './stats';
import { webFigures, webGoals } from './web-report';
import type { WebFigure } from './web';

/** What the services ran with: production defaults (rate limit off) unless a named variant. */
export interface RunSettings {
  /** Absent for the production defaults, the headline; else the variant's name. */
  variant?: string;
  /** The environment the bench gave the services beyond their own defaults. */
  env: Record<string, string>;
}

/** One send cell (a channel size, 16 senders, nobody online) over its runs. */
export interface SendCell {
  subscribers: number;
  senders: number;
  runs: SendFigure[];
  /** Per run: the mean number of sends per write statement, read from messaging's /metrics. */
  groupSizes: number[];
}

export interface Measurements {
  settings: RunSettings;
  sends: SendCell[];
  /** pgbench on the copy of the cluster's database, every run. */
  store: PgbenchFigure[];
  redis: RedisFigure[];
  online?: { recipients: number; held: number; saturation: DeliveryRun[]; at50: DeliveryRun[]; offered: number };
  active?: { held: number; receivers: number; channels: number; size: number; ratePerSec: number; runs: DeliveryRun[] };
  register?: Array<{ key: '1k' | '10k'; runs: RegisterFigure[] }>;
  narrow?: { copies: number; messages: number; runs: NarrowFigure[] };
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

const round = (v: number, d = 3) => Math.round(v * 10 ** d) / 10 ** d;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
/** Labels of the load generator, not of the cluster: left out of the cluster's CPU. */
const LOAD = 'bench_load';

/** Ratio per run pair (run i of the cluster against run i of the store), as a spread. */
function ratioKeys(key: string, cluster: number[], store: number[]): Record<string, number> {
  const n = Math.min(cluster.length, store.length);
  if (!n) return {};
  const r = repeated(Array.from({ length: n }, (_, i) => round(cluster[i]! / store[i]!)));
  return { ...spreadKeys(key, r), [key]: round(median(cluster) / median(store)) };
}

function deliveryKeys(prefix: string, runs: DeliveryRun[]): Record<string, number> {
  const f: Record<string, number> = {
    ...spreadKeys(`${prefix}_p99_ms`, repeated(runs.map((r) => r.p99))),
    [`${prefix}_p50_ms`]: median(runs.map((r) => r.p50)),
    [`${prefix}_msgs_per_s`]: median(runs.map((r) => r.msgsPerSec)),
    [`${prefix}_send_p50_ms`]: median(runs.map((r) => r.sendP50)),
    [`${prefix}_samples`]: sum(runs.map((r) => r.deliveries)),
    [`${prefix}_delivered_ratio`]: round(sum(runs.map((r) => r.deliveries)) / Math.max(1, sum(runs.map((r) => r.expected)))),
    [`${prefix}_errors`]: sum(runs.map((r) => sum(Object.values(r.errors)))),
  };
  return f;
}

export function figures(m: Measurements): Record<string, number> {
  const f: Record<string, number> = { production_defaults: m.settings.variant ? 0 : 1 };
  const store = (script: PgbenchFigure['script'], subs: number) => m.store.filter((p) => p.script === script && p.subscribers === subs);
  for (const cell of m.sends) {
    const k = `send_c${cell.subscribers}_x${cell.senders}`;
    const rates = cell.runs.map((r) => r.msgsPerSec);
    Object.assign(f, spreadKeys(`${k}_msgs_per_s`, repeated(rates)));
    f[`${k}_p50_ms`] = median(cell.runs.map((r) => r.p50));
    f[`${k}_p99_ms`] = median(cell.runs.map((r) => r.p99));
    f[`${k}_group_size`] = median(cell.groupSizes);
    const cpu = cell.runs.map((r) => r.cpuMsPerSend).filter((c): c is Record<string, number> => !!c);
    if (cpu.length) {
      f[`${k}_cpu_ms_per_send_cluster`] = median(cpu.map((c) => round(sum(Object.entries(c).filter(([l]) => l !== LOAD).map(([, v]) => v)), 2)));
      for (const label of Object.keys(cpu[0]!)) f[`${k}_cpu_ms_per_send_${label}`] = median(cpu.map((c) => c[label] ?? 0));
    }
    const txn = store('message_txn', cell.subscribers);
    const grouped = store('grouped_statement', cell.subscribers);
    Object.assign(f, ratioKeys(`${k}_msgs_per_s_vs_store`, rates, txn.map((p) => p.msgsPerSec)));
    Object.assign(f, ratioKeys(`${k}_msgs_per_s_vs_grouped_statement`, rates, grouped.map((p) => p.msgsPerSec)));
  }
  for (const script of ['message_txn', 'grouped_statement'] as const) {
    for (const subs of [...new Set(m.store.filter((p) => p.script === script).map((p) => p.subscribers))]) {
      const runs = store(script, subs);
      const k = `store_${script}_c${subs}_x${runs[0]!.clients}`;
      Object.assign(f, spreadKeys(`${k}_msgs_per_s`, repeated(runs.map((p) => p.msgsPerSec))));
      f[`${k}_latency_ms`] = median(runs.map((p) => p.latencyMs));
      f[`${k}_group`] = runs[0]!.group;
    }
  }
  for (const r of m.redis) f[`redis_benchmark_${r.command}_ops_per_s`] = r.opsPerSec;
  if (m.online) {
    const o = m.online;
    Object.assign(f, { online_c200_recipients: o.recipients, online_c200_held_polls: o.held, online_c200_offered_msgs_per_s_at_50: o.offered });
    Object.assign(f, spreadKeys('online_c200_msgs_per_s', repeated(o.saturation.map((r) => r.msgsPerSec))));
    const sat = deliveryKeys('online_c200_saturation_delivery', o.saturation);
    delete sat.online_c200_saturation_delivery_msgs_per_s;
    Object.assign(f, sat);
    const at50 = deliveryKeys('online_c200_delivery_at_50', o.at50);
    // The goal's key: delivery p99 at an offered 50 sends a second.
    for (const [key, v] of Object.entries(at50)) f[key.replace('online_c200_delivery_at_50_p99_ms', 'online_c200_delivery_p99_ms_at_50')] = v;
    const cpu = o.saturation.map((r) => r.cpuUsPerEvent).filter((c): c is Record<string, number> => !!c);
    if (cpu.length) {
      Object.assign(f, spreadKeys('cpu_us_per_delivered_event', repeated(cpu.map((c) => round(sum(Object.entries(c).filter(([l]) => l !== LOAD).map(([, v]) => v)), 1)))));
      for (const label of Object.keys(cpu[0]!)) f[`cpu_us_per_delivered_event_${label}`] = median(cpu.map((c) => c[label] ?? 0));
    }
  }
  if (m.active) {
    const a = m.active;
    Object.assign(f, {
      active_10k_held_polls: a.held, active_10k_receivers: a.receivers, active_10k_channels: a.channels,
      active_10k_channel_size: a.size, active_10k_offered_msgs_per_s: a.ratePerSec,
    });
    const d = deliveryKeys('active_10k_delivery', a.runs);
    delete d.active_10k_delivery_msgs_per_s;
    Object.assign(f, d);
  }
  for (const r of m.register ?? []) {
    Object.assign(f, spreadKeys(`register_p50_ms_${r.key}`, repeated(r.runs.map((x) => x.p50))));
    f[`register_p99_ms_${r.key}`] = median(r.runs.map((x) => x.p99));
    f[`register_${r.key}_users`] = r.runs[0]?.users ?? 0;
    f[`register_${r.key}_kb`] = Math.round((r.runs[0]?.bytes ?? 0) / 1024);
    f[`register_${r.key}_samples`] = sum(r.runs.map((x) => x.rounds));
    const cpu = r.runs.map((x) => x.cpuMsPerRegister).filter((c): c is Record<string, number> => !!c);
    if (cpu.length) f[`register_${r.key}_cpu_ms_cluster`] = median(cpu.map((c) => round(sum(Object.entries(c).filter(([l]) => l !== LOAD).map(([, v]) => v)), 2)));
  }
  if (m.narrow) {
    const n = m.narrow;
    Object.assign(f, spreadKeys('narrow_channel_p50_ms_10m', repeated(n.runs.map((x) => x.p50))));
    Object.assign(f, {
      narrow_channel_p99_ms_10m: median(n.runs.map((x) => x.p99)), narrow_10m_user_messages: n.copies, narrow_10m_messages: n.messages,
      narrow_10m_returned: n.runs[0]?.returned ?? 0, narrow_10m_samples: sum(n.runs.map((x) => x.samples)),
    });
  }
  for (const w of m.settled ?? []) f[`settle_before_${w.phase}_s`] = w.seconds;
  if (m.web) Object.assign(f, webFigures(m.web));
  return f;
}

/** The goals for a two-core machine with everything on it, the load generator included. */
export const GOALS: Array<[string, string, (v: number) => boolean]> = [
  ['send_c10_x16_msgs_per_s_vs_store', '>= 0.5', (v) => v >= 0.5],
  ['send_c200_x16_msgs_per_s_vs_store', '>= 0.5', (v) => v >= 0.5],
  ['online_c200_msgs_per_s', '>= 200 msg/s', (v) => v >= 200],
  ['online_c200_delivery_p99_ms_at_50', '<= 100 ms', (v) => v <= 100],
  ['cpu_us_per_delivered_event', '<= 30 us', (v) => v <= 30],
  ['active_10k_delivery_p99_ms', '<= 100 ms', (v) => v <= 100],
  ['register_p50_ms_1k', '<= 30 ms', (v) => v <= 30],
  ['register_p50_ms_10k', '<= 150 ms', (v) => v <= 150],
  ['narrow_channel_p50_ms_10m', '<= 20 ms', (v) => v <= 20],
];

export function goals(f: Record<string, number>): Goal[] {
  const out: Goal[] = [];
  for (const [figure, goal, met] of [...GOALS, ...webGoals()]) {
    if (f[figure] !== undefined) out.push({ figure, value: f[figure]!, goal, met: met(f[figure]!) });
  }
  return out;
}

export function printTable(f: Record<string, number>, g: Goal[]): void {
  const width = Math.max(...Object.keys(f).map((k) => k.length));
  console.log('\nfigure'.padEnd(width + 1), 'value');
  for (const [k, v] of Object.entries(f)) console.log(k.padEnd(width), String(v).padStart(12));
  console.log('\ngoals');
  for (const x of g) console.log(`${x.met ? 'met    ' : 'NOT met'}  ${x.figure.padEnd(width)} ${String(x.value).padStart(10)}  goal ${x.goal}`);
}

/** Sends a second and latency against channel size: the cluster beside both store baselines. */
export function chart(m: Measurements, title: string): string {
  const sizes = m.sends.map((c) => c.subscribers).sort((a, b) => a - b);
  const cell = (s: number) => m.sends.find((c) => c.subscribers === s)!;
  const storeAt = (script: PgbenchFigure['script'], pick: (p: PgbenchFigure) => number) => sizes.flatMap((s) => {
    const runs = m.store.filter((p) => p.script === script && p.subscribers === s);
    return runs.length ? [[s, median(runs.map(pick))] as [number, number]] : [];
  });
  const throughput: Series[] = [
    { name: 'cluster, 16 senders', color: '#d95f02', points: sizes.map((s) => [s, median(cell(s).runs.map((r) => r.msgsPerSec))]) },
    { name: 'store: a transaction per message', color: '#1b9e77', dashed: true, points: storeAt('message_txn', (p) => p.msgsPerSec) },
    { name: 'store: the grouped statement', color: '#7570b3', dashed: true, points: storeAt('grouped_statement', (p) => p.msgsPerSec) },
  ];
  const latency: Series[] = [
    { name: 'cluster p50', color: '#d95f02', points: sizes.map((s) => [s, median(cell(s).runs.map((r) => r.p50))]) },
    { name: 'cluster p99', color: '#e7298a', points: sizes.map((s) => [s, median(cell(s).runs.map((r) => r.p99))]) },
    { name: 'store: a transaction per message', color: '#1b9e77', dashed: true, points: storeAt('message_txn', (p) => p.latencyMs) },
  ];
  return chartSvg(title, sizes, throughput, latency);
}

/** The settings, the goals with their spread and every figure, as Markdown. */
export function markdown(f: Record<string, number>, g: Goal[], s: RunSettings): string {
  const env = Object.entries(s.env).map(([k, v]) => `${k}=${v}`).join(' ');
  const lines = [
    s.variant
      ? `Variant \`${s.variant}\` (not the production defaults): the services ran with ${env}.`
      : `Production defaults: the services ran with their own defaults (log level, auth cache, pools); the bench set only ${env}.`,
    '',
    '| figure | median | spread (min–max, runs) | goal |',
    '|---|---|---|---|',
  ];
  const spread = (k: string) => (f[`${k}_runs`] !== undefined ? `${f[`${k}_min`]}–${f[`${k}_max`]} (${f[`${k}_runs`]})` : '');
  for (const x of g) lines.push(`| \`${x.figure}\` | ${x.value} | ${spread(x.figure)} | ${x.goal} ${x.met ? '(met)' : '(NOT met)'} |`);
  lines.push('', '| figure | value |', '|---|---|');
  for (const [k, v] of Object.entries(f)) if (!g.some((x) => x.figure === k)) lines.push(`| \`${k}\` | ${v} |`);
  return `${lines.join('\n')}\n`;
}
