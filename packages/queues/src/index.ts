export * from './store';
export * from './waiter';
export { parseWake, type Wake } from './members';
export * from './acks';
