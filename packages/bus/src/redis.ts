import { Redis, type RedisOptions } from 'ioredis';

/** Local Redis, so that every service and test runs with no configuration. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export function redisUrl(): string {
  return process.env.REDIS_URL || DEFAULT_REDIS_URL;
}

export interface CreateRedisOptions {
  /**
   * Shows up in `CLIENT LIST` as `<service>:<name>` so that a stuck or leaking connection can be
   * traced to its owner. The service part comes from SERVICE_NAME.
   */
  name?: string;
  /**
   * For connections that sit in blocking commands (XREADGROUP BLOCK, BLPOP) or subscribe: their
   * commands wait for the connection to come back instead of failing after a few retries.
   */
  blocking?: boolean;
  /** Reported once per outage instead of once per reconnect attempt. Defaults to console.warn. */
  onError?: (err: Error) => void;
  /** Escape hatch; wins over everything above. */
  redisOptions?: RedisOptions;
}

/**
 * Reconnect forever: a service without Redis is useless, and its readiness probe already says
 * so, so giving up would only turn an outage into a crash loop. Backoff is exponential from
 * 50 ms to 2 s with jitter so that replicas do not reconnect in lockstep after a failover.
 */
export function reconnectDelay(attempt: number): number {
  const base = Math.min(50 * 2 ** Math.min(attempt, 6), 2000);
  return base + Math.floor(Math.random() * 100);
}

/**
 * Request-path connections fail a command after this many reconnect attempts (about half a
 * second of backoff). An HTTP handler then answers 503 quickly instead of holding the request,
 * and its memory, until Redis returns; ioredis's default of 20 would park a request for ~20 s
 * and `null` would park it forever.
 */
export const REQUEST_MAX_RETRIES = 3;

function connectionName(name: string | undefined): string {
  const service = process.env.SERVICE_NAME || 'chat';
  // CLIENT SETNAME rejects spaces and newlines.
  return `${service}:${name ?? 'default'}`.replace(/\s+/g, '_');
}

function reportOncePerOutage(redis: Redis, onError: (err: Error) => void): void {
  let reported = false;
  redis.on('ready', () => {
    reported = false;
  });
  // Without a listener ioredis logs every failed reconnect; with one that reports each error
  // a Redis outage floods the logs at the reconnect rate.
  redis.on('error', (err: Error) => {
    if (reported) return;
    reported = true;
    onError(err);
  });
}

/**
 * The one place that builds Redis connections. `url` defaults to REDIS_URL, then
 * redis://127.0.0.1:6379.
 *
 * Regular connections are shared by a whole process for ordinary commands. Blocking ones
 * (`blocking: true`, or createBlockingRedis) must each be dedicated to one loop: a blocked
 * command holds the connection, and every command queued behind it waits.
 */
export function createRedis(url: string = redisUrl(), opts: CreateRedisOptions = {}): Redis {
  const redis = new Redis(url, {
    connectionName: connectionName(opts.name),
    retryStrategy: reconnectDelay,
    maxRetriesPerRequest: opts.blocking ? null : REQUEST_MAX_RETRIES,
    // Queue commands issued before the first connect; with maxRetriesPerRequest they still fail
    // fast during an outage.
    enableOfflineQueue: true,
    connectTimeout: 5000,
    ...opts.redisOptions,
  });
  reportOncePerOutage(
    redis,
    opts.onError ?? ((err) => console.warn(`[redis ${connectionName(opts.name)}] ${err.message}`)),
  );
  return redis;
}

/**
 * A dedicated blocking connection to the same server, database and credentials as `redis`, for
 * code that is handed a connection rather than a URL.
 */
export function duplicateBlocking(redis: Redis, name: string, onError?: (err: Error) => void): Redis {
  const copy = redis.duplicate({ connectionName: connectionName(name), maxRetriesPerRequest: null });
  reportOncePerOutage(copy, onError ?? ((err) => console.warn(`[redis ${connectionName(name)}] ${err.message}`)));
  return copy;
}

/** A connection for one blocking loop or subscriber; see createRedis. */
export function createBlockingRedis(url: string = redisUrl(), opts: Omit<CreateRedisOptions, 'blocking'> = {}): Redis {
  return createRedis(url, { ...opts, blocking: true });
}
