/**
 * The messaging service's reader of the domain streams (consumer group `messaging`): it turns
 * the event of a new account into the onboarding messages (actions/onboarding.ts), and the
 * uploads service's `thumbnails` event into re-rendered messages that showed the image loading
 * (actions/thumbnail-renders.ts). Delivery is at least once; the onboarding actions are
 * idempotent per (user, kind) and a re-render changes only messages still showing a placeholder,
 * so a redelivered or claimed entry does nothing twice.
 */
import { CONSUMER_GROUPS, StreamConsumer, type createRedis, type Keyspace, type StreamEntry } from '@chat/bus';
import { isOutboxType } from '@chat/contracts';
import type { Services } from '../context';
import { doOnboardNewUser, newUserNotice } from '../actions/onboarding';
import { doRefreshThumbnailPreviews } from '../actions/thumbnail-renders';

/** Consumer group of this service on the partition streams: one per kind of consumer, not per replica. */
export const MESSAGING_GROUP = CONSUMER_GROUPS.messaging;
/**
 * Least time between two reads of the streams: a busy cluster's events (almost none of them a
 * new account) are read and acknowledged in batches of this interval's worth, paying the reads'
 * costs once per batch; an idle replica still reads an event as soon as it arrives. A new
 * account's onboarding messages wait at most this much longer.
 */
const READ_INTERVAL_MS = 200;
/** Times one entry is tried (its batch retried with backoff in between) before it is skipped. */
const MAX_ENTRY_ATTEMPTS = 5;

export interface OnboardingConsumerOptions {
  redis: ReturnType<typeof createRedis>;
  keys: Keyspace;
  consumer: string;
  partitions?: number[];
  blockMs?: number;
  claimIdleMs?: number;
}

export async function startOnboardingConsumer(services: Services, o: OnboardingConsumerOptions): Promise<StreamConsumer> {
  const attempts = new Map<string, number>();
  const handle = async (entry: StreamEntry) => {
    if (isOutboxType(entry, 'thumbnails')) return void (await doRefreshThumbnailPreviews(services, entry.realmId, entry.payload.event.path_id));
    const notice = isOutboxType(entry, 'realm_user') ? newUserNotice(entry.payload) : null;
    if (notice) await doOnboardNewUser(services, notice);
  };
  const consumer = new StreamConsumer({
    redis: o.redis,
    keys: o.keys,
    group: MESSAGING_GROUP,
    consumer: o.consumer,
    blockMs: o.blockMs ?? 1000,
    minReadIntervalMs: READ_INTERVAL_MS,
    // Only a new account's event and a finished thumbnail are parsed; every other is
    // acknowledged unread (ADR 0021).
    select: (heads) => heads.map((h) => h.type === 'realm_user' || h.type === 'thumbnails'),
    ...(o.partitions ? { partitions: o.partitions } : {}),
    ...(o.claimIdleMs ? { claimIdleMs: o.claimIdleMs } : {}),
    onError: (err) => services.log.warn({ err }, 'messaging: stream consumer error'),
    handler: async (entries) => {
      for (const entry of entries) {
        const key = `${entry.partition}/${entry.streamId}`;
        try {
          await handle(entry);
          attempts.delete(key);
        } catch (err) {
          const n = (attempts.get(key) ?? 0) + 1;
          if (n >= MAX_ENTRY_ATTEMPTS) {
            // Holding the partition back any longer would delay every later event of its realms;
            // only this account's onboarding messages are lost.
            attempts.delete(key);
            services.log.error({ err, type: entry.type, outboxId: entry.outboxId }, 'messaging: giving up on an event');
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
