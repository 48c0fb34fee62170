module.exports = {
  displayName: 'e2e',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testMatch: ['<rootDir>/**/*.test.ts'],
  testTimeout: 120000,
};
