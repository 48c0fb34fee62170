// `npm run build`: compiles each service (and the migration runner) into one CommonJS file,
// services/<name>/dist/main.js and infra/dist/migrate.js, that `node` runs without TypeScript.
//
// Workspace packages (@chat/*) are bundled in; every other package stays in node_modules and is
// loaded at run time from the workspace package that declares it, so each import gets the
// version its own package.json asks for, as it does under tsx. The output therefore runs from
// its place in the repository layout (locally and in the image alike).
//
//   node scripts/build.mjs [--force]   skips a target whose inputs are older than its output
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync, renameSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVICES = ['gateway', 'messaging', 'users', 'events', 'uploads', 'push'];

/** Entry point → output file, relative to the repository root. */
export const TARGETS = [
  ...SERVICES.map((name) => ({ name, entry: `services/${name}/src/main.ts`, out: `services/${name}/dist/main.js` })),
  { name: 'migrate', entry: 'infra/migrate.ts', out: 'infra/dist/migrate.js' },
];

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

function packageRootOf(file) {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
  }
  return root;
}

/**
 * Loads third-party packages from the declaring workspace package's node_modules (pnpm keeps
 * them there, not at the root), and keeps `__dirname` pointing at the source file's folder so
 * files read beside the sources (the migrations) are found from dist/ too.
 */
function workspaceLayout(outDir) {
  return {
    name: 'workspace-layout',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('@chat/') || builtins.has(args.path) || args.kind === 'entry-point') return undefined;
        const from = path.relative(outDir, packageRootOf(args.importer)).split(path.sep).join('/');
        return { path: `${from}|${args.path}`, namespace: 'dep' };
      });
      b.onLoad({ filter: /.*/, namespace: 'dep' }, (args) => {
        const [from, spec] = args.path.split('|');
        return {
          contents: `module.exports = require('node:module').createRequire(require('node:path').join(__dirname, ${JSON.stringify(from)}, 'package.json'))(${JSON.stringify(spec)});`,
          loader: 'js',
        };
      });
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!/\b__dirname\b/.test(source)) return undefined;
        const rel = path.relative(outDir, path.dirname(args.path)).split(path.sep).join('/');
        return { contents: source.replace(/\b__dirname\b/g, `require('node:path').join(__dirname, ${JSON.stringify(rel)})`), loader: 'ts' };
      });
    },
  };
}

/** Newest modification time of the sources any target is built from. */
function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'test') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|json|mjs|js)$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const dir of ['packages', 'services']) walk(path.join(root, dir));
  newest = Math.max(newest, statSync(path.join(root, 'infra/migrate.ts')).mtimeMs, statSync(fileURLToPath(import.meta.url)).mtimeMs);
  return newest;
}

function isFresh(target, newest) {
  const out = path.join(root, target.out);
  return existsSync(out) && statSync(out).mtimeMs >= newest;
}

/** Newest modification time under the web app's inputs (its sources and the client package). */
function newestWebSource() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'test') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const dir of ['web/src', 'packages/client/src']) walk(path.join(root, dir));
  for (const file of ['web/index.html', 'web/vite.config.ts', 'web/early-register.ts', 'web/emoji-categories.ts', 'web/package.json']) newest = Math.max(newest, statSync(path.join(root, file)).mtimeMs);
  return newest;
}

/**
 * The web app (web/dist: the shell and its content-hashed files), built by Vite in a process
 * of its own; skipped while the output is newer than every input.
 */
export function buildWeb({ force = false, quiet = false } = {}) {
  const shell = path.join(root, 'web/dist/index.html');
  if (!force && existsSync(shell) && statSync(shell).mtimeMs >= newestWebSource()) return false;
  const started = Date.now();
  const vite = path.join(root, 'web/node_modules/vite/bin/vite.js');
  // The config imports the client package's parameter encoding, a TypeScript file its package
  // does not mark as ESM: fine for the config bundler used, which the native loader's notice is about.
  const env = { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' };
  const res = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: path.join(root, 'web'), stdio: 'inherit', env });
  if (res.status !== 0) throw new Error(`the web app's build failed (exit ${res.status})`);
  if (!quiet) console.log(`Built web/dist in ${Date.now() - started} ms.`);
  return true;
}

export async function buildAll({ force = false, quiet = false } = {}) {
  buildWeb({ force, quiet });
  const newest = force ? Infinity : newestSource();
  const stale = TARGETS.filter((t) => force || !isFresh(t, newest));
  if (!stale.length) return [];
  const started = Date.now();
  await Promise.all(
    stale.map(async (t) => {
      const outfile = path.join(root, t.out);
      mkdirSync(path.dirname(outfile), { recursive: true });
      const result = await build({
        entryPoints: [path.join(root, t.entry)],
        outfile,
        write: false,
        bundle: true,
        platform: 'node',
        target: 'node20',
        format: 'cjs',
        sourcemap: 'linked',
        logLevel: 'warning',
        legalComments: 'none',
        plugins: [workspaceLayout(path.dirname(outfile))],
      });
      // Written aside and renamed, so a process starting meanwhile never loads half a file.
      for (const file of result.outputFiles) {
        const tmp = `${file.path}.${process.pid}.tmp`;
        writeFileSync(tmp, file.contents);
        renameSync(tmp, file.path);
      }
    }),
  );
  if (!quiet) console.log(`Built ${stale.map((t) => t.out).join(', ')} in ${Date.now() - started} ms.`);
  return stale.map((t) => t.out);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildAll({ force: process.argv.includes('--force') });
}
