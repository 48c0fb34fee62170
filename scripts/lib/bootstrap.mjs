// Makes a fresh clone runnable with only Node and npm: installs the workspace with pnpm
// (fetched through npx when not installed) and generates the Prisma client. Both steps are
// skipped when their inputs have not changed since the last run.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${res.status}`);
  }
}

function pnpm() {
  const local = spawnSync('pnpm', ['--version'], { stdio: 'ignore' });
  return local.status === 0 ? ['pnpm', []] : ['npx', ['-y', 'pnpm@10']];
}

export function install() {
  const lock = readFileSync(path.join(root, 'pnpm-lock.yaml'));
  const digest = createHash('sha256').update(lock).digest('hex');
  const stamp = path.join(root, 'node_modules', '.install-stamp');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return;
  console.log('Installing dependencies (pnpm install --frozen-lockfile)...');
  const [cmd, pre] = pnpm();
  run(cmd, [...pre, 'install', '--frozen-lockfile', '--reporter=append-only'], {
    env: { ...process.env, npm_config_loglevel: 'error' },
  });
  writeFileSync(stamp, digest);
}

export function generate() {
  const script = path.join(root, 'packages/db/scripts/generate.mjs');
  if (existsSync(script)) run(process.execPath, [script]);
}

export function bootstrap() {
  install();
  generate();
}
