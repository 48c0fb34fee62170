// `npm run bench`: prepares the workspace like `npm start` does (dependencies, Prisma client,
// Postgres and Redis answering), makes sure pgbench and redis-benchmark exist (Debian packages
// postgresql and redis-tools), then runs bench/src/main.ts with the arguments given.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { install, generate, root } from '../scripts/lib/bootstrap.mjs';

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const missing = [['pgbench', 'postgresql'], ['redis-benchmark', 'redis-tools']].filter(([cmd]) => !has(cmd));
if (missing.length) {
  const packages = missing.map(([, pkg]) => pkg);
  console.log(`Installing ${packages.join(', ')} (for ${missing.map(([cmd]) => cmd).join(', ')})...`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const apt = (...args) => spawnSync(sudo.length ? 'sudo' : 'apt-get', [...(sudo.length ? ['apt-get'] : []), ...args], { stdio: 'inherit' });
  apt('update', '-qq');
  if (apt('install', '-y', '-qq', ...packages).status !== 0) {
    console.error(`Install ${packages.join(' ')} (Debian) to run the bench.`);
    process.exit(1);
  }
}

install();
generate();
const { ensureInfra } = await import('../scripts/lib/infra.mjs');
const infra = await ensureInfra();
// Without V8's memory reducer (tsx hands node's flags on): in a process that has gone quiet it
// runs full collections, their marking spread over every core, and on a machine whose cores the
// cluster shares the bench's own housekeeping would then land in the measured latencies (ADR
// 0033).
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
const res = spawnSync(process.execPath, [tsx, '--no-memory-reducer', 'bench/src/main.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...infra.env },
});
await infra.stop();
process.exit(res.status ?? 1);
