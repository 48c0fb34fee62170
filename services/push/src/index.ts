export { start } from './app';
export type { PushHandle } from './app';
