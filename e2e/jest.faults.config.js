// The fault suite (`npm run test:faults`): minutes long, so kept out of `npm test`'s e2e project.
module.exports = {
  displayName: 'faults',
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  testMatch: ['<rootDir>/faults/**/*.fault.ts'],
  testTimeout: 900000,
};
