import Redis from 'ioredis';
import { QueueStore, type QueueSpec } from '..';

/**
 * A store on the local Redis under a prefix of its own, a second connection for subscribing,
 * and a registration with every field set; `cleanup` removes the prefix's keys (afterAll).
 */
export function queueTestKit(name: string) {
  const prefix = `test:${name}:${process.pid}:${Date.now()}:`;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const sub = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const store = new QueueStore(redis, prefix);
  const spec = (over: Partial<QueueSpec> = {}): QueueSpec => ({
    userId: 1, realmId: 1, eventTypes: null, narrow: [], allPublicStreams: false, clientCapabilities: {},
    applyMarkdown: true, clientGravatar: true, idleTimeoutSecs: 600, clientName: 'test', ...over,
  });
  const cleanup = async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    sub.disconnect();
  };
  return { prefix, redis, sub, store, spec, cleanup };
}
