// `npm start`: install what is missing, compile the services when their sources changed, make
// sure Postgres and Redis answer, then hand over to the cluster runner (TypeScript, run through
// tsx), which migrates, seeds and starts the compiled services.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { bootstrap, root } from './lib/bootstrap.mjs';

bootstrap();
const { buildAll } = await import('./build.mjs');
await buildAll();
const { ensureInfra } = await import('./lib/infra.mjs');
const infra = await ensureInfra();
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
const child = spawn(process.execPath, [tsx, 'infra/dev/cluster.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...infra.env },
});
// Ctrl-C reaches the whole foreground process group; the runner stops the services, then we
// stop whatever infrastructure we started ourselves.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', async (code) => {
  await infra.stop();
  process.exit(code ?? 0);
});
