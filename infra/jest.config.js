module.exports = {
  displayName: 'infra',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
};
