import { groupedStatementScript, messageTxnScript, type PgbenchFigure } from '../baselines';
import type { DeliveryRun } from '../online';
import type { SendFigure, RegisterFigure } from '../phases';
import { figures, goals, GOALS, markdown, type Measurements } from '../report';
import { median, repeated } from '../stats';

const send = (msgsPerSec: number): SendFigure => ({
  target: 10, concurrency: 16, msgsPerSec, p50: 20, p90: 30, p99: 40, sent: msgsPerSec * 8, errors: {},
  cpuMsPerSend: { 'gateway-1': 1, 'messaging-1': 2, postgres: 1.5, redis: 0.5, bench_load: 3 },
});
const store = (script: PgbenchFigure['script'], subscribers: number, msgsPerSec: number): PgbenchFigure => ({
  script, subscribers, clients: 16, group: script === 'message_txn' ? 1 : 8, tps: msgsPerSec, msgsPerSec, latencyMs: 10,
});
const delivery = (msgsPerSec: number, p99: number): DeliveryRun => ({
  messages: 1000, sendSeconds: 10, msgsPerSec, deliveries: 200_000, expected: 200_000, p50: p99 / 3, p99, sendP50: 12, errors: {},
  cpuUsPerEvent: { 'gateway-1': 10, 'events-1': 8, 'messaging-1': 5, postgres: 3, redis: 4, bench_load: 20 },
});
const register = (users: number, p50: number): RegisterFigure => ({ users, rounds: 700, p50, p90: p50 * 2, p99: p50 * 3, bytes: 2048 });

const m: Measurements = {
  settings: { env: { NODE_ENV: 'production', LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '0' } },
  sends: [10, 200].map((subscribers) => ({
    subscribers, senders: 16, runs: [send(300), send(200), send(250)], groupSizes: [7.6, 8.2, 8],
  })),
  store: [10, 200].flatMap((s) => [100, 1000, 500].flatMap((v) => [store('message_txn', s, v), store('grouped_statement', s, v * 4)])),
  redis: [{ command: 'queue_append', opsPerSec: 50_000 }],
  online: { recipients: 200, held: 200, offered: 50, saturation: [delivery(60, 900), delivery(70, 800), delivery(65, 1000)], at50: [delivery(50, 300), delivery(50, 200), delivery(50, 400)] },
  active: { held: 10_000, receivers: 2_000, channels: 20, size: 100, ratePerSec: 20, runs: [delivery(20, 80), delivery(20, 90), delivery(20, 120)] },
  register: [{ key: '1k', runs: [register(1000, 30), register(1000, 20), register(1000, 25)] }, { key: '10k', runs: [register(10_000, 160), register(10_000, 140), register(10_000, 150)] }],
  narrow: { copies: 10_000_100, messages: 95_239, runs: [18, 15, 25].map((p50) => ({ name: 'channel', returned: 1000, samples: 667, p50, p90: p50, p99: p50 * 2, warmupP50: p50 })) },
};

describe('bench report', () => {
  it('gives every key of the issue, each the median of its runs with the spread beside it', () => {
    const f = figures(m);
    for (const [key] of GOALS) {
      expect(f[key]).toEqual(expect.any(Number));
      expect(f[`${key}_runs`]).toBe(3);
      expect(f[`${key}_min`]).toBeLessThanOrEqual(f[key]!);
      expect(f[`${key}_max`]).toBeGreaterThanOrEqual(f[key]!);
    }
    expect(f).toMatchObject({
      production_defaults: 1,
      send_c10_x16_msgs_per_s: 250,
      // The ratio of the medians: 250 sends a second against the store's 500 messages.
      send_c10_x16_msgs_per_s_vs_store: 0.5,
      send_c200_x16_msgs_per_s_vs_grouped_statement: 0.125,
      send_c10_x16_group_size: 8,
      store_message_txn_c200_x16_msgs_per_s: 500,
      store_grouped_statement_c10_x16_group: 8,
      online_c200_msgs_per_s: 65,
      online_c200_delivery_p99_ms_at_50: 300,
      online_c200_delivery_at_50_samples: 600_000,
      online_c200_delivery_at_50_delivered_ratio: 1,
      // The cluster's processes only: the load generator's 20 µs is apart.
      cpu_us_per_delivered_event: 30,
      cpu_us_per_delivered_event_bench_load: 20,
      active_10k_delivery_p99_ms: 90,
      active_10k_held_polls: 10_000,
      register_p50_ms_1k: 25,
      register_p50_ms_10k: 150,
      register_1k_samples: 2100,
      narrow_channel_p50_ms_10m: 18,
      narrow_10m_user_messages: 10_000_100,
      narrow_10m_samples: 2001,
      send_c10_x16_cpu_ms_per_send_cluster: 5,
    });
    for (const v of Object.values(f)) expect(Number.isFinite(v)).toBe(true);
  });

  it('judges each goal of the issue and says what the services ran with', () => {
    const g = goals(figures(m));
    const met = Object.fromEntries(g.map((x) => [x.figure, x.met]));
    expect(met).toEqual({
      send_c10_x16_msgs_per_s_vs_store: true, send_c200_x16_msgs_per_s_vs_store: true,
      online_c200_msgs_per_s: false, online_c200_delivery_p99_ms_at_50: false, cpu_us_per_delivered_event: true,
      active_10k_delivery_p99_ms: true, register_p50_ms_1k: true, register_p50_ms_10k: true, narrow_channel_p50_ms_10m: true,
    });
    const md = markdown(figures(m), g, m.settings);
    expect(md).toContain('Production defaults');
    expect(md).toContain('| `online_c200_msgs_per_s` | 65 | 60–70 (3) | >= 200 msg/s (NOT met) |');
    const variant = { variant: 'quiet-logs', env: { LOG_LEVEL: 'error' } };
    expect(figures({ ...m, settings: variant }).production_defaults).toBe(0);
    expect(markdown(figures(m), g, variant)).toContain('Variant `quiet-logs`');
  });

  it('takes medians and spreads of runs', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(repeated([5, 1, 9])).toEqual({ median: 5, min: 1, max: 9, runs: [5, 1, 9] });
  });

  it('writes the store baselines as pgbench scripts: a transaction per message, and the send path\'s grouped statement', () => {
    const ch = { realmId: 3, streamId: 7, subscribers: [11, 12, 13] };
    const txn = messageTxnScript(ch);
    expect(txn).toContain('BEGIN;');
    expect(txn).toContain('INSERT INTO user_messages');
    expect(txn).toContain('INSERT INTO outbox');
    expect(txn).not.toContain('pg_notify');
    const grouped = groupedStatementScript(ch, 4);
    expect(grouped).not.toMatch(/\$\d/);
    expect(grouped).toContain('WITH input AS MATERIALIZED');
    expect(grouped).toContain("pg_notify('outbox', '')");
    // Four sends of three copies each: twelve copies tagged with their send's place.
    expect(grouped).toContain("'{1,1,1,2,2,2,3,3,3,4,4,4}'::int[]");
    expect(grouped).not.toMatch(/":[^ ]/);
  });
});
