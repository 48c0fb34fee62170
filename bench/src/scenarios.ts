/**
 * The bench's scenarios, each run `plan.runs` times: sends with nobody online against the store's
 * two baselines, a channel of 200 all online with interactive sends, register in realms of 1,000
 * and 10,000, 10,000 held polls of which thousands receive messages, and a narrow on a history
 * of ten million copies.
 */
import type { Db } from '@chat/db';
import { createActiveRealm, channelJobs, queuesFor } from './active';
import type { Account, Site } from './api';
import { copyDatabase, groupedStatementScript, messageTxnScript, runPgbench, type PgbenchFigure } from './baselines';
import type { Measured } from './cpu';
import { loadHistory, measureChannelNarrow, type NarrowFigure } from './narrow';
import { deliveryRun, dropClients, holdPolls, interactiveJobs, registerClients, type DeliveryRun } from './online';
import { measureRegister, measureSends, type RegisterFigure, type Timing } from './phases';
import type { Measurements, SendCell } from './report';
import { times } from './stats';

export interface Plan {
  runs: number;
  users: number;
  fanouts: number[];
  senders: number;
  send: Timing;
  pgSeconds: number;
  online: Timing;
  /** Sends a second offered for the online channel's delivery latency. */
  offered: number;
  /** Registers measured per run. */
  registerRounds: number;
  big: { people: number; channels: number; size: number; polls: number; rate: number; timing: Timing };
  /** user_messages rows of the narrow's history. */
  historyCopies: number;
  narrowRounds: number;
  redisRequests: number;
  web: { logins: number; switches: number; longTopic: number };
}

export interface Run {
  plan: Plan;
  db: Db;
  site: Site;
  realm: { id: number; owner: Account };
  users: Account[];
  channels: Map<number, number>;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  externalHost: string;
  url: string;
  pollUrls: string[];
  gatewayMetricsUrls: string[];
  messagingMetricsUrl?: string;
  measured?: () => Promise<Measured[]>;
  settled(phase: string): Promise<void>;
}

