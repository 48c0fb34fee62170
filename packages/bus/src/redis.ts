import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';

/** Local Redis, so that every service and test runs with no configuration. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export interface CreateRedisOptions {
  /**
   * Shows up in `CLIENT LIST` as `<service>:<name>` so that a stuck or leaking connection can be
   * traced to its owner.
   */
  name?: string;
  /** The `<service>` part of the connection name: the process's SERVICE_NAME; default "chat". */
  service?: string;
  /**
   * For connections that sit in blocking commands (XREADGROUP BLOCK, BLPOP) or subscribe: their
   * commands wait for the connection to come back instead of failing after a few retries.
   */
  blocking?: boolean;
  /** Reported once per outage instead of once per reconnect attempt. Defaults to console.warn. */
  onError?: (err: Error) => void;
  /** Escape hatch; wins over everything above (per node on a cluster). */
  redisOptions?: RedisOptions;
  /** Escape hatch for `redis+cluster://` URLs. */
  clusterOptions?: ClusterOptions;
}

/** URL scheme that selects Redis Cluster: `redis+cluster://[user:password@]host:port,host:port`. */
export const CLUSTER_SCHEME = 'redis+cluster:';

export interface ClusterUrl {
  nodes: Array<{ host: string; port: number }>;
  username?: string;
  password?: string;
}

/**
 * Parses a `redis+cluster://` URL: any subset of the cluster's nodes (the rest are discovered
 * with CLUSTER SLOTS), comma-separated, with optional credentials shared by every node.
 * Returns null for any other URL.
 */
export function parseClusterUrl(url: string): ClusterUrl | null {
  if (!url.toLowerCase().startsWith(`${CLUSTER_SCHEME}//`)) return null;
  let rest = url.slice(CLUSTER_SCHEME.length + 2).replace(/[/?].*$/, '');
  const out: ClusterUrl = { nodes: [] };
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    const auth = rest.slice(0, at);
    rest = rest.slice(at + 1);
    const colon = auth.indexOf(':');
    const user = decodeURIComponent(colon >= 0 ? auth.slice(0, colon) : '');
    const pass = decodeURIComponent(colon >= 0 ? auth.slice(colon + 1) : auth);
    if (user) out.username = user;
    if (pass) out.password = pass;
  }
  for (const part of rest.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(part);
    if (!m) throw new Error(`bad node in Redis cluster URL: ${part}`);
    out.nodes.push({ host: m[1]!.replace(/^\[|\]$/g, ''), port: m[2] ? Number(m[2]) : 6379 });
  }
  if (!out.nodes.length) throw new Error('Redis cluster URL names no node');
  return out;
}

/**
 * True for a connection built from a `redis+cluster://` URL. Code whose commands span hash
 * slots (several queues, several partitions) checks this: a hand-made pipeline or a
 * multi-stream XREADGROUP must be split per slot there.
 */
export function isCluster(redis: unknown): redis is Cluster {
  return !!redis && (redis as { isCluster?: boolean }).isCluster === true;
}

/**
 * Sends independent commands that may touch keys of different hash slots in one batch: one
 * pipeline on a single node; on a cluster, plain concurrent commands, which the connection's
 * auto-pipelining groups into one pipeline per node. Results come back in `pipeline.exec()`
 * shape, one `[error, reply]` per op; a failing op does not fail the others. Commands of
 * one slot keep their order either way.
 */
export async function crossSlot(redis: Redis | Cluster, ops: Array<(c: Redis) => unknown>): Promise<Array<[Error | null, unknown]>> {
  if (!ops.length) return [];
  if (!isCluster(redis)) {
    const pipe = redis.pipeline();
    for (const op of ops) op(pipe as unknown as Redis);
    return ((await pipe.exec()) ?? []) as Array<[Error | null, unknown]>;
  }
  return Promise.all(
    ops.map((op) => {
      try {
        // A Cluster answers the same commands; the ops are written against the single-node type.
        return Promise.resolve(op(redis as unknown as Redis)).then(
          (v): [Error | null, unknown] => [null, v],
          (e: Error): [Error | null, unknown] => [e, null],
        );
      } catch (e) {
        return Promise.resolve<[Error | null, unknown]>([e as Error, null]);
      }
    }),
  );
}

