/**
 * Outgoing-webhook bots (docs/integrations.md, "Outgoing webhooks"; ADR 0041): the stream
 * consumer that notices a bot being triggered, and the BullMQ worker that calls its service and
 * posts the answer. Both run on every messaging replica unless OUTGOING_WEBHOOKS is off.
 */
import os from 'node:os';
import { createBlockingRedis, createRedis, keyspace } from '@chat/bus';
import type { Services } from '../../context';
import { startTriggerConsumer } from './consumer';
import { createTriggerQueue } from './jobs';
import { startTriggerWorker } from './worker';

export interface OutgoingWebhooks {
  stop(): Promise<void>;
}

export async function startOutgoingWebhooks(services: Services): Promise<OutgoingWebhooks> {
  const { config, log } = services;
  const onError = (err: Error) => log.warn({ err }, 'outgoing webhooks: redis error');
  const redis = createRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'messaging:outgoing-webhooks', onError });
  const bullRedis = createBlockingRedis(config.REDIS_URL, { service: config.SERVICE_NAME, name: 'messaging:outgoing-webhooks:bull', onError });
  const keys = keyspace(config.REDIS_PREFIX, { partitions: config.STREAM_PARTITIONS });
  const queue = createTriggerQueue(bullRedis, keys.bullPrefix());
  const worker = startTriggerWorker(services, bullRedis, keys.bullPrefix());
  const consumer = await startTriggerConsumer(services, {
    redis,
    keys,
    queue,
    consumer: config.CONSUMER_NAME || `${os.hostname()}-${process.pid}`,
  });
  return {
    async stop() {
      await consumer.stop();
      await worker.close();
      await queue.close();
      redis.disconnect();
      bullRedis.disconnect();
    },
  };
}
