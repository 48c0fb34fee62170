// `npm test`: prepare the workspace, type-check and lint it, make sure Postgres and Redis answer,
// run every test. Given test paths or jest flags (`npm test -- some.test.ts`), only jest runs:
// the static checks cover the whole tree and belong to the full run (`npm run check` alone).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { bootstrap, root } from './lib/bootstrap.mjs';

bootstrap();
const args = process.argv.slice(2);
if (args.length === 0) {
  const { runChecks } = await import('./lib/checks.mjs');
  if (!runChecks()) process.exit(1);
}
const { ensureInfra } = await import('./lib/infra.mjs');
const infra = await ensureInfra();
const jest = path.join(root, 'node_modules/jest/bin/jest.js');
const res = spawnSync(process.execPath, [jest, '-c', 'jest.config.js', ...args], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...infra.env, NODE_ENV: 'test' },
});
await infra.stop();
process.exit(res.status ?? 1);
