export * from './errors';
export * from './constants';
export * from './identity';
export * from './actor';
export * from './routes';
export * from './dialect';
export * from './upload-links';
export * from './events';
