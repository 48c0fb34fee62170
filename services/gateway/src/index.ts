export { start } from './app';
