/**
 * The gateway's CPU time per proxied request, a figure that depends little on how busy the
 * machine is: `node --import tsx services/gateway/bench/proxy-cpu.ts`. The compiled gateway
 * (`services/gateway/<dir>/main.js`, started as production starts it) runs in front of a stub
 * upstream in a process of its own that answers every request as messaging answers a send;
 * BENCH_CONNECTIONS (16) keep-alive clients send `POST /api/v1/messages` with HTTP Basic
 * credentials, and the gateway's user + system CPU is read from /proc around BENCH_REQUESTS
 * (10,000) requests after a warm-up.
 *
 *   GATEWAY_BUILDS=.base,dist   several builds (each a copy of dist/main.js in a folder beside
 *                               dist), measured in turn BENCH_ROUNDS (3) times on one database
 *   GATEWAY_PROFILE_DIR=<dir>   the gateway under --cpu-prof
 *   BENCH_RATE=200              requests per second in all (default: as fast as answered); the
 *                               bench's sends run at a few hundred a second, where what a
 *                               request costs apart from the work itself (waking up) weighs more
 *
 * Also prints the gateway's CPU per second while idle (after the warm-up), which a per-request
 * figure taken at a low rate includes.
 *
 * Prints the CPU milliseconds per request of each build and round, and each build's median.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { SERVICE_NODE_ARGS } from '@chat/contracts';
import { freePort, seedRealm, setupTestEnv } from '@chat/testing';

const root = path.resolve(__dirname, '../../..');
const builds = (process.env.GATEWAY_BUILDS ?? 'dist').split(',');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const requests = Number(process.env.BENCH_REQUESTS ?? 10_000);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const rate = process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : undefined;
const profile = process.env.GATEWAY_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.GATEWAY_PROFILE_DIR)}`] : [];

/** User plus system CPU milliseconds of a process so far (USER_HZ 100). */
const cpuMs = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};

/** Answers like messaging answers a send, after reading the whole body, on keep-alive sockets. */
const STUB = `
const http = require('node:http');
let id = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body = JSON.stringify({ result: 'success', msg: '', id: ++id, automatic_new_visibility_policy: null });
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body),
      'X-Content-Type-Options': 'nosniff', 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'strict-origin-when-cross-origin',
      'X-Request-Id': req.headers['x-request-id'] ?? '' });
    res.end(body);
  });
});
server.keepAliveTimeout = 65000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send('ready'));
`;

function startStub(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', STUB], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`stub exited (${code})`)));
  });
}

async function startGateway(dir: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVICE_NODE_ARGS.gateway, ...profile, `services/gateway/${dir}/main.js`], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), METRICS_PORT: String(await freePort()), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`gateway ${dir} exited (${child.exitCode})`);
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) return { child, url };
    if (i > 600) throw new Error(`gateway ${dir} not ready`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function load(url: string, authorization: string, amount: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${url}/api/v1/messages`,
    method: 'POST',
    connections,
    amount,
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'type=stream&to=%5B7%5D&topic=bench&content=bench+message+with+a+few+words+in+it',
    ...(rate ? { overallRate: rate } : {}),
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const env = await setupTestEnv();
  const realm = await seedRealm(env.db);
  const upstreamPort = await freePort();
  const stub = await startStub(upstreamPort);
  const upstream = `http://127.0.0.1:${upstreamPort}`;
  const gatewayEnv = {
    ...env.env,
    ...Object.fromEntries(['MESSAGING', 'USERS', 'EVENTS', 'UPLOADS', 'PUSH'].map((s) => [`${s}_URL`, upstream])),
    NODE_ENV: 'production', LOG_LEVEL: 'error', RATE_LIMIT_PER_MINUTE: '0', AUTH_CACHE_SECONDS: '600',
  };
  const authorization = `Basic ${Buffer.from(`${realm.member.email}:${realm.member.apiKey}`).toString('base64')}`;
  const perBuild = new Map<string, number[]>(builds.map((b) => [b, []]));
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const dir of builds) {
        const gw = await startGateway(dir, gatewayEnv);
        try {
          await load(gw.url, authorization, Math.min(3000, requests));
          const idleFrom = cpuMs(gw.child.pid!);
          await new Promise((r) => setTimeout(r, 5000));
          const idlePerSecond = (cpuMs(gw.child.pid!) - idleFrom) / 5;
          const before = cpuMs(gw.child.pid!);
          const result = await load(gw.url, authorization, requests);
          const used = cpuMs(gw.child.pid!) - before;
          const ok = result['2xx'];
          if (ok !== requests) throw new Error(`${dir}: ${ok} of ${requests} answered 2xx (non-2xx ${result.non2xx}, errors ${result.errors})`);
          const perRequest = used / requests;
          perBuild.get(dir)!.push(perRequest);
          console.log(`round ${round} ${dir.padEnd(8)} ${perRequest.toFixed(3)} ms CPU per request, ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms; idle ${idlePerSecond.toFixed(1)} ms CPU/s`);
        } finally {
          gw.child.kill('SIGTERM');
          await new Promise((r) => gw.child.once('exit', r));
        }
      }
    }
    for (const [dir, xs] of perBuild) console.log(`${dir.padEnd(8)} median ${median(xs).toFixed(3)} ms CPU per request (${xs.map((x) => x.toFixed(3)).join(', ')})`);
  } finally {
    stub.kill();
    await env.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
