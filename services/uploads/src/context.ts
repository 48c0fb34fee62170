import type { Redis } from 'ioredis';
import type { Db } from '@chat/db';
import type { Keyspace } from '@chat/bus';
import type { Logger } from '@chat/kit';
import type { UploadsConfig } from './config';
import type { Storage } from './storage';

/** What every route, action and worker of this service may use; built once by start(). */
export interface Services {
  db: Db;
  redis: Redis;
  keys: Keyspace;
  config: UploadsConfig;
  log: Logger;
  storage: Storage;
  /** Asks for thumbnails of a freshly stored image (a background job does the work). */
  requestThumbnails(attachmentId: number): Promise<void>;
}
