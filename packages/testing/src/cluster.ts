/**
 * Starts the real services as separate processes (node --import tsx services/<name>/src/main.ts)
 * on free ports, for end-to-end and multi-replica tests. Each process gets the test file's
 * database and Redis prefix; replicas of a service share them like production replicas do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import type { ServiceName } from '@chat/contracts';
import type { TestEnv } from './index';

const root = path.resolve(__dirname, '../../..');
const BACKENDS = ['messaging', 'users', 'events', 'uploads', 'push'] as const;

export interface ClusterProcess {
  service: ServiceName;
  url: string;
  port: number;
  child: ChildProcess;
  output: string[];
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

async function waitReady(proc: ClusterProcess, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) {
      throw new Error(`${proc.service} exited (${proc.child.exitCode}) while starting:\n${proc.output.join('')}`);
    }
    try {
      if ((await fetch(`${proc.url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${proc.service} was not ready after ${timeoutMs} ms:\n${proc.output.join('')}`);
}

export async function startCluster(env: TestEnv, opts: ClusterOptions = {}): Promise<Cluster> {
  const processes: ClusterProcess[] = [];
  const baseEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...env.env,
    LOG_LEVEL: process.env.CLUSTER_LOG_LEVEL ?? 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    ...opts.env,
  };
  const backendUrls: Record<string, string> = {};

  const launch = async (service: ServiceName, extra: Record<string, string> = {}): Promise<ClusterProcess> => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', `services/${service}/src/main.ts`], {
      cwd: root,
      env: { ...baseEnv, ...backendUrls, ...extra, PORT: String(port), HOST: '127.0.0.1', SERVICE_NAME: service },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc: ClusterProcess = { service, port, url: `http://127.0.0.1:${port}`, child, output: [] };
    const keep = (chunk: Buffer) => {
      proc.output.push(chunk.toString());
      if (proc.output.length > 200) proc.output.shift();
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    processes.push(proc);
    await waitReady(proc);
    return proc;
  };

  try {
    const started = await Promise.all(
      BACKENDS.flatMap((s) => Array.from({ length: opts.replicas?.[s] ?? 1 }, () => launch(s))),
    );
    for (const s of BACKENDS) {
      const first = started.find((p) => p.service === s);
      if (first) backendUrls[`${s.toUpperCase()}_URL`] = first.url;
    }
    await Promise.all(Array.from({ length: opts.replicas?.gateway ?? 1 }, () => launch('gateway')));
  } catch (err) {
    await Promise.all(processes.map((p) => stopProcess(p, 'SIGKILL')));
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
    kill: (proc, signal = 'SIGTERM') => stopProcess(proc, signal),
    async stop() {
      await Promise.all(processes.map((p) => stopProcess(p, 'SIGTERM')));
    },
  };
}

function stopProcess(proc: ClusterProcess, signal: NodeJS.Signals): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => proc.child.kill('SIGKILL'), 15000);
    proc.child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    proc.child.kill(signal);
  });
}
