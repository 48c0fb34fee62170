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
    // Tests read untyped JSON answers of the API; narrowing every one of them buys nothing.
    files: ['**/test/**/*.ts', '**/*.test.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    plugins: { boundaries },
    rules: { 'boundaries/no-cross-service-imports': 'error' },
  },
);
