import { createLogger, runService } from '@chat/kit';
import { start } from './app';

const log = createLogger('users');
runService('users', () => start({}, log), log);
