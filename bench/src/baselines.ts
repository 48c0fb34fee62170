/**
 * The store's own speed, measured in the same run: pgbench running the SQL of one send, and
 * redis-benchmark running the Redis commands of one delivery.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Db } from '@chat/db';
import { doCreateRealm } from '@chat/realm';
import { APPEND_SCRIPT } from './redis-scripts';

const run = promisify(execFile);

export interface PgbenchFigure {
  subscribers: number;
  clients: number;
  tps: number;
  latencyMs: number;
  /** false: the run without the outbox NOTIFY. */
  notify?: boolean;
}

/** A realm with `users` people and one channel, made with set-based SQL in a scratch database. */
export async function preparePgbench(db: Db, users: number): Promise<{ realmId: number; streamId: number; firstUser: number }> {
  const realm = await doCreateRealm(db, { stringId: 'pgbench', name: 'pgbench' });
  await db.$executeRawUnsafe(
    `INSERT INTO users (realm_id, email, delivery_email, full_name, api_key)
     SELECT $1, 'p' || g || '@pgbench.test', 'p' || g || '@pgbench.test', 'P ' || g, md5('pgbench' || g) FROM generate_series(1, $2) g`,
    realm.id, users,
  );
  const [{ first }] = await db.$queryRawUnsafe<Array<{ first: number }>>(`SELECT min(id) AS first FROM users WHERE realm_id = $1`, realm.id);
  await db.$executeRawUnsafe(`INSERT INTO streams (realm_id, name, name_key, creator_id) VALUES ($1, 'pgbench', 'pgbench', $2)`, realm.id, first);
  const stream = await db.stream.findFirstOrThrow({ where: { realmId: realm.id } });
  return { realmId: realm.id, streamId: stream.id, firstUser: first };
}

/**
 * One send as SQL: the message, one user_messages row per recipient, the outbox row with the
 * event (a message of the size ours carry, the recipients and their flags) and its NOTIFY.
 */
function sendScript(realmId: number, streamId: number, firstUser: number, subscribers: number, notify: boolean): string {
  const users = Array.from({ length: subscribers }, (_, i) => firstUser + i);
  const payload = {
    event: {
      type: 'message',
      message: {
        id: 0, sender_id: firstUser, content: '<p>bench message 1, sent=1700000000000</p>', type: 'stream', stream_id: streamId,
        subject: 'bench', topic_links: [], reactions: [], submessages: [], flags: [], display_recipient: 'pgbench',
        sender_full_name: 'P 1', sender_email: 'p1@pgbench.test', avatar_url: null, timestamp: 1700000000, client: 'bench',
      },
    },
    users,
    stream_id: streamId,
    user_flags: Object.fromEntries(users.map((u) => [u, u === firstUser ? ['read'] : []])),
  };
  // A space after each colon: pgbench would read `:null` as a variable.
  const json = JSON.stringify(payload).replace(/":/g, '": ').replace(/'/g, "''");
  return [
    `\\set sender random(${firstUser}, ${firstUser + subscribers - 1})`,
    'BEGIN;',
    `INSERT INTO messages (realm_id, sender_id, recipient_type, stream_id, topic, content, rendered_content, sending_client) VALUES (${realmId}, :sender, 'stream', ${streamId}, 'bench', 'bench message 1, sent=1700000000000', '<p>bench message 1, sent=1700000000000</p>', 'bench') RETURNING id AS mid \\gset`,
    `INSERT INTO user_messages (user_id, message_id, flags) SELECT u, :mid, CASE WHEN u = :sender THEN 1 ELSE 0 END FROM generate_series(${firstUser}, ${firstUser + subscribers - 1}) u;`,
    `WITH inserted AS (INSERT INTO outbox (realm_id, type, payload) VALUES (${realmId}, 'message', '${json}'::jsonb) RETURNING id) SELECT id${notify ? ", pg_notify('outbox', '')" : ''} FROM inserted;`,
    'END;',
    '',
  ].join('\n');
}

/**
 * `notify: false` leaves out the outbox's NOTIFY: Postgres serialises the commits of
 * transactions that notify, and the difference shows what that costs.
 */
export async function runPgbench(url: string, prepared: { realmId: number; streamId: number; firstUser: number }, subscribers: number, clients: number, seconds: number, notify = true): Promise<PgbenchFigure> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pgbench-'));
  const file = path.join(dir, `send-${subscribers}.sql`);
  writeFileSync(file, sendScript(prepared.realmId, prepared.streamId, prepared.firstUser, subscribers, notify));
  let stdout: string;
  try {
    ({ stdout } = await run('pgbench', ['-n', '-M', 'prepared', '-c', String(clients), '-j', String(Math.min(clients, 2)), '-T', String(seconds), '-f', file, url], { timeout: (seconds + 60) * 1000 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
  const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1]);
  const fig: PgbenchFigure = { subscribers, clients, tps: Math.round(tps * 10) / 10, latencyMs, ...(notify ? {} : { notify }) };
  console.log(`  pgbench send of ${String(subscribers).padStart(4)} x${String(clients).padEnd(3)} ${fig.tps.toFixed(1).padStart(8)} tps  latency ${latencyMs} ms${notify ? '' : '  (without NOTIFY)'}`);
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
