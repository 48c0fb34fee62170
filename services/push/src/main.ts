import { createLogger, runService } from '@chat/kit';
import { start } from './app';

const log = createLogger('push');
runService('push', () => start({}, log), log);
