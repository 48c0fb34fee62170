import type { Logger } from '@chat/kit';
import type { AckBatcher, QueueStore, QueueWaiter } from '@chat/queues';
import type { RealmResolver } from './realms';

/** What the gateway's own routes (GET and DELETE /events) use; built once by start(). */
export interface Services {
  log: Logger;
  realms: RealmResolver;
  store: QueueStore;
  waiter: QueueWaiter;
  acks: AckBatcher;
  /** Mean silence before a heartbeat; each poll draws its own within ±10%. */
  heartbeatMs: number;
  eventsUrl: string;
  internalSecret: string;
}
