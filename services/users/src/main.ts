import { configOrExit, createLogger, runService } from '@chat/kit';
import { start } from './app';
import { readConfig } from './config';

const config = configOrExit('users', () => readConfig());
const log = createLogger('users', config.LOG_LEVEL);
runService('users', () => start({}, log), log);
