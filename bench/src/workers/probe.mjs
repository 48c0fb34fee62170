// The machine beside the cluster, while the delivery phase runs: how late a sleeping process
// wakes (a 10 ms timer, taken again and again) and how long a trivial commit takes on the
// same Postgres (a 1 KB row into a table of its own scratch database, ten a second). Neither
// touches the cluster: when both are slow at the moment a message is, the whole machine was.
import pg from 'pg';
import { report, task } from './load-process.mjs';

const { databaseUrl, tickMs, commitEveryMs, limitMs } = await task();

/** [when (ms since the epoch), how late the timer fired (ms)], per tick. */
const lags = [];
/** [when the commit started, how long it took (ms)], per commit. */
const commits = [];
const errors = {};
let running = true;

function tick(expected) {
  setTimeout(() => {
    const now = performance.now();
    lags.push([Date.now(), Math.max(0, now - expected)]);
    if (running) tick(now + tickMs);
  }, tickMs);
}

const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
await client.query('CREATE TABLE IF NOT EXISTS probe (id bigserial PRIMARY KEY, body text NOT NULL)');
const body = 'x'.repeat(1000);
async function commitLoop() {
  while (running) {
    const started = performance.now();
    const at = Date.now();
    try {
      await client.query('INSERT INTO probe (body) VALUES ($1)', [body]);
      commits.push([at, performance.now() - started]);
    } catch (err) {
      errors[String(err?.message ?? err).slice(0, 120)] = (errors[String(err?.message ?? err).slice(0, 120)] ?? 0) + 1;
    }
    const wait = commitEveryMs - (performance.now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

tick(performance.now() + tickMs);
const looping = commitLoop();
process.send({ ready: true });

// Ends on the bench's word, or at its limit whatever happens.
await new Promise((resolve) => {
  const limit = setTimeout(resolve, limitMs);
  process.once('message', () => {
    clearTimeout(limit);
    resolve();
  });
});
running = false;
await looping;
await client.end().catch(() => undefined);
await report({ lags, commits, errors });
process.exit(0);
