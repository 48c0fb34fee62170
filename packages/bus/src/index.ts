export * from './redis';
export * from './keys';
