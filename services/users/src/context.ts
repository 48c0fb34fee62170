import type { createRedis } from '@chat/bus';
import type { Db } from '@chat/db';
import type { Logger } from '@chat/kit';
import type { UsersConfig } from './config';
import type { ExportQueue, ExportStore } from './workers/exports';
import type { MailQueue } from './workers/mail';

/** What every route and action of this service may use; built once by start(). */
export interface Services {
  db: Db;
  redis: ReturnType<typeof createRedis>;
  config: UsersConfig;
  log: Logger;
  /** Outgoing mail: queued here, sent by the mail worker (src/workers/mail). */
  mail: MailQueue;
  /** Realm exports: queued here, written by the export worker (src/workers/exports). */
  exports: ExportQueue;
  /** Finished export tarballs: a folder or the S3-compatible store. */
  exportStore: ExportStore;
}
