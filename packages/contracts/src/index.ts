export * from './errors';
export * from './constants';
export * from './identity';
export * from './routes';
export * from './dialect';
export * from './upload-links';
export * from './events';
