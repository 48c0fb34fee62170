// Self-contained so that a root config can list it under `projects`.
/** @type {import('jest').Config} */
module.exports = {
  displayName: 'db',
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  // The generated client is gitignored: make sure it exists and matches the schema first.
  globalSetup: '<rootDir>/scripts/jest-global-setup.mjs',
  // Test databases and child processes make these slower than unit tests.
  testTimeout: 60_000,
};
