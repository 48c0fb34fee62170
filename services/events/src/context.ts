import type { Redis } from 'ioredis';
import type { Keyspace } from '@chat/bus';
import type { Db } from '@chat/db';
import type { QueueStore } from '@chat/queues';
import type { ServerInfo } from './state/request';

/** What the routes and actions of this service may use; built once by start(). */
export interface Services {
  server?: ServerInfo;
  db: Db;
  store: QueueStore;
  redis: Redis;
  keys: Keyspace;
}
