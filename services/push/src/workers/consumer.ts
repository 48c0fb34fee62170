import { StreamConsumer, type StreamEntry } from '@chat/bus';
import { isOutboxType } from '@chat/contracts';
import type { Services } from '../context';
import { ActiveClients } from './active-clients';
import { DeviceHolders } from './device-holders';
import { handleUserDeactivated } from './legacy-registration';
import { handleDeletion, handleFlags, handleNewMessage } from './messages';

/** Times one entry is tried (the batch is retried with backoff in between) before it is skipped. */
const MAX_ENTRY_ATTEMPTS = 5;

/** Event types whose work is for people with a push device only. */
const DEVICE_EVENTS = new Set(['message', 'update_message_flags', 'delete_message']);

export interface MessageConsumer {
  stop(): Promise<void>;
}

/**
 * Reads the domain streams as the `push` consumer group, so that each event reaches one push
 * replica, and turns message, flag and deletion events into delivery jobs (and a user's
 * deactivation into forgetting their legacy tokens). Delivery is at least
 * once: a batch is acknowledged once its jobs are in Redis, and notify jobs have deterministic
 * ids, so handling an entry again does not notify twice.
 *
 * A failing entry (database or Redis briefly away) fails its batch, which the consumer retries
 * with backoff; an entry that keeps failing is logged and skipped rather than holding up every
 * later event of its partition.
 */
export async function startMessageConsumer(services: Services, consumerName: string): Promise<MessageConsumer> {
  const { keys, log, config } = services;
  const active = new ActiveClients(services.redis, config.REDIS_PREFIX, config.PUSH_ACTIVE_CLIENT_WINDOW_SECONDS);
  const attempts = new Map<string, number>();
  const holders = new DeviceHolders(services);

  const handleEntry = async (entry: StreamEntry, reach: Set<number>) => {
    if (isOutboxType(entry, 'message')) return handleNewMessage(services, active, entry.realmId, entry.payload, reach);
    if (isOutboxType(entry, 'update_message_flags')) return handleFlags(services, entry.realmId, entry.payload, reach);
    if (isOutboxType(entry, 'delete_message')) return handleDeletion(services, entry.realmId, entry.payload, reach);
    if (isOutboxType(entry, 'realm_user')) return handleUserDeactivated(services, entry.realmId, entry.payload);
    return undefined;
  };

  const consumer = new StreamConsumer({
    redis: services.redis,
    keys,
    group: keys.groups.push,
    consumer: consumerName,
    blockMs: 1000,
    onError: (err) => log.warn({ err }, 'push: stream consumer error'),
    handler: async (entries) => {
      // Read once per batch: who has a device or token at all. Everyone else is skipped
      // without touching the database.
      const reach = entries.some((e) => DEVICE_EVENTS.has(e.type)) ? await holders.current() : new Set<number>();
      for (const entry of entries) {
        const key = `${entry.partition}/${entry.streamId}`;
        try {
          await handleEntry(entry, reach);
          attempts.delete(key);
        } catch (err) {
          const n = (attempts.get(key) ?? 0) + 1;
          if (n >= MAX_ENTRY_ATTEMPTS) {
            attempts.delete(key);
            log.error({ err, type: entry.type, outboxId: entry.outboxId }, 'push: giving up on an event');
            continue;
          }
          attempts.set(key, n);
          throw err;
        }
      }
    },
  });
  await consumer.start();
  return consumer;
}
