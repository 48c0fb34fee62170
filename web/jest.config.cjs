// Unit tests of the web app's logic (state, events, narrows) in Node: pure functions, no DOM.
module.exports = {
  displayName: 'web',
  testEnvironment: 'node',
  transform: { '^.+\\.tsx?$': ['@swc/jest'] },
  testMatch: ['<rootDir>/src/**/test/*.test.ts'],
};
