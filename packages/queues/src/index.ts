export * from './store';
export * from './waiter';
export * from './batch';
