import type Redis from 'ioredis';
import type { Cluster } from 'ioredis';

/**
 * Sends independent commands whose keys may lie in different hash slots (several queues, index
 * sets of several users) in one batch: one pipeline on a single node; on a Redis Cluster, where
 * a pipeline must stay on one node, plain concurrent commands, which the connection's
 * auto-pipelining (on for regular cluster connections, see @chat/bus createRedis) sends as one
 * pipeline per node. One `[error, reply]` per op, in `pipeline.exec()` shape; a failing op does
 * not fail the others. Commands on one key keep their order either way.
 */
export async function crossSlot(redis: Redis | Cluster, ops: Array<(c: Redis) => unknown>): Promise<Array<[Error | null, unknown]>> {
  if (!ops.length) return [];
  if (!(redis as { isCluster?: boolean }).isCluster) {
    const pipe = redis.pipeline();
    for (const op of ops) op(pipe as unknown as Redis);
    return ((await pipe.exec()) ?? []) as Array<[Error | null, unknown]>;
  }
  return Promise.all(
    ops.map((op) => {
      try {
        return Promise.resolve(op(redis as unknown as Redis)).then(
          (v): [Error | null, unknown] => [null, v],
          (e: Error): [Error | null, unknown] => [e, null],
        );
      } catch (e) {
        return Promise.resolve<[Error | null, unknown]>([e as Error, null]);
      }
    }),
  );
}
