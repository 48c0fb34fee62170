/**
 * Every Redis key, key prefix handed to a library, stream and channel name the system uses is
 * built here, under one prefix, so that a test file can own a private key space in a shared
 * Redis, a key's owner is findable, and no two owners can collide (keys.test.ts checks that).
 *
 * Keys that one command or script touches together share a Redis Cluster hash tag (the part in
 * braces), so the layout works on a cluster as on a single node.
 *
 * The strings are part of the stored data: a key renamed here orphans what older processes
 * wrote under the old name. Change one only with a note in docs/bus.md.
 */
import { createHash } from 'node:crypto';

export const DEFAULT_STREAM_PARTITIONS = 8;
/** Largest STREAM_PARTITIONS the configuration accepts. */
export const MAX_STREAM_PARTITIONS = 1024;

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
  /** messaging service: new messages that trigger outgoing-webhook bots. */
  outgoing_webhooks: 'outgoing_webhooks',
  /** users service: new messages that may call for a missed-message email. */
  mail: 'mail',
} as const;

/**
 * A realm's events always land in the same partition, so one stream orders them. Changing the
 * partition count moves realms between streams: only do it with the streams drained.
 */
export function partitionOf(realmId: number, partitions: number): number {
  return ((realmId % partitions) + partitions) % partitions;
}

/** What a login failure is counted against (kit's LoginFailureLimiter keeps one limiter each). */
export type LoginFailureSubject = 'ip' | 'account';
/** Where credentials are checked: API keys at the gateway, passwords at the users service. */
export type LoginFailureKind = 'basic' | 'password';

export type RedisKeys = ReturnType<typeof redisKeys>;

/**
 * The keys that do not depend on the stream partition count. `prefix` is prepended verbatim
 * (end it with ':'); it must not contain braces, which would hijack the hash tags below.
 */
export function redisKeys(prefix: string) {
  if (/[{}]/.test(prefix)) throw new Error(`key prefix must not contain braces: ${prefix}`);
  const queue = (queueId: string) => `${prefix}{q:${queueId}}`;

  return {
    prefix,

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

    /** events service: the sorted set of live replicas (the partition leases are in keyspace()). */
    eventsReplicas: () => `${prefix}events:replicas`,

    /**
     * Cached result of authenticating one API key, named by the key's SHA-256 so the key itself
     * is never a Redis key. The gateway writes it; the users service deletes it when a change
     * must take effect at once.
     */
    authCache: (apiKey: string) => `${prefix}auth:${createHash('sha256').update(apiKey).digest('hex')}`,
    /**
     * Pub/sub channel on which the users service tells every gateway that cached authentications
     * were deleted, so that each drops what it keeps in process too (forgetCachedAuth).
     */
    authForgetChannel: () => `${prefix}auth:forget`,
    /** Gateway: key prefix handed to the request rate limiter, which appends `:<client>`. */
    rateLimitPrefix: () => `${prefix}rl`,
    /** Key prefix of one login failure limiter (it appends `:<address or account>`). */
    loginFailurePrefix: (kind: LoginFailureKind, subject: LoginFailureSubject) => `${prefix}loginfail:${kind}:${subject}`,
    /** Messaging: key prefix of an inbound mail limiter (it appends `:<envelope sender or realm id>`). */
    inboundMailLimitPrefix: (subject: 'sender' | 'realm') => `${prefix}inmail:${subject}`,

    /** Uploads: lock on one tus upload, and the channel that asks its holder to release it. */
    tusLock: (uploadId: string) => `${prefix}tus:lock:${uploadId}`,
    tusReleaseChannel: () => `${prefix}tus:release`,

    /** One browser session (express-session id): the users service writes it, the gateway reads it (kit browser-session). */
    pageSession: (sessionId: string) => `${prefix}session:${sessionId}`,
    /** Users: a one-time token (e-mail confirmation, password reset, ...) of one kind. */
    oneTimeToken: (kind: string, token: string) => `${prefix}token:${kind}:${token}`,
    /** Users: requests of one subject counted within one window (mails sent from the pages). */
    pageLimit: (windowSeconds: number, subject: string) => `${prefix}pagelimit:${windowSeconds}:${subject}`,

    /**
     * A bot's avatar image on its way from the users service (POST /bots with a file) to the
     * uploads service, which stores it and deletes this key; named by a random token.
     */
    botAvatarHandover: (token: string) => `${prefix}bot-avatar:${token}`,

    /**
     * Users: one person's missed-message email batch, the messages waiting to be mailed
     * (message id -> trigger) and the id of the delayed job that will mail them; one hash tag,
     * as one transaction reads and changes both.
     */
    missedMailPending: (realmId: number, userId: number) => `${prefix}{mm:${realmId}:${userId}}:pending`,
    missedMailBatch: (realmId: number, userId: number) => `${prefix}{mm:${realmId}:${userId}}:batch`,
    /** Users: until when the members who became full members by waiting were announced (ISO time). */
    fullMembersAnnouncedUntil: () => `${prefix}users:full-members:announced-until`,

    /** Push: bumped whenever anyone's devices or legacy tokens change. */
    pushDeviceHoldersVersion: () => `${prefix}push:device-holders:version`,
    /** Push: a user's legacy tokens whose relay registration is not yet in step. */
    pushLegacyPending: (userId: number) => `${prefix}push:legacy-pending:${userId}`,

    /** Messaging: a page's link preview (JSON, or null for none), named by a hash of its URL. */
    urlPreview: (url: string) => `${prefix}url-preview:${createHash('sha256').update(url).digest('hex')}`,

    /**
     * BullMQ prefix (queues of push, uploads, users and messaging). BullMQ's scripts touch many keys of one
     * queue: the braces put all of them in one slot on a cluster.
     */
    bullPrefix: () => `{${prefix}bull}`,

    /** SCAN patterns over the index sets above (not keys). */
    patterns: {
      queueIndexes: () => `${prefix}qidx:*`,
      realmQueueIndexes: () => `${prefix}qidx:realm:*`,
    },
  };
}

export interface KeyspaceOptions {
  /** STREAM_PARTITIONS of the configuration; the same in every service. */
  partitions: number;
}

export type Keyspace = ReturnType<typeof keyspace>;

/** Every key, including the partitioned streams and what goes with them. */
export function keyspace(prefix: string, opts: KeyspaceOptions) {
  const { partitions } = opts;
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

  return {
    ...redisKeys(prefix),
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

    /** events service: the lease on reading one partition. */
    partitionLease: (partition: number) => `${prefix}events:lease:${checkPartition(partition)}`,
  };
}
