/**
 * The import boundaries ESLint enforces (scripts/lint/boundaries.mjs): text is linted as if it
 * lived at a path in the tree, so each case shows the rule refusing or allowing one import.
 */
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the rule is CommonJS, untyped
const boundaries = require('../../scripts/lint/boundaries.cjs');

const root = path.resolve(__dirname, '../..');
const linter = new Linter({ cwd: root });
const config = [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { boundaries },
    rules: { 'boundaries/no-cross-service-imports': 'error' as const },
  },
];

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  return linter.verify(code, config, path.join(root, file)).map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    ['services/messaging/src/actions/x.ts', "import { a } from '../../../users/src/actions/realm';"],
    ['services/messaging/src/actions/x.ts', "export * from '../../../events/src/state';"],
    ['services/gateway/src/x.ts', "import { b } from '@chat/svc-users';"],
    ['services/uploads/src/x.ts', "const c = require('../../push/src/main');"],
    ['packages/wire/src/x.ts', "import { d } from '../../../services/events/src/app';"],
    ['packages/kit/src/x.ts', "import('@chat/svc-messaging');"],
  ])('refuses %s: %s', async (file, code) => {
    expect(await boundaryErrors(file, code)).toHaveLength(1);
  });

  it.each([
    ['services/messaging/src/actions/x.ts', "import { a } from '../lib/groups';"],
    ['services/messaging/src/test/x.test.ts', "import { b } from '../../../../packages/testing/src';"],
    ['services/users/src/x.ts', "import { c } from '@chat/realm';"],
    ['packages/wire/src/x.ts', "import { d } from '@chat/contracts';"],
    ['e2e/x.test.ts', "import { e } from '../services/messaging/src/markdown';"],
  ])('allows %s: %s', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([]);
  });
});
