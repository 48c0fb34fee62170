// The static checks of the whole workspace: the TypeScript compiler (types, unused locals; the
// services, packages and benches in one program, e2e/ and web/ each in their own) and
// ESLint (eslint.config.mjs: typescript-eslint's rules, the import boundaries, file length). Both run
// before the tests so a type error or a cross-service import fails `npm test` at once.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './bootstrap.mjs';

const CHECKS = [
  { name: 'type-check', bin: 'node_modules/typescript/bin/tsc', args: ['-p', 'tsconfig.json', '--noEmit'] },
  { name: 'type-check e2e', bin: 'node_modules/typescript/bin/tsc', args: ['-p', 'e2e/tsconfig.json', '--noEmit'] },
  { name: 'type-check web', bin: 'node_modules/typescript/bin/tsc', args: ['-p', 'web/tsconfig.json', '--noEmit'] },
  { name: 'lint', bin: 'node_modules/eslint/bin/eslint.js', args: ['--max-warnings=0', '.'] },
];

/**
 * ADR titles in one form, `# ADR NNNN: Title`, the number that of the file name: the index of
 * decisions is read by title, and a second form hides a renumbering slip.
 */
export function adrTitleProblems() {
  const dir = path.join(root, 'docs/adr');
  const problems = [];
  for (const file of readdirSync(dir).filter((f) => /^\d{4}-.*\.md$/.test(f)).sort()) {
    const first = readFileSync(path.join(dir, file), 'utf8').split('\n', 1)[0];
    if (!first.startsWith(`# ADR ${file.slice(0, 4)}: `)) problems.push(`docs/adr/${file}: "${first}" (want "# ADR ${file.slice(0, 4)}: <title>")`);
  }
  return problems;
}

/** Runs every check, reporting each; true when all pass. */
export function runChecks() {
  let ok = true;
  const adrs = adrTitleProblems();
  if (adrs.length === 0) console.log('adr titles: passed');
  else {
    console.error(`adr titles: FAILED\n  ${adrs.join('\n  ')}`);
    ok = false;
  }
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
