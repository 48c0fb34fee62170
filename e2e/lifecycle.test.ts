/**
 * Process lifecycle, each service its own process: ready the moment it serves, riding out the
 * loss of every database connection, and stopping within about a second of SIGTERM even while
 * clients hold keep-alive connections open.
 */
import http from 'node:http';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { SERVICE_NODE_ARGS } from '@chat/contracts';
import { freePort, setupTestEnv, startService, type ServiceProcess, type TestEnv } from '@chat/testing';

let env: TestEnv;
const procs: ServiceProcess[] = [];

beforeAll(async () => {
  env = await setupTestEnv();
}, 60000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill()));
  await env?.close();
});

it('answers /readyz 200 from the first moment messaging serves anything', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVICE_NODE_ARGS.messaging, '--import', 'tsx', 'services/messaging/src/main.ts'], {
    cwd: path.resolve(__dirname, '..'),
    env: { ...process.env, ...env.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    const deadline = Date.now() + 180000;
    let healthy = false;
    while (!healthy && Date.now() < deadline) {
      healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
      if (!healthy) await new Promise((r) => setTimeout(r, 10));
    }
    expect(healthy).toBe(true);
    // Within a readiness probe's default timeout (Kubernetes: 1 s): a service that needs seconds
    // more to answer its first probe is serving traffic while reported unready.
    const probe = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(1000) }).then((r) => r.status, (err) => String(err));
    expect(probe).toBe(200);
  } finally {
    child.kill('SIGKILL');
  }
}, 200000);

describe('gateway and uploads', () => {
  beforeAll(async () => {
    procs.push(...(await Promise.all((['gateway', 'uploads'] as const).map((s) => startService(s, env.env, { readyTimeoutMs: 180000 })))));
  }, 200000);

  it('ride out every database connection being terminated', async () => {
    for (const p of procs) expect((await fetch(`${p.url}/readyz`)).status).toBe(200);
    // What a Postgres restart does to each session, without restarting the shared server.
    await env.db.$executeRawUnsafe(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
    await new Promise((r) => setTimeout(r, 500));
    for (const p of procs) {
      expect({ service: p.service, exit: p.child.exitCode ?? p.child.signalCode }).toEqual({ service: p.service, exit: null });
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = await fetch(`${p.url}/readyz`).then((r) => r.status, () => 0);
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect({ service: p.service, status }).toEqual({ service: p.service, status: 200 });
    }
  });

  it('stop within about a second of SIGTERM while clients hold keep-alive connections', async () => {
    const agent = new http.Agent({ keepAlive: true });
    for (const p of procs) {
      await new Promise<void>((resolve, reject) => {
        http.get(`${p.url}/healthz`, { agent }, (res) => (res.resume(), res.on('end', resolve))).on('error', reject);
      });
    }
    const took = await Promise.all(procs.map(async (p) => {
      const started = Date.now();
      const code = await p.stop('SIGTERM');
      return { service: p.service, code, ms: Date.now() - started };
    }));
    console.log(took.map((t) => `${t.service} stopped in ${t.ms} ms`).join('\n'));
    agent.destroy();
    for (const t of took) expect({ service: t.service, code: t.code, quick: t.ms < 1500 }).toEqual({ service: t.service, code: 0, quick: true });
  });
});
