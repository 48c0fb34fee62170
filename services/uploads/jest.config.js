// The tus server packages ship as ES modules only; jest's CommonJS loader needs them
// transformed like our own sources, so they are excluded from transformIgnorePatterns.
const esmOnly = ['@tus', 'srvx'];

/** @type {import('jest').Config} */
module.exports = {
  displayName: 'uploads',
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts'],
  transform: {
    '^.+\\.(t|m?j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`^(?!.*/node_modules/(${esmOnly.join('|')})/).*/node_modules/`],
  globalSetup: '<rootDir>/../../packages/db/scripts/jest-global-setup.mjs',
  testTimeout: 60_000,
};
