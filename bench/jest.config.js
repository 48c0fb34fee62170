module.exports = {
  displayName: 'bench',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testMatch: ['<rootDir>/src/test/**/*.test.ts'],
};
