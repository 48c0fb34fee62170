/**
 * Starts the real services as separate processes from their compiled output
 * (node services/<name>/dist/main.js, as production runs them; rebuilt first when the sources
 * changed) on free ports, for end-to-end and multi-replica tests. Each process gets the test file's
 * database and Redis prefix; replicas of a service share them like production replicas do.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { SERVICE_NODE_ARGS, type ServiceName } from '@chat/contracts';
import type { TestEnv } from './index';
import { startBalancer, type Balancer } from './nginx';

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
  /** Where the process serves GET /metrics (its METRICS_PORT). */
  metricsUrl: string;
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
  /** Listen here rather than on a free port, e.g. to bring a crashed process back where its peers expect it. */
  port?: number;
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
  /**
   * Starts a stopped process again on its port with its environment (the cluster's list holds
   * the new process in its place), as a supervisor would after a crash.
   */
  restart(proc: ClusterProcess): Promise<ClusterProcess>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Extra environment for every process. */
  env?: Record<string, string>;
  /** Replicas per service (default 1 each, or CLUSTER_REPLICAS). */
  replicas?: Partial<Record<ServiceName, number>>;
  /**
   * Put nginx in front of each service's replicas (the gateways reach backends through it, and
   * `url` is nginx in front of the gateways). Default: on when CLUSTER_REPLICAS is 2 or more,
   * which is how `npm run cluster -- <test files>` runs the end-to-end tests.
   */
  balance?: boolean;
  /** Port of the balancer in front of the gateways (default: a free port). */
  publicPort?: number;
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
  // A port found free can be taken by another test process before the service binds it: then
  // the service exits with EADDRINUSE at once, and it is started again on other free ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServiceOnce(service, env, opts);
    } catch (err) {
      if (!(err instanceof PortTakenError) || attempt === 5) throw err;
    }
  }
}

class PortTakenError extends Error {}

