import { configOrExit, createLogger, runService } from '@chat/kit';
import { start } from './app';
import { readConfig } from './config';

const config = configOrExit('push', () => readConfig());
const log = createLogger('push', config.LOG_LEVEL);
runService('push', () => start({}, log), log);
