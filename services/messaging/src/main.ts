import { createLogger, runService } from '@chat/kit';
import { start } from './app';

runService('messaging', () => start(), createLogger('messaging'));
