// The static checks of the whole workspace: the TypeScript compiler (types, unused locals; the
// services, packages and benches in one program, e2e/ and web/ each in their own) and
// ESLint (eslint.config.mjs: typescript-eslint's rules, the import boundaries, file length). Both run
// before the tests so a type error or a cross-service import fails `npm test` at once.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from './bootstrap.mjs';

const CHECKS = [
  { name: 'type-check', bin: 'node_modules/typescript/bin/tsc', args: ['-p', 'tsconfig.json', '--noEmit'] },
  { name: 'type-check e2e', bin: 'node_modules/typescript/bin/tsc', args: ['-p', 'e2e/tsconfig.json', '--noEmit'] },
  { name: 'type-check web', bin: 'node_modules/typescript/bin/tsc', args: ['-p', 'web/tsconfig.json', '--noEmit'] },
  { name: 'lint', bin: 'node_modules/eslint/bin/eslint.js', args: ['--max-warnings=0', '.'] },
];

/** Runs every check, reporting each; true when all pass. */
export function runChecks() {
  let ok = true;
  for (const check of CHECKS) {
    const started = Date.now();
    const res = spawnSync(process.execPath, [path.join(root, check.bin), ...check.args], { cwd: root, stdio: 'inherit' });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (res.status === 0) console.log(`${check.name}: passed in ${seconds} s`);
    else {
      console.error(`${check.name}: FAILED (exit ${res.status})`);
      ok = false;
    }
  }
  return ok;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(runChecks() ? 0 : 1);
