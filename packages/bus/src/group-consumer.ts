// A service's reader of the domain streams: a StreamConsumer (consumer.ts) whose handler takes
// the batch's entries one by one and gives up on an entry that keeps failing.
import type { StreamEntry } from './entries';
import type { BatchHandler, StreamConsumerOptions } from './consumer-options';
import { StreamConsumer } from './consumer';

/** Times one entry is tried (its batch retried with backoff in between) before it is skipped. */
export const MAX_ENTRY_ATTEMPTS = 5;
/**
 * The services' least time between two reads: a busy cluster's events are read and acknowledged
 * in batches of this long, paying each batch's costs once; an idle replica still reads an event
 * as soon as it arrives. What a consumer does with an event waits at most this much longer.
 */
export const GROUP_READ_INTERVAL_MS = 200;

/** What the runner logs to; a pino logger fits. */
export interface ConsumerLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface EntryHandlerOptions<B> {
  /** Read once per batch, before its entries (who has a device, which bots exist), and handed to each. */
  perBatch?: (entries: StreamEntry[]) => Promise<B>;
  /** Handles one entry; entries the consumer has nothing to do with just return. */
  handle: (entry: StreamEntry, batch: B) => Promise<void>;
  /** Told about an entry given up on, with the error of its last attempt. */
  onGiveUp: (err: unknown, entry: StreamEntry) => void;
  /** Default MAX_ENTRY_ATTEMPTS. */
  maxEntryAttempts?: number;
}

/**
 * A batch handler that hands each entry to `handle`. A failing entry fails its batch, which the
 * StreamConsumer retries with backoff (the entries before it are handled again, so handlers must
 * be idempotent); after maxEntryAttempts the entry is reported to onGiveUp and skipped, since
 * holding its partition back any longer would delay every later event of its realms.
 */
export function entryHandler<B = undefined>(o: EntryHandlerOptions<B>): BatchHandler {
  const max = o.maxEntryAttempts ?? MAX_ENTRY_ATTEMPTS;
  const attempts = new Map<string, number>();
  return async (entries) => {
    const batch = (o.perBatch ? await o.perBatch(entries) : undefined) as B;
    for (const entry of entries) {
      const key = `${entry.partition}/${entry.streamId}`;
      try {
        await o.handle(entry, batch);
        attempts.delete(key);
      } catch (err) {
        const n = (attempts.get(key) ?? 0) + 1;
        if (n < max) {
          attempts.set(key, n);
          throw err;
        }
        attempts.delete(key);
        o.onGiveUp(err, entry);
      }
    }
  };
}

export interface GroupConsumerOptions<B> extends Omit<StreamConsumerOptions, 'handler' | 'onError'>, Omit<EntryHandlerOptions<B>, 'onGiveUp'> {
  /** Names the consumer in its log lines, e.g. 'push'. */
  name: string;
  log: ConsumerLog;
}

/**
 * Starts a service's consumer of the domain streams: entries handled one by one with
 * retry-then-give-up (entryHandler), read at most every GROUP_READ_INTERVAL_MS and blocking 1 s
 * unless told otherwise; read errors logged as warnings, an entry given up on as an error.
 */
export async function startGroupConsumer<B = undefined>(o: GroupConsumerOptions<B>): Promise<StreamConsumer> {
  const { name, log, perBatch, handle, maxEntryAttempts, ...stream } = o;
  const consumer = new StreamConsumer({
    blockMs: 1000,
    minReadIntervalMs: GROUP_READ_INTERVAL_MS,
    ...stream,
    onError: (err) => log.warn({ err }, `${name}: stream consumer error`),
    handler: entryHandler({
      perBatch,
      handle,
      maxEntryAttempts,
      onGiveUp: (err, entry) => log.error({ err, type: entry.type, outboxId: entry.outboxId }, `${name}: giving up on an event`),
    }),
  });
  await consumer.start();
  return consumer;
}