async function startServiceOnce(service: ServiceName, env: Record<string, string>, opts: StartServiceOptions): Promise<ServiceProcess> {
  const label = opts.label ?? service;
  const port = opts.port ?? (await freePort());
  const metricsPort = await freePort();
  ensureBuilt();
  const child = spawn(process.execPath, [...SERVICE_NODE_ARGS[service], ...(opts.nodeArgs ?? []), `services/${service}/dist/main.js`], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), METRICS_PORT: String(metricsPort), HOST: '127.0.0.1', SERVICE_NAME: label },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_TAIL);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // 'close' comes after the process's output is all read; 'exit' may come before.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const proc: ServiceProcess = {
    service,
    label,
    url: `http://127.0.0.1:${port}`,
    port,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
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
  // Many processes starting at once on a busy machine (CLUSTER_REPLICAS) take longer.
  const timeoutMs = opts.readyTimeoutMs ?? Number(process.env.CLUSTER_READY_TIMEOUT_MS ?? 60000);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!running()) {
      await closed;
      const message = `${label} exited (${child.exitCode ?? child.signalCode}) while starting:\n${output}`;
      throw output.includes('EADDRINUSE') && opts.port === undefined ? new PortTakenError(message) : new Error(message);
    }
    if (await fetch(`${proc.url}/readyz`).then((r) => r.ok, () => false)) return proc;
    if (Date.now() > deadline) {
      await proc.kill();
      throw new Error(`${label} was not ready after ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

let built = false;

/** Compiles the services once per test process; a no-op when the output is newer than the sources. */
export function ensureBuilt(): void {
  if (built) return;
  const res = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`building the services failed:\n${res.stdout}${res.stderr}`);
  built = true;
}

export async function startCluster(env: Pick<TestEnv, 'env'>, opts: ClusterOptions = {}): Promise<Cluster> {
  const processes: ClusterProcess[] = [];
  const baseEnv: Record<string, string> = {
    ...env.env,
    LOG_LEVEL: process.env.CLUSTER_LOG_LEVEL ?? 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    ...opts.env,
  };
  const backendUrls: Record<string, string> = {};
  const defaultReplicas = Math.max(1, Number(process.env.CLUSTER_REPLICAS ?? 1) || 1);
  const replicasOf = (s: ServiceName) => opts.replicas?.[s] ?? defaultReplicas;
  const balance = opts.balance ?? defaultReplicas > 1;
  let balancer: Balancer | undefined;

  const envOf = new Map<ClusterProcess, Record<string, string>>();
  const launch = async (service: ServiceName, extra: Record<string, string> = {}): Promise<ClusterProcess> => {
    const procEnv = { ...baseEnv, ...backendUrls, ...extra };
    const proc = await startService(service, procEnv, { nodeArgs: opts.nodeArgs?.[service], readyTimeoutMs: opts.readyTimeoutMs });
    processes.push(proc);
    envOf.set(proc, procEnv);
    return proc;
  };

  try {
    // Settled, not all: on a failure every sibling still starting must be in `processes` to be
    // killed below, or it would outlive the run.
    const settled = await Promise.allSettled(BACKENDS.flatMap((s) => Array.from({ length: replicasOf(s) }, () => launch(s))));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    const started = settled.map((r) => (r as PromiseFulfilledResult<ClusterProcess>).value);
    const ports = Object.fromEntries(await Promise.all([...BACKENDS, 'gateway' as const].map(async (s) => [s, await freePort()] as const)));
    if (opts.publicPort) ports.gateway = opts.publicPort;
    for (const s of BACKENDS) {
      const first = started.find((p) => p.service === s);
      if (first) backendUrls[`${s.toUpperCase()}_URL`] = balance ? `http://127.0.0.1:${ports[s]}` : first.url;
    }
    // Behind nginx the client's address is the last X-Forwarded-For entry.
    const gatewayEnv: Record<string, string> = balance ? { TRUSTED_PROXY_HOPS: '1' } : {};
    const gatewayProcs = await Promise.all(Array.from({ length: replicasOf('gateway') }, () => launch('gateway', gatewayEnv)));
    if (balance) {
      const groups: Record<string, { listen: number; upstreams: string[] }> = {};
      for (const s of [...BACKENDS, 'gateway' as const]) {
        const procs = s === 'gateway' ? gatewayProcs : started.filter((p) => p.service === s);
        if (procs.length) groups[s] = { listen: ports[s]!, upstreams: procs.map((p) => p.url) };
      }
      // The gateway group first: the balancer is up once it answers there.
      const maxUploadMib = Number(baseEnv.MAX_FILE_UPLOAD_SIZE_MIB ?? process.env.MAX_FILE_UPLOAD_SIZE_MIB) || undefined;
      balancer = await startBalancer({ gateway: groups.gateway!, ...groups }, '127.0.0.1', maxUploadMib);
    }
  } catch (err) {
    await Promise.all(processes.map((p) => p.kill()));
    await balancer?.stop();
    throw err;
  }

  const gateways = () => processes.filter((p) => p.service === 'gateway' && p.child.exitCode === null);
  return {
    get url() {
      return balancer?.urls.gateway ?? gateways()[0]!.url;
    },
    get gateways() {
      return gateways();
    },
    processes,
    addReplica: (service, extra) => launch(service, extra),
    kill: async (proc, signal = 'SIGTERM') => {
      await proc.stop(signal);
    },
    async restart(proc) {
      await proc.stop();
      const procEnv = envOf.get(proc)!;
      const next = await startService(proc.service, procEnv, {
        label: proc.label, port: proc.port, nodeArgs: opts.nodeArgs?.[proc.service], readyTimeoutMs: opts.readyTimeoutMs,
      });
      processes[processes.indexOf(proc)] = next;
      envOf.set(next, procEnv);
      return next;
    },
    async stop() {
      await Promise.all(processes.map((p) => p.stop()));
      await balancer?.stop();
    },
  };
}
