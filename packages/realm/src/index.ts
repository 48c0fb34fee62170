export * from './groups';
export * from './settings';
export * from './actions';
export * from './realm-settings';
