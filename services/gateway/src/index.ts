export { start } from './app';
export { authCacheKey } from './auth';
