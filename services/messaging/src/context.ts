import type { Db } from '@chat/db';
import type { Logger } from '@chat/kit';
import type { Config } from './config';

/** What every route, action and worker of this service may use; built once by start(). */
export interface Services {
  db: Db;
  log: Logger;
  config: Config;
}
