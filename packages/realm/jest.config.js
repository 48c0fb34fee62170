module.exports = {
  displayName: 'realm',
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testMatch: ['<rootDir>/src/**/*.test.ts'],
  // The generated Prisma client is gitignored: make sure it matches the schema first.
  globalSetup: '<rootDir>/../db/scripts/jest-global-setup.mjs',
  testTimeout: 60_000,
};
