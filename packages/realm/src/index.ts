export * from './groups';
export * from './settings';
export * from './actions';
export * from './announce-user';
export * from './realm-settings';
export * from './access';
export * from './system-bots';
export * from './group-membership';
