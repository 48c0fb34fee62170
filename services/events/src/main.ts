import { configOrExit, createLogger, runService } from '@chat/kit';
import { start } from './app';
import { readConfig } from './config';

const config = configOrExit('events', () => readConfig());
runService('events', () => start(), createLogger('events', config.LOG_LEVEL));
