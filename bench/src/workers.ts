/** Worker threads of the load generator, each bounded in count and in time. */
import path from 'node:path';
import { Worker } from 'node:worker_threads';

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

/** Most threads a load step uses: the machine's cores run the cluster too. */
export const MAX_THREADS = 4;

export function runSenders(
  opts: { url: string; host: string; jobs: SenderJob[]; concurrency: number; durationMs: number; warmupMs: number; ratePerSec?: number },
): Promise<SenderReport> {
  const threads = Math.min(MAX_THREADS, Math.max(1, Math.ceil(opts.concurrency / 16)));
  const per = Array.from({ length: threads }, (_, t) => Math.floor(opts.concurrency / threads) + (t < opts.concurrency % threads ? 1 : 0));
  let offset = 0;
  const runs = per.map((concurrency) => {
    const jobs = opts.jobs.slice(offset, offset + concurrency);
    offset += concurrency;
    return new Promise<SenderReport>((resolve, reject) => {
      const worker = new Worker(path.join(__dirname, 'workers/sender.mjs'), {
        workerData: {
          url: opts.url, host: opts.host, jobs: jobs.length ? jobs : opts.jobs, concurrency,
          durationMs: opts.durationMs, warmupMs: opts.warmupMs,
          ratePerSec: opts.ratePerSec ? opts.ratePerSec / threads : undefined,
        },
      });
      // A stuck thread must not hold the run: it gets its duration and a margin.
      const limit = setTimeout(() => void worker.terminate(), opts.durationMs + opts.warmupMs + 60_000);
      worker.once('message', (m: SenderReport) => resolve(m));
      worker.once('error', reject);
      worker.once('exit', () => clearTimeout(limit));
    });
  });
  return Promise.all(runs).then((reports) => ({
    latencies: reports.flatMap((r) => r.latencies),
    sends: reports.flatMap((r) => r.sends),
    done: reports.reduce((n, r) => n + r.done, 0),
    errors: Object.assign({}, ...reports.map((r) => r.errors)),
    seconds: Math.max(...reports.map((r) => r.seconds)),
  }));
}

export interface PollerReport {
  latencies: number[];
  errors: Record<string, number>;
  delivered: number;
  /** Per message (by the send time its content carries): first and last recipient's latency, and how many. */
  perMessage: Array<[sent: number, first: number, last: number, count: number]>;
}

export interface Pollers {
  measure(): void;
  stop(): Promise<PollerReport>;
}

export function startPollers(opts: { url: string; host: string; clients: Array<{ auth: string; queueId: string; lastEventId: number }>; threads: number; staggerMs: number }): Pollers {
  const workers = Array.from({ length: opts.threads }, (_, t) => new Worker(path.join(__dirname, 'workers/poller.mjs'), {
    workerData: { url: opts.url, host: opts.host, clients: opts.clients.filter((_, i) => i % opts.threads === t), staggerMs: opts.staggerMs },
  }));
  for (const w of workers) w.on('error', (err) => console.error('poller thread failed:', err));
  return {
    measure: () => workers.forEach((w) => w.postMessage('measure')),
    stop: async () => {
      const reports = await Promise.all(workers.map((w) => new Promise<PollerReport>((resolve) => {
        const limit = setTimeout(() => {
          void w.terminate();
          resolve({ latencies: [], errors: { 'thread did not answer': 1 }, delivered: 0, perMessage: [] });
        }, 10_000);
        w.once('message', (m: PollerReport) => {
          clearTimeout(limit);
          resolve(m);
        });
        w.postMessage('stop');
      })));
      return {
        latencies: reports.flatMap((r) => r.latencies),
        errors: Object.assign({}, ...reports.map((r) => r.errors)),
        delivered: reports.reduce((n, r) => n + r.delivered, 0),
        perMessage: mergePerMessage(reports.map((r) => r.perMessage)),
      };
    },
  };
}

/** One entry per message across the threads: the earliest first and the latest last recipient. */
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
