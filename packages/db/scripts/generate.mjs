#!/usr/bin/env node
// Generates the Prisma client into src/generated (gitignored) when the schema has changed.
//
// Every fresh checkout, CI run and service start calls this, so it must be cheap when nothing
// changed: the hash of the schema files and the Prisma version is kept in a stamp file next to
// the output and generation is skipped while it matches.
//
//   node packages/db/scripts/generate.mjs [--force]
//   import { ensureGenerated } from '@chat/db/scripts/generate.mjs'  (or by path)
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schemaDir = path.join(pkgDir, 'prisma', 'schema');
const outDir = path.join(pkgDir, 'src', 'generated');
const stampFile = path.join(outDir, '.schema-hash');
const lockFile = path.join(pkgDir, 'src', '.generate.lock');
const noEngine = path.join(pkgDir, 'scripts', 'no-schema-engine.sh');
const require = createRequire(path.join(pkgDir, 'package.json'));

function schemaHash() {
  const h = createHash('sha256');
  h.update(`prisma ${require('prisma/package.json').version}\n`);
  for (const name of fs.readdirSync(schemaDir).filter((f) => f.endsWith('.prisma')).sort()) {
    h.update(`${name}\n`);
    h.update(fs.readFileSync(path.join(schemaDir, name)));
    h.update('\n');
  }
  return h.digest('hex');
}

function isFresh(hash) {
  try {
    return fs.readFileSync(stampFile, 'utf8').trim() === hash && fs.existsSync(path.join(outDir, 'client.ts'));
  } catch {
    return false;
  }
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

// Several processes (parallel package test runs, replicas started together) may call this at
// once; Prisma empties the output folder while generating, so only one may write at a time.
function withLock(fn) {
  for (let waited = 0; ; waited += 100) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const age = Date.now() - fs.statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs;
      if (age > 120_000) fs.rmSync(lockFile, { force: true }); // left by a killed process
      if (waited > 300_000) throw new Error(`timed out waiting for ${lockFile}`);
      sleep(100);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

/** Generates the client unless the stamp matches. Returns true if it generated. */
export function ensureGenerated({ force = false, quiet = false } = {}) {
  if (!force && isFresh(schemaHash())) return false;
  return withLock(() => {
    const hash = schemaHash();
    if (!force && isFresh(hash)) return false; // another process generated it while we waited
    const res = spawnSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate'], {
      cwd: pkgDir,
      stdio: quiet ? 'pipe' : 'inherit',
      encoding: 'utf8',
      env: {
        ...process.env,
        // `prisma generate` only checks that an engine binary exists; see no-schema-engine.sh.
        PRISMA_SCHEMA_ENGINE_BINARY: noEngine,
        PRISMA_HIDE_UPDATE_MESSAGE: '1',
        CHECKPOINT_DISABLE: '1',
      },
    });
    if (res.status !== 0) {
      throw new Error(`prisma generate failed (exit ${res.status})\n${res.stdout ?? ''}${res.stderr ?? ''}`);
    }
    fs.writeFileSync(stampFile, `${hash}\n`);
    return true;
  });
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const generated = ensureGenerated({ force: process.argv.includes('--force') });
    if (!generated) console.log('@chat/db: Prisma client is up to date');
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
