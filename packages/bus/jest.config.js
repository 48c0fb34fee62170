module.exports = {
  displayName: 'bus',
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  testMatch: ['<rootDir>/src/**/*.test.ts'],
  // Relay and consumer tests wait on real Postgres notifications and Redis blocking reads.
  testTimeout: 30000,
};
