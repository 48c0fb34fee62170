export * from './redis';
export * from './keys';
export * from './auth-cache';
export * from './outbox';
export { publishRows, type OutboxRow, type PublishOptions, type PublishResult } from './publish';
export * from './relay';
export * from './entries';
export * from './consumer';
export type { BatchSelector } from './reading';
