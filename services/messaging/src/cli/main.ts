/**
 * The messaging service's administrator commands, run by `npm run manage -- <command>` for the
 * commands this service owns (scripts/manage.mjs routes them here; the rest go to the users
 * service's command line). The renderer lives in this service, so re-rendering stored messages
 * runs here rather than through another service's code.
 *
 *   rerender-messages [--batch-size N] [--realm STRING_ID]
 */
import { createDb, ensureDatabase, migrateDatabase } from '@chat/db';
import { realmUrlFor } from '@chat/kit';
import { readConfig } from '../config';
import { doRerenderMessages } from '../actions/rerender';

const USAGE = 'usage: rerender-messages [--batch-size N (1-5000, default 500)] [--realm STRING_ID]';

function parseArgs(args: string[]): { batchSize: number; realm?: string } | string {
  const out: { batchSize: number; realm?: string } = { batchSize: 500 };
  for (let i = 0; i < args.length; i++) {
    const [flag, value] = [args[i], args[i + 1]];
    if (flag === '--batch-size' && value !== undefined && /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 5000) out.batchSize = Number(value);
    else if (flag === '--realm' && value !== undefined) out.realm = value;
    else return `unknown or invalid option: ${flag}\n${USAGE}`;
    i++;
  }
  return out;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'rerender-messages') {
    console.error(`unknown command: ${command ?? ''}\n${USAGE}`);
    return 2;
  }
  const opts = parseArgs(rest);
  if (typeof opts === 'string') {
    console.error(opts);
    return 2;
  }
  const config = readConfig();
  await ensureDatabase(config.DATABASE_URL);
  await migrateDatabase(config.DATABASE_URL);
  const db = createDb(config.DATABASE_URL, { poolSize: 4 });
  const realmUrl = (stringId: string) => realmUrlFor(config, stringId);
  try {
    const done = await doRerenderMessages(db, {
      ...opts,
      realmUrl,
      progress: ({ rendered, lastId }) => console.error(`rendered ${rendered} message(s), up to id ${lastId}`),
    });
    console.log(`Rendered ${done.rendered} message(s) again${done.skipped ? `; ${done.skipped} edited meanwhile, left for the next run` : ''}.`);
    return 0;
  } finally {
    await db.$disconnect();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
