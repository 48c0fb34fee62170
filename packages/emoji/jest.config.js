module.exports = {
  displayName: 'emoji',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testMatch: ['<rootDir>/src/**/*.test.ts'],
};
