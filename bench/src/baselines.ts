/**
 * The store's own speed, measured in the same run: pgbench on a full copy of the cluster's
 * database running one transaction per message and the send path's grouped statement, and
 * redis-benchmark running the Redis commands of one delivery.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { dropDatabase, ensureDatabase, withDatabase } from '@chat/db';
import { MANY_SQL } from '../../services/messaging/src/actions/send/grouped-write';
import { APPEND_SCRIPT } from './redis-scripts';

const run = promisify(execFile);

export interface PgbenchFigure {
  /** `message_txn`: one transaction per message; `grouped_statement`: the send path's grouped statement. */
  script: 'message_txn' | 'grouped_statement';
  subscribers: number;
  clients: number;
  /** Sends in each transaction (1 for `message_txn`). */
  group: number;
  /** Transactions a second. */
  tps: number;
  /** Messages a second: tps times the group size. */
  msgsPerSec: number;
  latencyMs: number;
}

/** A channel of the cluster's database, as the copy holds it. */
export interface StoreChannel {
  realmId: number;
  streamId: number;
  subscribers: number[];
}

/**
 * A full copy of the cluster's database (schema, foreign keys, indexes and every row the run
 * wrote so far), made with pg_dump and pg_restore into a new database on the same server, so
 * that pgbench writes into tables as large and as constrained as the cluster's.
 */
