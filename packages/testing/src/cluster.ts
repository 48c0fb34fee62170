/**
 * Starts the real services as separate processes (node --import tsx services/<name>/src/main.ts)
 * on free ports, for end-to-end and multi-replica tests. Each process gets the test file's
 * database and Redis prefix; replicas of a service share them like production replicas do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { SERVICE_NODE_ARGS, type ServiceName } from '@chat/contracts';
import type { TestEnv } from './index';

const root = path.resolve(__dirname, '../../..');
const BACKENDS = ['messaging', 'users', 'events', 'uploads', 'push'] as const;
/** How much of a process's output is kept for failure messages. */
const OUTPUT_TAIL = 20000;
/** SIGTERM lets a process drain; after this long it is killed. */
const STOP_GRACE_MS = 15000;

/** One real service process. */
export interface ServiceProcess {
  service: ServiceName;
  /** SERVICE_NAME of the process (its name in logs and leases): `service` unless given. */
  label: string;
  url: string;
  port: number;
  child: ChildProcess;
  /** The tail of what the process wrote, for failure messages. */
  output(): string;
  /**
   * Sends `signal` (SIGTERM: drain and exit) and waits for the exit, killing the process if it
   * has not exited after a grace period; resolves with the exit code (null after a signal).
   */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** SIGKILL: a crash, no shutdown hooks (leases and pending entries are left behind). */
  kill(): Promise<void>;
}

/** A process of a cluster started by startCluster. */
export type ClusterProcess = ServiceProcess;

export interface StartServiceOptions {
  /** SERVICE_NAME of the process, e.g. "events-a" for one of two replicas. */
  label?: string;
  readyTimeoutMs?: number;
  /** Extra arguments for node itself, e.g. ['--cpu-prof'] to profile a benchmark's process. */
  nodeArgs?: string[];
}

export interface Cluster {
  /** First gateway. */
  url: string;
  gateways: ClusterProcess[];
  processes: ClusterProcess[];
  /** Starts one more replica of a service (same env), e.g. a second events replica. */
  addReplica(service: ServiceName, env?: Record<string, string>): Promise<ClusterProcess>;
  /** Stops one process: SIGTERM drains, SIGKILL simulates a crash. */
  kill(proc: ClusterProcess, signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Extra environment for every process. */
  env?: Record<string, string>;
  /** Replicas per service (default 1 each). */
  replicas?: Partial<Record<ServiceName, number>>;
  /** Extra node arguments per service, e.g. `{ messaging: ['--cpu-prof'] }` to profile a benchmark. */
  nodeArgs?: Partial<Record<ServiceName, string[]>>;
  /** How long each process may take to answer /readyz (startService's default unless given). */
  readyTimeoutMs?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts `service` as production runs it, configured by `env` (over this process's environment,
 * LOG_LEVEL warn unless given), on a free port, and resolves once it answers /readyz. A process
 * that exits or is not ready in time is killed, and the error carries its output.
 */
export async function startService(service: ServiceName, env: Record<string, string>, opts: StartServiceOptions = {}): Promise<ServiceProcess> {
  const label = opts.label ?? service;
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVICE_NODE_ARGS[service], ...(opts.nodeArgs ?? []), '--import', 'tsx', `services/${service}/src/main.ts`], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1', SERVICE_NAME: label },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_TAIL);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const running = () => child.exitCode === null && child.signalCode === null;
  const proc: ServiceProcess = {
    service,
    label,
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (!running()) return exited;
      const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.kill(signal);
      const code = await exited;
      clearTimeout(force);
      return code;
    },
    async kill() {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
  };
  const timeoutMs = opts.readyTimeoutMs ?? 60000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!running()) throw new Error(`${label} exited (${child.exitCode ?? child.signalCode}) while starting:\n${output}`);
    if (await fetch(`${proc.url}/readyz`).then((r) => r.ok, () => false)) return proc;
    if (Date.now() > deadline) {
      await proc.kill();
      throw new Error(`${label} was not ready after ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startCluster(env: TestEnv, opts: ClusterOptions = {}): Promise<Cluster> {
  const processes: ClusterProcess[] = [];
  const baseEnv: Record<string, string> = {
    ...env.env,
    LOG_LEVEL: process.env.CLUSTER_LOG_LEVEL ?? 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    ...opts.env,
  };
  const backendUrls: Record<string, string> = {};

  const launch = async (service: ServiceName, extra: Record<string, string> = {}): Promise<ClusterProcess> => {
    const proc = await startService(service, { ...baseEnv, ...backendUrls, ...extra }, { nodeArgs: opts.nodeArgs?.[service], readyTimeoutMs: opts.readyTimeoutMs });
    processes.push(proc);
    return proc;
  };

  try {
    // Settled, not all: on a failure every sibling still starting must be in `processes` to be
    // killed below, or it would outlive the run.
    const settled = await Promise.allSettled(
      BACKENDS.flatMap((s) => Array.from({ length: opts.replicas?.[s] ?? 1 }, () => launch(s))),
    );
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    const started = settled.map((r) => (r as PromiseFulfilledResult<ClusterProcess>).value);
    for (const s of BACKENDS) {
      const first = started.find((p) => p.service === s);
      if (first) backendUrls[`${s.toUpperCase()}_URL`] = first.url;
    }
    await Promise.all(Array.from({ length: opts.replicas?.gateway ?? 1 }, () => launch('gateway')));
  } catch (err) {
    await Promise.all(processes.map((p) => p.kill()));
    throw err;
  }

  const gateways = () => processes.filter((p) => p.service === 'gateway' && p.child.exitCode === null);
  return {
    get url() {
      return gateways()[0]!.url;
    },
    get gateways() {
      return gateways();
    },
    processes,
    addReplica: (service, extra) => launch(service, extra),
    kill: async (proc, signal = 'SIGTERM') => {
      await proc.stop(signal);
    },
    async stop() {
      await Promise.all(processes.map((p) => p.stop()));
    },
  };
}
