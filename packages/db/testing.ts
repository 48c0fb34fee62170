// Entry point for `import { createTestDatabase } from '@chat/db/testing'`. A file at the package
// root (rather than an `exports` map) resolves the same way under TypeScript's node resolution,
// tsx and jest.
export * from './src/testing';
