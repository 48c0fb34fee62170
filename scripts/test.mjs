// `npm test`: prepare the workspace, make sure Postgres and Redis answer, run every test.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { bootstrap, root } from './lib/bootstrap.mjs';

bootstrap();
// End-to-end tests run the compiled services (packages/testing); build them once up front.
const { buildAll } = await import('./build.mjs');
await buildAll();
const { ensureInfra } = await import('./lib/infra.mjs');
const infra = await ensureInfra();
const jest = path.join(root, 'node_modules/jest/bin/jest.js');
const res = spawnSync(process.execPath, [jest, '-c', 'jest.config.js', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...infra.env, NODE_ENV: 'test' },
});
await infra.stop();
process.exit(res.status ?? 1);
