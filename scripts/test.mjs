// `npm test`: prepare the workspace, make sure Postgres and Redis answer, run every test.
// `npm run test:faults`: the same for the fault suite.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { bootstrap, root } from './lib/bootstrap.mjs';

bootstrap();
const { ensureInfra } = await import('./lib/infra.mjs');
const infra = await ensureInfra();
const jest = path.join(root, 'node_modules/jest/bin/jest.js');
// `--faults` runs the fault suite (e2e/faults, minutes long) instead of the regular tests.
const args = process.argv.slice(2);
const faults = args[0] === '--faults';
const config = faults ? 'e2e/jest.faults.config.js' : 'jest.config.js';
const res = spawnSync(process.execPath, [jest, '-c', config, ...(faults ? args.slice(1) : args)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...infra.env, NODE_ENV: 'test' },
});
await infra.stop();
process.exit(res.status ?? 1);
