/**
 * The messaging service's reader of the domain streams (consumer group `messaging`): it turns
 * the event of a new account into the onboarding messages (actions/onboarding.ts), and the
 * uploads service's `thumbnails` event into re-rendered messages that showed the image loading
 * (actions/thumbnail-renders.ts). Delivery is at least once; the onboarding actions are
 * idempotent per (user, kind) and a re-render changes only messages still showing a placeholder,
 * so a redelivered or claimed entry does nothing twice.
 */
import { CONSUMER_GROUPS, startGroupConsumer, type createRedis, type Keyspace, type StreamConsumer } from '@chat/bus';
import { isOutboxType } from '@chat/contracts';
import type { Services } from '../context';
import { doOnboardNewUser, newUserNotice } from '../actions/onboarding';
import { doRefreshThumbnailPreviews } from '../actions/thumbnail-renders';

/** Consumer group of this service on the partition streams: one per kind of consumer, not per replica. */
export const MESSAGING_GROUP = CONSUMER_GROUPS.messaging;

export interface OnboardingConsumerOptions {
  redis: ReturnType<typeof createRedis>;
  keys: Keyspace;
  consumer: string;
  partitions?: number[];
  blockMs?: number;
  claimIdleMs?: number;
}

export async function startOnboardingConsumer(services: Services, o: OnboardingConsumerOptions): Promise<StreamConsumer> {
  // An event given up on loses only that account's onboarding messages or that image's re-render.
  return startGroupConsumer({
    name: 'messaging',
    log: services.log,
    redis: o.redis,
    keys: o.keys,
    group: MESSAGING_GROUP,
    consumer: o.consumer,
    // Only a new account's event and a finished thumbnail are parsed; every other is
    // acknowledged unread (ADR 0021).
    select: (heads) => heads.map((h) => h.type === 'realm_user' || h.type === 'thumbnails'),
    ...(o.blockMs ? { blockMs: o.blockMs } : {}),
    ...(o.partitions ? { partitions: o.partitions } : {}),
    ...(o.claimIdleMs ? { claimIdleMs: o.claimIdleMs } : {}),
    handle: async (entry) => {
      if (isOutboxType(entry, 'thumbnails')) return void (await doRefreshThumbnailPreviews(services, entry.realmId, entry.payload.event.path_id));
      const notice = isOutboxType(entry, 'realm_user') ? newUserNotice(entry.payload) : null;
      if (notice) await doOnboardNewUser(services, notice);
    },
  });
}
