import type { Queue } from 'bullmq';
import type { createRedis } from '@chat/bus';
import type { Keyspace } from '@chat/bus';
import type { Db } from '@chat/db';
import type { Logger } from '@chat/kit';
import type { PushConfig } from './config';
import type { RelayClient } from './lib/relay';
import type { RealmDirectory } from './lib/realms';

/** What every route, action and worker of this service may use; built once by start(). */
export interface Services {
  db: Db;
  redis: ReturnType<typeof createRedis>;
  keys: Keyspace;
  config: PushConfig;
  log: Logger;
  /** Undefined when PUSH_RELAY_URL is unset: push is not configured. */
  relay: RelayClient | undefined;
  realms: RealmDirectory;
  /** The delivery queue (relay registrations, notifications, removals). */
  queue: Queue;
}
