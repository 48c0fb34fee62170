/**
 * The load generator's processes, each bounded in count and in time: separate processes, so
 * that the bench's own bookkeeping never sits in the load's event loop and the load's CPU is
 * each process's own.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { cpuMsOf, ownCpuMs } from './cpu';

/** Load processes running now, and the CPU of those that ended (as they last reported it). */
const live = new Set<ChildProcess>();
let endedCpuMs = 0;

/**
 * CPU so far of the bench and every load process it started, in milliseconds: a counter to read
 * around a phase. An ended process counts with the CPU its last report gave.
 */
export function loadCpuMs(): number {
  let sum = ownCpuMs() + endedCpuMs;
  for (const child of live) sum += cpuMsOf(child.pid);
  return sum;
}

/** Starts a load process on `file` and sends it its task. */
export function startLoad(file: string, data: object): ChildProcess {
  const child = fork(path.join(__dirname, 'workers', file), [], {
    // Plain JavaScript: none of the bench's loader; no memory reducer, as for the bench (run.mjs).
    execArgv: ['--no-memory-reducer'], serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  live.add(child);
  child.on('message', (m: { cpuMs?: number }) => {
    // A final report: its CPU is the process's whole (it exits right after).
    if (typeof m?.cpuMs === 'number' && live.delete(child)) endedCpuMs += m.cpuMs;
  });
  child.once('exit', () => live.delete(child));
  child.send(data);
  return child;
}

export interface SenderJob {
  auth: string;
  path: string;
  /** Form body; `__SENT__` is replaced by the send time in ms. */
  body: string;
}

export interface SenderReport {
  latencies: number[];
  /** Per measured send: the send time its content carries (ms since the epoch), and its latency. */
  sends: Array<[sent: number, ms: number]>;
  done: number;
  errors: Record<string, number>;
  seconds: number;
}

/** Most processes a load step uses: the machine's cores run the cluster too. */
export const MAX_PROCESSES = 4;

type SenderOptions = { url: string; host: string; jobs: SenderJob[]; concurrency: number; durationMs: number; warmupMs: number; ratePerSec?: number };

/** Sender processes started and connected, waiting for `go()` to start their clock. */
export interface ReadySenders {
  ready: Promise<void>;
  go(): Promise<SenderReport>;
}

export function startSenders(opts: SenderOptions): ReadySenders {
  const processes = Math.min(MAX_PROCESSES, Math.max(1, Math.ceil(opts.concurrency / 16)));
  const per = Array.from({ length: processes }, (_, t) => Math.floor(opts.concurrency / processes) + (t < opts.concurrency % processes ? 1 : 0));
  let offset = 0;
  const children = per.map((concurrency) => {
    const jobs = opts.jobs.slice(offset, offset + concurrency);
    offset += concurrency;
    const child = startLoad('sender.mjs', {
      url: opts.url, host: opts.host, jobs: jobs.length ? jobs : opts.jobs, concurrency,
      durationMs: opts.durationMs, warmupMs: opts.warmupMs,
      ratePerSec: opts.ratePerSec ? opts.ratePerSec / processes : undefined,
    });
    let readied!: () => void;
    const ready = new Promise<void>((resolve) => (readied = resolve));
    const reported = new Promise<SenderReport>((resolve, reject) => {
      // A stuck process must not hold the run: it gets its duration and two minutes to start, wait and end.
      const limit = setTimeout(() => child.kill(), opts.durationMs + opts.warmupMs + 120_000);
      child.on('message', (m: SenderReport | { ready: true }) => ('ready' in m ? readied() : resolve(m)));
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        clearTimeout(limit);
        readied();
        reject(new Error(`sender process ended (${signal ?? code}) before reporting`));
      });
    });
    // Not awaited until go(): a process that fails early must not be an unhandled rejection.
    reported.catch(() => undefined);
    return { child, ready, reported };
  });
  return {
    ready: Promise.all(children.map((c) => c.ready)).then(() => undefined),
    go: () => {
      for (const c of children) if (c.child.connected) c.child.send('go');
      return Promise.all(children.map((c) => c.reported)).then((reports) => ({
        latencies: reports.flatMap((r) => r.latencies),
        sends: reports.flatMap((r) => r.sends),
        done: reports.reduce((n, r) => n + r.done, 0),
        errors: Object.assign({}, ...reports.map((r) => r.errors)),
        seconds: Math.max(...reports.map((r) => r.seconds)),
      }));
    },
  };
}

