// `npm run cluster`: two replicas of every service on this machine, nginx in front of each
// service's replicas and of the gateways (infra/dev/replicated.ts).
// `npm run cluster -- e2e/foundation.test.ts ...`: runs those test files with every cluster
// they start made of two replicas per service behind nginx (CLUSTER_REPLICAS=2).
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { bootstrap, root } from './lib/bootstrap.mjs';

bootstrap();
const { buildAll } = await import('./build.mjs');
await buildAll();
const { ensureInfra } = await import('./lib/infra.mjs');
const infra = await ensureInfra();
const files = process.argv.slice(2);
const env = {
  ...process.env,
  ...infra.env,
  CLUSTER_REPLICAS: process.env.CLUSTER_REPLICAS ?? '2',
  CLUSTER_READY_TIMEOUT_MS: process.env.CLUSTER_READY_TIMEOUT_MS ?? '240000',
};
if (files.length) {
  const jest = path.join(root, 'node_modules/jest/bin/jest.js');
  const res = spawnSync(process.execPath, [jest, '-c', 'jest.config.js', '--testTimeout=300000', ...files], { cwd: root, stdio: 'inherit', env: { ...env, NODE_ENV: 'test' } });
  await infra.stop();
  process.exit(res.status ?? 1);
}
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
const child = spawn(process.execPath, [tsx, 'infra/dev/replicated.ts'], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', async (code) => {
  await infra.stop();
  process.exit(code ?? 0);
});
