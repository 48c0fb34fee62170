import type { Db } from '@chat/db';
import type { Logger } from '@chat/kit';
import type { Config } from './config';
import type { LinkPreviewJob } from './actions/link-previews';

/** What every route, action and worker of this service may use; built once by start(). */
export interface Services {
  db: Db;
  log: Logger;
  config: Config;
  /** Queues a message's link previews (workers/link-previews.ts); absent where nothing runs them. */
  linkPreviews?: { request(job: LinkPreviewJob): Promise<void> };
}
