// Self-contained so that the root config can list it under `projects`.
/** @type {import('jest').Config} */
module.exports = {
  displayName: 'users',
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  // url-template ships as an ES module only: let swc turn it into CommonJS like our own code.
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/url-template@[^/]+/node_modules/)?url-template/)'],
  // The generated Prisma client is gitignored: make sure it exists and matches the schema.
  globalSetup: '<rootDir>/../../packages/db/scripts/jest-global-setup.mjs',
  testTimeout: 60_000,
};
