// Lint for the whole workspace: typescript-eslint's recommended rules (syntax only, so the run
// stays fast; types are checked by `tsc`), plus the import boundaries of scripts/lint.
import tseslint from 'typescript-eslint';
import boundaries from './scripts/lint/boundaries.cjs';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', 'bench/results/**', '**/*.d.ts', 'e2e/reference/**'],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.recommended],
    plugins: { boundaries },
    rules: {
      'boundaries/no-cross-service-imports': 'error',
      // A leading underscore marks a parameter or binding kept for its position or to omit it.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'no-control-regex': 'error',
    },
  },
  {
    // A file is read in one sitting: every line counts, comments included. Split by concept.
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.cjs', '**/*.js'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Tests read untyped JSON answers of the API; narrowing every one of them buys nothing.
    // A test file may run longer: each file starts its own cluster, and one cluster with many
    // checks is cheaper than two.
    files: ['**/test/**/*.ts', '**/*.test.ts', '**/*.fault.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    plugins: { boundaries },
    rules: { 'boundaries/no-cross-service-imports': 'error' },
  },
);
