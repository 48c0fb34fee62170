import { Queue, type JobsOptions } from 'bullmq';
import type { createRedis } from '@chat/bus';
import type { PushConfig } from '../config';
import type { Services } from '../context';

/**
 * The delivery queue. Every piece of work that talks to the relay is a BullMQ job in Redis, so
 * it survives a restart of the push service and is retried with exponential backoff while the
 * relay is unreachable or failing. Braces keep all of the queue's keys in one cluster slot.
 */
export const QUEUE_NAME = '{push}';

export type TokenKind = 'fcm' | 'apns';

/** Hand a device's (new) token to the relay. */
export interface RelayRegistrationJob {
  realmId: number;
  userId: number;
  deviceId: number;
  /** Base64 token_id: the job only applies while the device is still waiting for this token. */
  tokenId: string;
  tokenKind: TokenKind;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

/** The parts of a message notification that are the same for every recipient. */
export interface MessageNotice {
  message_id: number;
  sender_id: number;
  sender_full_name: string;
  sender_avatar_url: string | null;
  time: number;
  recipient_type: 'channel' | 'direct';
  channel_id?: number;
  channel_name?: string;
  topic?: string;
  recipient_user_ids?: number[];
  content: string;
}

/**
 * What only the legacy (plaintext) payloads carry beyond the notice. Optional: jobs queued
 * before a deploy that added them still run, with these fields empty.
 */
export interface LegacyNoticeFields {
  sender_email: string;
  content_truncated: boolean;
  /** Every participant's full name, for the APNs title of a group direct message. */
  recipient_full_names?: string[];
}

/**
 * A notification goes out on two channels: encrypted to E2EE devices, plaintext to legacy
 * tokens. Each is one relay request; an attempt records the channels it finished so that a
 * retry after a failure on the other one does not notify the same devices twice.
 */
export type PushChannel = 'e2ee' | 'legacy';

export interface ChannelProgress {
  /** Channels done by an earlier attempt, with how many devices each reached. */
  sent?: Partial<Record<PushChannel, number>>;
}

/** Notify one user of one message (all of the user's registered devices). */
export interface NotifyJob extends ChannelProgress {
  realmId: number;
  userId: number;
  trigger: string;
  notice: MessageNotice;
  legacy?: LegacyNoticeFields;
}

/** Withdraw notifications the user no longer needs (messages read or deleted). */
export interface RemoveJob extends ChannelProgress {
  realmId: number;
  userId: number;
  messageIds: number[];
}

export function createDeliveryQueue(connection: ReturnType<typeof createRedis>, prefix: string, config: PushConfig): Queue {
  const queue = new Queue(QUEUE_NAME, {
    connection,
    prefix,
    defaultJobOptions: retryOptions(config),
  });
  // The connection reports its own outages (createRedis); this copy only must not go unheard.
  queue.on('error', () => undefined);
  return queue;
}

export function retryOptions(config: PushConfig): JobsOptions {
  return {
    attempts: config.PUSH_RETRY_ATTEMPTS,
    backoff: { type: 'exponential', delay: config.PUSH_RETRY_BASE_MS },
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

/** One job per (user, message): a redelivered stream entry does not notify twice. */
export function notifyJobId(realmId: number, userId: number, messageId: number): string {
  return `notify-${realmId}-${userId}-${messageId}`;
}

export async function enqueueRelayRegistration(services: Services, job: RelayRegistrationJob): Promise<void> {
  await services.queue.add('register', job);
}

export async function enqueueNotification(services: Services, job: NotifyJob, delayMs: number): Promise<void> {
  await services.queue.add('notify', job, {
    jobId: notifyJobId(job.realmId, job.userId, job.notice.message_id),
    delay: delayMs,
  });
}

export async function enqueueRemoval(services: Services, job: RemoveJob): Promise<void> {
  await services.queue.add('remove', job);
}
