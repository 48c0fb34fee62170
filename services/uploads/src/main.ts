import { createLogger, runService } from '@chat/kit';
import { start } from './app';

runService('uploads', () => start(), createLogger('uploads'));
