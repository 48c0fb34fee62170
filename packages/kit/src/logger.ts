import pino, { type Logger } from 'pino';

export type { Logger };

/** `level` is the service's validated LOG_LEVEL. */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({ name: service, level, base: { service, pid: process.pid } });
}
