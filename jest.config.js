// One jest run over every package and service; each keeps its own config so it can also be
// run alone. Test files run in parallel workers, each on its own database and key prefix.
module.exports = {
  projects: ['<rootDir>/packages/*/jest.config.js', '<rootDir>/services/*/jest.config.js', '<rootDir>/infra/jest.config.js', '<rootDir>/e2e/jest.config.js', '<rootDir>/bench/jest.config.js', '<rootDir>/web/jest.config.cjs'],
  testTimeout: 60000,
  // Most test time is spent waiting on Postgres, Redis and service processes, not on the CPU:
  // three workers keep both cores busy where jest's default (cores - 1) would leave one idle.
  maxWorkers: 3,
};