export interface PollerReport {
  /** Per delivery: the send time its message carries, and its latency. */
  latencies: Array<[sent: number, ms: number]>;
  errors: Record<string, number>;
  /** Per message (by the send time its content carries): first and last recipient's latency, and how many. */
  perMessage: Array<[sent: number, first: number, last: number, count: number]>;
}

export interface Pollers {
  /** What every process received since the last flush; the polls go on. */
  flush(): Promise<PollerReport>;
  stop(): Promise<PollerReport>;
}

export function startPollers(opts: { urls: string[]; host: string; clients: Array<{ auth: string; queueId: string; lastEventId: number }>; processes: number; staggerMs: number }): Pollers {
  const children = Array.from({ length: opts.processes }, (_, t) => startLoad('poller.mjs', {
    url: opts.urls[t % opts.urls.length], host: opts.host, clients: opts.clients.filter((_, i) => i % opts.processes === t), staggerMs: opts.staggerMs,
  }));
  for (const c of children) c.on('error', (err) => console.error('poller process failed:', err));
  const flushOne = (c: ChildProcess) => new Promise<PollerReport>((resolve) => {
    const limit = setTimeout(() => {
      c.off('message', got);
      resolve({ latencies: [], errors: { 'poller process did not flush': 1 }, perMessage: [] });
    }, 30_000);
    function got(m: { flushed?: PollerReport }) {
      if (!m?.flushed) return;
      clearTimeout(limit);
      c.off('message', got);
      resolve(m.flushed);
    }
    c.on('message', got);
    if (c.connected) c.send('flush');
  });
  return {
    flush: async () => {
      const reports = await Promise.all(children.map(flushOne));
      return {
        latencies: reports.flatMap((r) => r.latencies),
        errors: Object.assign({}, ...reports.map((r) => r.errors)),
        perMessage: mergePerMessage(reports.map((r) => r.perMessage)),
      };
    },
    stop: async () => {
      const reports = await Promise.all(children.map((c) => new Promise<PollerReport>((resolve) => {
        const failed = (why: string) => resolve({ latencies: [], errors: { [why]: 1 }, perMessage: [] });
        const limit = setTimeout(() => {
          c.kill();
          failed('poller process did not answer');
        }, 10_000);
        const got = (m: PollerReport & { flushed?: unknown }) => {
          if (m?.flushed) return;
          c.off('message', got);
          clearTimeout(limit);
          resolve(m);
        };
        c.on('message', got);
        c.once('exit', () => {
          clearTimeout(limit);
          failed('poller process ended before reporting');
        });
        if (c.connected) c.send('stop');
      })));
      return {
        latencies: reports.flatMap((r) => r.latencies),
        errors: Object.assign({}, ...reports.map((r) => r.errors)),
        perMessage: mergePerMessage(reports.map((r) => r.perMessage)),
      };
    },
  };
}

/** One entry per message across the processes: the earliest first and the latest last recipient. */
function mergePerMessage(lists: PollerReport['perMessage'][]): PollerReport['perMessage'] {
  const merged = new Map<number, [number, number, number, number]>();
  for (const [sent, first, last, count] of lists.flat()) {
    const m = merged.get(sent);
    if (m) {
      m[1] = Math.min(m[1], first);
      m[2] = Math.max(m[2], last);
      m[3] += count;
    } else merged.set(sent, [sent, first, last, count]);
  }
  return [...merged.values()];
}
