import { configOrExit, createLogger, runService } from '@chat/kit';
import { start } from './app';
import { readConfig } from './config';

const config = configOrExit('messaging', () => readConfig());
runService('messaging', () => start(), createLogger('messaging', config.LOG_LEVEL));
