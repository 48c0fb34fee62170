module.exports = {
  displayName: 'events',
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  testMatch: ['<rootDir>/src/**/*.test.ts'],
  // The Prisma client is generated, not committed: make sure it exists before tests import it.
  globalSetup: '<rootDir>/../../packages/db/scripts/jest-global-setup.mjs',
  // Multi-process tests start real services and wait on real long-polls.
  testTimeout: 120000,
};
