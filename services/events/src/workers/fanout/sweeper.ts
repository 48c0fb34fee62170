/**
 * Index sets (a user's queues, a realm's queues) keep the ids of queues Redis has since
 * collected until a fan-out meets them. This drops those ids periodically, so users who never
 * receive an event do not accumulate dead ids. Any replica may sweep: it only removes ids whose
 * queue no longer exists, which is idempotent.
 */
import type { Logger } from '@chat/kit';
import type { Redis } from 'ioredis';
import type { QueueStore } from '@chat/queues';
import { crossSlot, masters } from '@chat/bus';

export class IndexSweeper {
  private timer: NodeJS.Timeout | undefined;
  /** Completed sweeps and the dead ids they removed (/metrics). */
  runs = 0;
  removed = 0;

  constructor(
    private readonly store: QueueStore,
    private readonly intervalMs: number,
    private readonly log?: Logger,
  ) {}

  start(): void {
    // Jittered so replicas do not sweep in lockstep.
    const next = () => {
      this.timer = setTimeout(() => {
        this.sweep()
          .catch((err) => this.log?.warn({ err }, 'index sweep failed'))
          .finally(() => this.timer && next());
      }, this.intervalMs * (0.5 + Math.random()));
      this.timer.unref();
    };
    next();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** One pass over every index set; returns how many dead ids it removed. */
  async sweep(): Promise<number> {
    const redis = this.store.redis as Redis;
    const pattern = this.store.keys.patterns.queueIndexes();
    let removed = 0;
    // SCAN walks one node's keys: on a cluster, walk every master.
    for (const node of masters(redis)) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 200);
        cursor = next;
        for (const key of keys) {
          const ids = await redis.smembers(key);
          if (!ids.length) continue;
          const exists = await crossSlot(redis, ids.map((id) => (c: Redis) => c.exists(this.store.metaKey(id))));
          const dead = ids.filter((_, i) => exists[i]![1] === 0);
          if (dead.length) removed += await redis.srem(key, ...dead);
        }
      } while (cursor !== '0');
    }
    this.runs += 1;
    this.removed += removed;
    return removed;
  }
}
