export * from './triggers';
export * from './facts';
export { ActiveClients } from './active-clients';
export * from './urls';
