/**
 * A Postgres and a Redis of the fault test's own, so it can restart them mid-load without
 * touching the machine's shared ones: the embedded PostgreSQL of scripts/lib (its own data
 * directory and port) and a redis-server with an append-only file fsynced on every write.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { freePort } from '@chat/testing';

const root = path.resolve(__dirname, '../..');

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

export interface OwnPostgres {
  /** Server URL (database `postgres`); test databases are made on it. */
  url: string;
  /** Fast shutdown (every session terminated) and start again on the same port and data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chat-fault-pg-'));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'scripts/lib/test-postgres.mjs'), path.join(dir, 'data'), String(port)], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const waiters: Array<(line: string) => void> = [];
  lines.on('line', (line) => waiters.shift()?.(line));
  const nextLine = (timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('embedded PostgreSQL did not answer')), timeoutMs);
      waiters.push((line) => (clearTimeout(timer), resolve(line)));
    });
  const first = await nextLine(120000);
  if (!first.startsWith('ready ')) throw new Error(`embedded PostgreSQL: ${first}`);
  return {
    url: first.slice('ready '.length),
    async restart() {
      const ready = nextLine(120000);
      child.stdin!.write('restart\n');
      await ready;
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.stdin!.end('stop\n');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface OwnRedis {
  url: string;
  /** SIGTERM (the append-only file is flushed), then a new server on the same port and files. */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chat-fault-redis-'));
  const port = await freePort();
  let child: ChildProcess;
  const launch = async () => {
    child = spawn('redis-server', [
      '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '',
      '--appendonly', 'yes', '--appendfsync', 'always',
    ], { stdio: 'ignore' });
    for (let i = 0; i < 200 && !(await answers(port)); i++) await new Promise((r) => setTimeout(r, 50));
  };
  const halt = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart(downMs = 500) {
      await halt();
      await new Promise((r) => setTimeout(r, downMs));
      await launch();
    },
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
