// What a StreamConsumer is given (consumer.ts reads the streams with it).
import type { Redis } from 'ioredis';
import type { Keyspace } from './keys';
import type { StreamEntry } from './entries';
import type { BatchSelector } from './reading';

export type BatchHandler = (entries: StreamEntry[]) => Promise<void>;

export interface StreamConsumerOptions {
  /** A regular connection: group creation and waking the reader. The consumer duplicates it for its blocking reads. */
  redis: Redis;
  keys: Keyspace;
  /** Consumer group, e.g. keys.groups.events. */
  group: string;
  /** Unique among live consumers of the group. Default `<hostname>-<pid>`. */
  consumer?: string;
  /** Partitions to read; default all. See setPartitions(). */
  partitions?: number[];
  /**
   * Gets entries in stream order within each partition and may hold several partitions. The
   * entries are acknowledged when it resolves; when it throws, the same batch is retried with
   * backoff until it succeeds or the consumer stops, so that later events never overtake it.
   * An event that can never be handled must therefore be caught (and logged) by the handler.
   */
  handler: BatchHandler;
  /**
   * Picks, before any payload is parsed, the entries the handler gets; the others are acknowledged
   * with their batch unparsed. Throwing retries the batch like a failing handler. Default: all.
   */
  select?: BatchSelector;
  /**
   * Least time between the starts of two reads. An empty read still returns at the first entry,
   * so an idle group answers at once; a busy one pays its per-batch costs once per interval, for
   * a bigger batch. Default 0.
   */
  minReadIntervalMs?: number;
  /** Entries per partition per read. Default 100. */
  batchSize?: number;
  /** Longest wait for new entries in one XREADGROUP. Default 5000 ms. */
  blockMs?: number;
  /**
   * An entry pending this long is taken to belong to a dead consumer and is claimed. Must exceed
   * the slowest batch, or a live consumer's batch gets handled twice. Default 30 000 ms.
   */
  claimIdleMs?: number;
  /** How often to look for such entries. Default 5000 ms. */
  claimIntervalMs?: number;
  /**
   * Where a group created by this consumer starts: '$' (default) delivers events published from
   * now on, '0' everything still in the streams.
   */
  startId?: string;
  onError?: (err: Error) => void;
}
