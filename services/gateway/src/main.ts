import { createLogger, runService } from '@chat/kit';
import { start } from './app';

runService('gateway', () => start(), createLogger('gateway'));
