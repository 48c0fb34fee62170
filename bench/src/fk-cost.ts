/**
 * What the foreign keys of user_messages cost a send: `npx tsx bench/fk-cost.ts` runs the bench's
 * pgbench script of one send (baselines.ts) on a scratch database of the schema, then again
 * after dropping the user_id constraint, then after dropping the message_id one too. Each
 * inserted copy makes Postgres check both keys, each check locking the referenced row FOR KEY
 * SHARE: a WAL record per user row, and shared row locks (multixacts) where sends to one
 * channel overlap. The scratch database is dropped afterwards; the schema is not changed.
 */
import { createTestDatabase } from '@chat/db/testing';
import { preparePgbench, runPgbench } from './baselines';

const CELLS: Array<[subscribers: number, clients: number]> = [[10, 1], [10, 16], [200, 1], [200, 16]];
const SECONDS = Number(process.env.SECONDS ?? 5);

async function main() {
  const scratch = await createTestDatabase();
  try {
    const prepared = await preparePgbench(scratch.db, 200);
    const steps = [
      { label: 'the schema as it is', drop: null },
      { label: 'without user_messages_user_id_fkey', drop: 'user_messages_user_id_fkey' },
      { label: 'without user_messages_message_id_fkey as well', drop: 'user_messages_message_id_fkey' },
    ];
    const rows: string[] = [];
    for (const step of steps) {
      if (step.drop) await scratch.db.$executeRawUnsafe(`ALTER TABLE user_messages DROP CONSTRAINT "${step.drop}"`);
      console.log(step.label);
      const figures = [];
      for (const [subscribers, clients] of CELLS) figures.push(await runPgbench(scratch.url, prepared, subscribers, clients, SECONDS));
      rows.push(`| ${step.label} | ${figures.map((f) => `${f.tps} (${f.latencyMs} ms)`).join(' | ')} |`);
    }
    console.log(`\n| pgbench tps (latency) | ${CELLS.map(([s, c]) => `${s} x${c}`).join(' | ')} |\n|---|${CELLS.map(() => '---').join('|')}|\n${rows.join('\n')}`);
  } finally {
    await scratch.drop();
  }
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
