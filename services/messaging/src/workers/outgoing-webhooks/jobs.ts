import { Queue } from 'bullmq';
import type { createRedis } from '@chat/bus';
import type { Trigger } from './triggers';

/** One queue for every bot's requests; braces keep its keys in one cluster slot. */
export const QUEUE_NAME = '{outgoing-webhooks}';

/** A message that set off a bot: everything the request and the answer need. */
export interface OutgoingWebhookJob {
  realmId: number;
  realmUrl: string;
  /** Host of the realm (Slack's `team_domain`). */
  realmHost: string;
  botId: number;
  trigger: Trigger;
  /** The message as the family's generic format sends it (triggers.ts webhookMessage). */
  message: Record<string, unknown>;
}

export function createTriggerQueue(connection: ReturnType<typeof createRedis>, prefix: string): Queue<OutgoingWebhookJob> {
  return new Queue<OutgoingWebhookJob>(QUEUE_NAME, { connection, prefix });
}

export interface RetryPolicy {
  retries: number;
  delayMs: number;
}

/**
 * Queues the request of one bot for one message. The id is the pair's, so a message read twice
 * from the streams (a consumer's crash before its acknowledgement) does not call the bot twice
 * while the finished job is kept (an hour).
 */
export async function enqueueTrigger(queue: Queue<OutgoingWebhookJob>, job: OutgoingWebhookJob, policy: RetryPolicy): Promise<void> {
  await queue.add('trigger', job, {
    jobId: `m${String(job.message.id)}-b${job.botId}`,
    attempts: policy.retries + 1,
    backoff: { type: 'exponential', delay: policy.delayMs },
    removeOnComplete: { age: 3600 },
    removeOnFail: { age: 24 * 3600 },
  });
}
