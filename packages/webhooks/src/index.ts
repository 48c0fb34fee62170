export * from './framework';
export * from './payload';
export * from './registry';
