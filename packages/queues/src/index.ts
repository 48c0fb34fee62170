export * from './store';
export * from './waiter';
