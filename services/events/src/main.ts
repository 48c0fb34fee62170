import { createLogger, runService } from '@chat/kit';
import { start } from './app';

runService('events', () => start(), createLogger('events'));
