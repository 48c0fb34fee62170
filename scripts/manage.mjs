// `npm run manage -- <command> [options]`: the administrator's command line. Prepares the
// workspace like `npm start` does, makes sure Postgres and Redis answer, then runs the users
// service's commands (services/users/src/cli) through tsx, or the messaging service's
// (services/messaging/src/cli) for the commands it owns.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { install, root } from './lib/bootstrap.mjs';

// Progress goes to stderr so that `npm run -s manage -- zuliprc ... > file` writes only the file.
install();
const gen = spawnSync(process.execPath, [path.join(root, 'packages/db/scripts/generate.mjs')], {
  cwd: root,
  stdio: ['ignore', process.stderr, 'inherit'],
});
if (gen.status !== 0) process.exit(gen.status ?? 1);
const { ensureInfra } = await import('./lib/infra.mjs');
const infra = await ensureInfra({ log: (line) => console.error(line) });
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
// Commands of the messaging service (its renderer re-rendering stored messages) run its own
// command line; every other command is the users service's.
const MESSAGING_COMMANDS = new Set(['rerender-messages']);
const cli = MESSAGING_COMMANDS.has(process.argv[2] ?? '') ? 'services/messaging/src/cli/main.ts' : 'services/users/src/cli/main.ts';
const res = spawnSync(process.execPath, [tsx, cli, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { LOG_LEVEL: 'warn', ...process.env, ...infra.env },
});
await infra.stop();
process.exit(res.status ?? 1);