export async function copyDatabase(sourceUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${Math.floor(Date.now() / 1000)}_${randomBytes(6).toString('hex')}`;
  const url = withDatabase(sourceUrl, name);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-copy-'));
  const dump = path.join(dir, 'cluster.dump');
  try {
    await run('pg_dump', ['-Fc', '--no-owner', '--no-acl', '-f', dump, sourceUrl], { timeout: 600_000 });
    await ensureDatabase(url);
    await run('pg_restore', ['--no-owner', '--no-acl', '-d', url, dump], { timeout: 600_000 });
    await run('psql', [url, '-qc', 'VACUUM ANALYZE'], { timeout: 600_000 });
  } catch (err) {
    await dropDatabase(url).catch(() => undefined);
    throw err;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { url, drop: () => dropDatabase(url) };
}

/** The outbox payload of a send to `ch` from `sender`, as the send path writes it. */
function payloadOf(ch: StoreChannel, sender: number): string {
  return JSON.stringify({
    event: {
      type: 'message',
      message: {
        id: 0, sender_id: sender, content: '<p>bench message 1, sent=1700000000000</p>', type: 'stream', stream_id: ch.streamId,
        subject: 'bench', topic_links: [], reactions: [], submessages: [], flags: [], display_recipient: 'pgbench',
        sender_full_name: 'P 1', sender_email: 'p1@pgbench.test', avatar_url: null, timestamp: 1700000000, client: 'bench',
      },
    },
    users: ch.subscribers,
    stream_id: ch.streamId,
    user_flags: Object.fromEntries(ch.subscribers.map((u) => [u, u === sender ? ['read'] : []])),
  });
}

/** A SQL literal; a space after each colon, as pgbench would read `:name` as a variable. */
const literal = (text: string) => `'${text.replace(/":/g, '": ').replace(/'/g, "''")}'`;
const intArray = (values: number[]) => `'{${values.join(',')}}'`;

/**
 * One message as its own transaction: the message row, one user_messages row per subscriber and
 * the outbox row, committed, without NOTIFY. The sender is one of the subscribers, drawn at random.
 */
export function messageTxnScript(ch: StoreChannel): string {
  const sender = ch.subscribers[0]!;
  return [
    `\\set k random(1, ${ch.subscribers.length})`,
    'BEGIN;',
    `INSERT INTO messages (realm_id, sender_id, recipient_type, stream_id, topic, content, rendered_content, sending_client) VALUES (${ch.realmId}, (${intArray(ch.subscribers)}::int[])[:k], 'stream', ${ch.streamId}, 'bench', 'bench message 1, sent=1700000000000', '<p>bench message 1, sent=1700000000000</p>', 'bench') RETURNING id AS mid, sender_id AS sid \\gset`,
    `INSERT INTO user_messages (user_id, message_id, flags) SELECT u, :mid, CASE WHEN u = :sid THEN 1 ELSE 0 END FROM unnest(${intArray(ch.subscribers)}::int[]) u;`,
    `INSERT INTO outbox (realm_id, type, payload) VALUES (${ch.realmId}, 'message', ${literal(payloadOf(ch, sender))}::jsonb);`,
    'END;',
    '',
  ].join('\n');
}

/**
 * The send path's grouped statement (messaging's actions/send/grouped-write.ts, the very text) for `group` sends
 * to `ch`, its parameters written in as literals: one statement, one commit, one NOTIFY.
 */
export function groupedStatementScript(ch: StoreChannel, group: number): string {
  const senders = Array.from({ length: group }, (_, i) => ch.subscribers[i % ch.subscribers.length]!);
  const texts = (v: string) => `ARRAY[${Array.from({ length: group }, () => literal(v)).join(',')}]`;
  const bools = `'{${Array(group).fill('f').join(',')}}'`;
  const ord: number[] = [];
  const users: number[] = [];
  const flags: number[] = [];
  senders.forEach((s, i) => ch.subscribers.forEach((u) => {
    ord.push(i + 1);
    users.push(u);
    flags.push(u === s ? 1 : 0);
  }));
  const params: Record<number, string> = {
    1: intArray(Array(group).fill(ch.realmId)), 2: intArray(senders), 3: intArray(Array(group).fill(ch.streamId)),
    4: texts('bench'), 5: texts('bench message 1, sent=1700000000000'), 6: texts('<p>bench message 1, sent=1700000000000</p>'),
    7: texts('bench'), 8: `array_fill(localtimestamp, ARRAY[${group}])`, 9: bools, 10: bools, 11: bools, 12: bools,
    13: `ARRAY[${senders.map((s) => literal(payloadOf(ch, s))).join(',')}]`, 14: intArray(ord), 15: intArray(users), 16: intArray(flags),
  };
  return `${MANY_SQL.replace(/\$(\d+)/g, (_, n: string) => params[Number(n)]!)};\n`;
}

/** Runs `script` under pgbench for `seconds` with `clients` connections. */
export async function runPgbench(url: string, what: Omit<PgbenchFigure, 'tps' | 'msgsPerSec' | 'latencyMs'>, script: string, seconds: number): Promise<PgbenchFigure> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pgbench-'));
  const file = path.join(dir, `${what.script}-${what.subscribers}.sql`);
  writeFileSync(file, script);
  let stdout: string;
  try {
    ({ stdout } = await run('pgbench', ['-n', '-M', 'prepared', '-c', String(what.clients), '-j', String(Math.min(what.clients, 2)), '-T', String(seconds), '-f', file, url], { timeout: (seconds + 120) * 1000, maxBuffer: 16 << 20 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
  const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1]);
  const fig: PgbenchFigure = { ...what, tps: Math.round(tps * 10) / 10, msgsPerSec: Math.round(tps * what.group * 10) / 10, latencyMs };
  console.log(`  pgbench ${what.script.padEnd(17)} ${String(what.subscribers).padStart(4)} subscribers, group ${String(what.group).padStart(2)}, x${what.clients}: ${fig.msgsPerSec.toFixed(1).padStart(8)} msg/s  latency ${latencyMs} ms`);
  return fig;
}

export interface RedisFigure {
  command: string;
  opsPerSec: number;
}

/**
 * The Redis work of one delivery: the relay's XADD of the event, and per recipient queue the
 * append script (HINCRBY, ZADD, PEXPIRE, PUBLISH of the wake-up), here over 16 connections.
 */
export async function runRedisBenchmark(redisUrl: string, prefix: string, requests: number): Promise<RedisFigure[]> {
  const u = new URL(redisUrl);
  const base = ['-h', u.hostname, '-p', u.port || '6379', '-c', '16', '-n', String(requests), '--csv'];
  const event = JSON.stringify({ type: 'message', message: { id: 1, content: '<p>bench message</p>'.padEnd(400, ' ') } });
  const meta = `${prefix}rb:{q:1}:meta`;
  const events = `${prefix}rb:{q:1}:events`;
  const cases: Array<[string, string[]]> = [
    ['xadd', ['XADD', `${prefix}rb:stream`, 'MAXLEN', '~', '10000', '*', 'payload', event]],
    ['queue_append', ['EVAL', APPEND_SCRIPT, '2', meta, events, `${prefix}rb:wake`, '', '', event]],
    ['publish', ['PUBLISH', `${prefix}rb:wake`, event]],
  ];
  await run('redis-cli', ['-h', u.hostname, '-p', u.port || '6379', 'HSET', meta, 'seq', '0', 'user_id', '1']);
  await run('redis-cli', ['-h', u.hostname, '-p', u.port || '6379', 'PEXPIRE', meta, '600000']);
  const out: RedisFigure[] = [];
  for (const [command, args] of cases) {
    const { stdout } = await run('redis-benchmark', [...base, ...args], { timeout: 120_000 });
    const line = stdout.trim().split('\n').pop() ?? '';
    // "test","rps",avg,min,p50,p95,p99,max: the test name is the command and may hold commas.
    const fields = line.replace(/^"|"$/g, '').split('","');
    const opsPerSec = Number(fields[fields.length - 7]);
    out.push({ command, opsPerSec: Math.round(opsPerSec) });
    console.log(`  redis-benchmark ${command.padEnd(13)} ${Math.round(opsPerSec).toLocaleString().padStart(9)} ops/s`);
  }
  await run('redis-cli', ['-h', u.hostname, '-p', u.port || '6379', 'DEL', meta, events, `${prefix}rb:stream`]);
  return out;
}
