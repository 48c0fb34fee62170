import { configOrExit, createLogger, runService } from '@chat/kit';
import { start } from './app';
import { readConfig } from './config';

const config = configOrExit('uploads', () => readConfig());
runService('uploads', () => start(), createLogger('uploads', config.LOG_LEVEL));