/** Messaging's grouping counters of channel-send writes (actions/send/metrics.ts). */
async function writeStats(url: string | undefined): Promise<{ statements: number; groups: number; grouped: number } | undefined> {
  if (!url) return undefined;
  const text = await fetch(`${url}/metrics`).then((r) => r.text(), () => '');
  const read = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+]+)`, 'm').exec(text)?.[1] ?? NaN);
  return { statements: read('messaging_send_write_statements_total'), groups: read('messaging_send_write_groups_total'), grouped: read('messaging_send_writes_grouped_total') };
}

/** 16 senders to each channel size, nobody online; the mean sends per write statement of each run. */
export async function runSends(r: Run): Promise<SendCell[]> {
  console.log('sends through the gateway, nobody online');
  await r.settled('sends');
  const cells: SendCell[] = [];
  for (const subscribers of r.plan.fanouts) {
    const cell: SendCell = { subscribers, senders: r.plan.senders, runs: [], groupSizes: [] };
    for (let i = 0; i < r.plan.runs; i++) {
      const before = await writeStats(r.messagingMetricsUrl);
      cell.runs.push(...await measureSends(r.site, r.users, r.channels, [subscribers], [r.plan.senders], r.plan.send, r.measured));
      const after = await writeStats(r.messagingMetricsUrl);
      if (before && after) {
        const statements = after.statements - before.statements;
        const groups = after.groups - before.groups;
        const writes = after.grouped - before.grouped + (statements - groups);
        cell.groupSizes.push(Math.round((writes / Math.max(1, statements)) * 10) / 10);
      }
    }
    console.log(`  channel of ${subscribers}: ${cell.groupSizes.join(', ')} sends per write statement`);
    cells.push(cell);
  }
  return cells;
}

/**
 * pgbench on a full copy of the cluster's database: one transaction per message, and the send
 * path's grouped statement at the group size the sends phase observed, 16 clients each.
 */
export async function runStore(r: Run, sends: Measurements['sends']): Promise<PgbenchFigure[]> {
  console.log('pgbench on a copy of the cluster\'s database');
  await r.settled('store');
  const copy = await copyDatabase(r.databaseUrl);
  const out: PgbenchFigure[] = [];
  try {
    for (const subscribers of r.plan.fanouts) {
      const streamId = r.channels.get(subscribers)!;
      const rows = await r.db.$queryRawUnsafe<Array<{ user_id: number }>>('SELECT user_id FROM subscriptions WHERE stream_id = $1 AND active ORDER BY user_id', streamId);
      const ch = { realmId: r.realm.id, streamId, subscribers: rows.map((x) => x.user_id) };
      const observed = sends.find((c) => c.subscribers === subscribers)?.groupSizes ?? [];
      const group = Math.max(1, Math.round(observed.length ? [...observed].sort((a, b) => a - b)[Math.floor(observed.length / 2)]! : 1));
      const base = { subscribers, clients: r.plan.senders };
      for (let i = 0; i < r.plan.runs; i++) {
        out.push(await runPgbench(copy.url, { ...base, script: 'message_txn', group: 1 }, messageTxnScript(ch), r.plan.pgSeconds));
        out.push(await runPgbench(copy.url, { ...base, script: 'grouped_statement', group }, groupedStatementScript(ch, group), r.plan.pgSeconds));
      }
    }
  } finally {
    await copy.drop();
  }
  return out;
}

/** The channel of 200, every member registered and long-polling, every send interactive. */
export async function runOnline(r: Run): Promise<NonNullable<Measurements['online']>> {
  console.log('a channel of 200 all online, interactive sends');
  await r.settled('online');
  const members = r.users.slice(0, 200);
  const channelId = r.channels.get(200)!;
  const clients = await registerClients(r.site, members);
  const { pollers, held } = await holdPolls(r.pollUrls, r.site.host, r.gatewayMetricsUrls, clients);
  const jobs = interactiveJobs(clients.slice(0, r.plan.senders), channelId);
  const saturation: DeliveryRun[] = [];
  const at50: DeliveryRun[] = [];
  try {
    for (let i = 0; i < r.plan.runs; i++) {
      console.log(`  run ${i + 1}: as fast as answered, ${r.plan.senders} senders`);
      saturation.push(await deliveryRun(r.site, pollers, jobs, r.plan.senders, () => members.length, r.plan.online, undefined, r.measured));
      console.log(`  run ${i + 1}: offered ${r.plan.offered} msg/s`);
      at50.push(await deliveryRun(r.site, pollers, jobs, r.plan.senders, () => members.length, r.plan.online, r.plan.offered, r.measured));
    }
  } finally {
    await pollers.stop();
    await dropClients(r.site, clients);
  }
  return { recipients: members.length, held, saturation, at50, offered: r.plan.offered };
}

/** Register's whole initial state as `user`, `plan.registerRounds` a run. */
export async function runRegister(r: Run, site: Site, user: Account, realmId: number): Promise<RegisterFigure[]> {
  await r.settled('register');
  const people = await r.db.user.count({ where: { realmId, isActive: true } });
  console.log(`register in a realm of ${people}`);
  return times(r.plan.runs, () => measureRegister(site, user, people, r.plan.registerRounds, r.measured));
}

/** The realm of 10,000: register there, then its held polls with the channels' members receiving. */
export async function runActive(r: Run, active: boolean, register: boolean): Promise<{ register?: RegisterFigure[]; active?: Measurements['active'] }> {
  const b = r.plan.big;
  console.log(`a realm of ${b.people.toLocaleString()}`);
  const big = await createActiveRealm(r.db, r.url, r.externalHost, b.people, b.channels, b.size);
  const out: { register?: RegisterFigure[]; active?: Measurements['active'] } = {};
  if (register) out.register = await runRegister(r, big.site, big.users[big.users.length - 1]!, big.id);
  if (!active) return out;
  console.log(`${b.polls.toLocaleString()} held polls, ${b.channels} channels of ${b.size} receiving ${b.rate} msg/s`);
  await r.settled('active');
  const queues = await queuesFor(r.redisUrl, r.redisPrefix, big.id, big.users.slice(0, b.polls));
  const { pollers, held } = await holdPolls(r.pollUrls, big.site.host, r.gatewayMetricsUrls, queues);
  const jobs = channelJobs(big.channels);
  const runs: DeliveryRun[] = [];
  try {
    for (let i = 0; i < r.plan.runs; i++) runs.push(await deliveryRun(big.site, pollers, jobs, Math.min(16, jobs.length), () => b.size, b.timing, b.rate, r.measured));
  } finally {
    await pollers.stop();
  }
  out.active = { held, receivers: b.channels * b.size, channels: b.channels, size: b.size, ratePerSec: b.rate, runs };
  return out;
}

/** A history of ten million copies over the realm's channels, then a channel's newest 1,000. */
export async function runNarrow(r: Run): Promise<NonNullable<Measurements['narrow']>> {
  console.log(`narrowed fetches on a history of ${r.plan.historyCopies.toLocaleString()} copies`);
  await r.settled('narrow');
  const streamIds = [...r.channels.values()];
  const messages = await loadHistory(r.db, r.realm.id, streamIds, r.users.slice(0, 10).map((u) => u.id), r.plan.historyCopies);
  const [{ n }] = await r.db.$queryRawUnsafe<Array<{ n: number }>>('SELECT count(*)::int AS n FROM user_messages');
  const viewer = r.users[0]!;
  const channel = r.channels.get(Math.max(...r.plan.fanouts))!;
  const runs: NarrowFigure[] = await times(r.plan.runs, (i) => measureChannelNarrow(r.site, viewer, channel, r.plan.narrowRounds, i === 0 ? 30 : 5));
  return { copies: n, messages, runs };
}
