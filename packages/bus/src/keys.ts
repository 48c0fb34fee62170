/**
 * Every Redis key, stream and channel name the system uses is built here, under one prefix, so
 * that a test file can own a private key space in a shared Redis and a key's owner is findable.
 *
 * Keys that one command or script touches together share a Redis Cluster hash tag (the part in
 * braces), so the layout already works on a cluster even though we run a single node today.
 */

export const DEFAULT_STREAM_PARTITIONS = 8;

/** Consumer groups reading the domain streams; one per kind of consumer, not per replica. */
export const CONSUMER_GROUPS = {
  /** events service: fans domain events out into per-client queues. */
  events: 'events',
  /** push service: turns message events into mobile notifications. */
  push: 'push',
  /** uploads service: records which messages link to which uploaded files. */
  uploads: 'uploads',
  /** messaging service: the messages someone's joining sets off (welcome, signup, inviter). */
  messaging: 'messaging',
} as const;

export function streamPartitionsFromEnv(): number {
  const raw = process.env.STREAM_PARTITIONS;
  if (raw === undefined || raw === '') return DEFAULT_STREAM_PARTITIONS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1024) {
    throw new Error(`STREAM_PARTITIONS must be an integer in 1..1024, got ${JSON.stringify(raw)}`);
  }
  return n;
}

/**
 * A realm's events always land in the same partition, so one stream orders them. Changing the
 * partition count moves realms between streams: only do it with the streams drained.
 */
export function partitionOf(realmId: number, partitions: number): number {
  return ((realmId % partitions) + partitions) % partitions;
}

export interface KeyspaceOptions {
  /** Defaults to STREAM_PARTITIONS, then 8. */
  partitions?: number;
}

export type Keyspace = ReturnType<typeof keyspace>;

/**
 * `prefix` is prepended verbatim (end it with ':'); it must not contain braces, which would
 * hijack the hash tags below.
 */
export function keyspace(prefix: string, opts: KeyspaceOptions = {}) {
  if (/[{}]/.test(prefix)) throw new Error(`key prefix must not contain braces: ${prefix}`);
  const partitions = opts.partitions ?? streamPartitionsFromEnv();
  if (!Number.isInteger(partitions) || partitions < 1) {
    throw new Error(`partitions must be a positive integer, got ${partitions}`);
  }
  const checkPartition = (p: number): number => {
    if (!Number.isInteger(p) || p < 0 || p >= partitions) {
      throw new Error(`partition ${p} is outside 0..${partitions - 1}`);
    }
    return p;
  };

  const stream = (partition: number) => `${prefix}{s:${checkPartition(partition)}}:events`;
  const queue = (queueId: string) => `${prefix}{q:${queueId}}`;

  return {
    prefix,
    partitions,
    groups: CONSUMER_GROUPS,

    partitionOf: (realmId: number) => partitionOf(realmId, partitions),
    allPartitions: (): number[] => Array.from({ length: partitions }, (_, i) => i),

    /** Domain event stream of one partition. */
    stream,
    streamForRealm: (realmId: number) => stream(partitionOf(realmId, partitions)),
    allStreams: (): string[] => Array.from({ length: partitions }, (_, i) => stream(i)),
    /** Inverse of stream(); undefined for keys that are not one of our streams. */
    partitionOfStream(key: string): number | undefined {
      const m = key.startsWith(prefix) ? /^\{s:(\d+)\}:events$/.exec(key.slice(prefix.length)) : null;
      const p = m ? Number(m[1]) : NaN;
      return p >= 0 && p < partitions ? p : undefined;
    },
    /**
     * Marks an outbox row as already appended to its stream. Same hash tag as the stream,
     * because the publish script reads it and XADDs atomically.
     */
    publishedMarker: (partition: number, outboxId: string) =>
      `${prefix}{s:${checkPartition(partition)}}:published:${outboxId}`,

    /** One client's event queue (packages/queues). A queue's data keys share one slot. */
    queueEvents: (queueId: string) => `${queue(queueId)}:events`,
    /** The queue's registration, sequence and per-partition positions. */
    queueMeta: (queueId: string) => `${queue(queueId)}:meta`,
    /** Pub/sub channel that wakes the long-polls waiting on a queue; channels have no slot. */
    queueWakeChannel: (queueId: string) => `${prefix}wake:${queueId}`,
    /** Index sets fan-out uses to find queues: one user's, a realm's, and all_public_streams ones. */
    userQueues: (realmId: number, userId: number) => `${prefix}qidx:user:${realmId}:${userId}`,
    realmQueues: (realmId: number) => `${prefix}qidx:realm:${realmId}`,
    publicStreamQueues: (realmId: number) => `${prefix}qidx:public:${realmId}`,

    /** events service: the lease on reading one partition, and the set of live replicas. */
    partitionLease: (partition: number) => `${prefix}events:lease:${checkPartition(partition)}`,
    eventsReplicas: () => `${prefix}events:replicas`,

    /** Gateway: cached result of authenticating one API key (by its SHA-256, hex). */
    authCache: (apiKeySha256: string) => `${prefix}auth:${apiKeySha256}`,
    /** Gateway: key prefix handed to the rate limiter. */
    rateLimitPrefix: () => `${prefix}rl`,
    /** Uploads: lock on one tus upload, and the channel that asks its holder to release it. */
    tusLock: (uploadId: string) => `${prefix}tus:lock:${uploadId}`,
    tusReleaseChannel: () => `${prefix}tus:release`,

    /**
     * BullMQ prefix. BullMQ's scripts touch many keys of one queue, so on a cluster wrap queue
     * names in braces (`{push}`) to keep each queue on one slot.
     */
    // BullMQ keeps each queue's keys together with Lua scripts: the braces put them in one slot on a cluster.
    bullPrefix: () => `{${prefix}bull}`,
  };
}