/** Every master of a cluster (for SCAN, SCRIPT LOAD), or the single node itself. */
export function masters(redis: Redis): Redis[] {
  return isCluster(redis) ? (redis as unknown as Cluster).nodes('master') : [redis];
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

function connectionName(service: string | undefined, name: string | undefined): string {
  // CLIENT SETNAME rejects spaces and newlines.
  return `${service || 'chat'}:${name ?? 'default'}`.replace(/\s+/g, '_');
}

/** The service part of an existing connection's name, for its duplicates. */
function serviceOf(redis: Redis): string | undefined {
  const named = isCluster(redis)
    ? (redis as unknown as Cluster).options.redisOptions?.connectionName
    : redis.options.connectionName;
  return named?.split(':')[0];
}

function reportOncePerOutage(redis: Redis | Cluster, onError: (err: Error) => void): void {
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
 * The one place that builds Redis connections; `url` is the configuration's REDIS_URL.
 *
 * Regular connections are shared by a whole process for ordinary commands. Blocking ones
 * (`blocking: true`, or createBlockingRedis) must each be dedicated to one loop: a blocked
 * command holds the connection, and every command queued behind it waits.
 */
export function createRedis(url: string, opts: CreateRedisOptions = {}): Redis {
  const cluster = parseClusterUrl(url);
  const nodeOptions: RedisOptions = {
    connectionName: connectionName(opts.service, opts.name),
    retryStrategy: reconnectDelay,
    maxRetriesPerRequest: opts.blocking ? null : REQUEST_MAX_RETRIES,
    // Queue commands issued before the first connect; with maxRetriesPerRequest they still fail
    // fast during an outage.
    enableOfflineQueue: true,
    connectTimeout: 5000,
    // Commands issued in the same tick leave in one write: a burst of wake-ups or of long-poll
    // fetches costs one syscall instead of one per command.
    enableAutoPipelining: !opts.blocking,
    ...(cluster?.username ? { username: cluster.username } : {}),
    ...(cluster?.password ? { password: cluster.password } : {}),
    ...opts.redisOptions,
  };
  const redis = cluster
    ? new Cluster(cluster.nodes, {
        redisOptions: nodeOptions,
        clusterRetryStrategy: reconnectDelay,
        enableOfflineQueue: true,
        // Concurrent commands on keys of many slots (fan-out to many queues) go out as one
        // pipeline per node, which is what a hand-made pipeline does on a single node.
        // Blocking loops send one command at a time and must not wait behind a batch.
        enableAutoPipelining: !opts.blocking,
        ...opts.clusterOptions,
      })
    : new Redis(url, nodeOptions);
  reportOncePerOutage(
    redis,
    opts.onError ?? ((err) => console.warn(`[redis ${connectionName(opts.service, opts.name)}] ${err.message}`)),
  );
  // A Cluster answers the same commands as a Redis; the differences that matter (multi-key
  // commands, pipelines and SCAN across slots) are handled where they occur, through isCluster.
  return redis as unknown as Redis;
}

/**
 * A dedicated blocking connection to the same server, database and credentials as `redis`, for
 * code that is handed a connection rather than a URL.
 */
export function duplicateBlocking(redis: Redis, name: string, onError?: (err: Error) => void): Redis {
  const connectionName = `${serviceOf(redis) ?? 'chat'}:${name}`.replace(/\s+/g, '_');
  const copy = isCluster(redis)
    ? ((redis as unknown as Cluster).duplicate([], {
        enableAutoPipelining: false,
        redisOptions: { connectionName, maxRetriesPerRequest: null },
      }) as unknown as Redis)
    : redis.duplicate({ connectionName, maxRetriesPerRequest: null });
  reportOncePerOutage(copy, onError ?? ((err) => console.warn(`[redis ${connectionName}] ${err.message}`)));
  return copy;
}

/** A connection for one blocking loop or subscriber; see createRedis. */
export function createBlockingRedis(url: string, opts: Omit<CreateRedisOptions, 'blocking'> = {}): Redis {
  return createRedis(url, { ...opts, blocking: true });
}

/**
 * True for an error a retry can cure: the connection failed or closed, or the server answered
 * that it cannot serve right now (loading, failing over, read-only replica, busy script).
 * False for an answer about the command itself (wrong type, script error).
 */
export function isTransientRedisError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name !== 'ReplyError') return true;
  return /^(LOADING|CLUSTERDOWN|TRYAGAIN|READONLY|MASTERDOWN|BUSY|MOVED|ASK)\b/.test(err.message);
}
