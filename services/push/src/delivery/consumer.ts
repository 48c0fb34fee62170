import { StreamConsumer, type StreamEntry } from '@chat/bus';
import type { Services } from '../context';
import { ActiveClients } from './active-clients';
import { handleUserDeactivated } from './legacy-registration';
import { handleDeletion, handleFlags, handleNewMessage, type MessagePayload } from './messages';

/** Times one entry is tried (the batch is retried with backoff in between) before it is skipped. */
const MAX_ENTRY_ATTEMPTS = 5;

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

  const handleEntry = async (entry: StreamEntry) => {
    const payload = entry.payload as unknown as Record<string, unknown> & { event: Record<string, unknown>; users: unknown };
    switch (entry.type) {
      case 'message':
        return handleNewMessage(services, active, entry.realmId, payload as unknown as MessagePayload);
      case 'update_message_flags':
        return handleFlags(services, entry.realmId, payload);
      case 'delete_message':
        return handleDeletion(services, entry.realmId, payload);
      case 'realm_user':
        return handleUserDeactivated(services, entry.realmId, payload);
      default:
        return undefined;
    }
  };

  const consumer = new StreamConsumer({
    redis: services.redis,
    keys,
    group: keys.groups.push,
    consumer: consumerName,
    blockMs: 1000,
    onError: (err) => log.warn({ err }, 'push: stream consumer error'),
    handler: async (entries) => {
      for (const entry of entries) {
        const key = `${entry.partition}/${entry.streamId}`;
        try {
          await handleEntry(entry);
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
