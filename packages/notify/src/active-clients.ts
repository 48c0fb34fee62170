import { QueueStore } from '@chat/queues';
import { crossSlot, type createRedis } from '@chat/bus';

type Redis = ReturnType<typeof createRedis>;

/**
 * Whether a user has a client in use right now: one of their event queues was polled within
 * the window. Such a user is likely to see a message on that client, so their push notification
 * waits a little (and is dropped if they read the message meanwhile), or is not sent at all if
 * they turned enable_online_push_notifications off; and they get no missed-message email, which
 * is for people away from every client (the family's "idle" receiver).
 */
export class ActiveClients {
  private readonly store: QueueStore;

  constructor(
    private readonly redis: ReturnType<typeof createRedis>,
    prefix: string,
    private readonly windowSeconds: number,
  ) {
    this.store = new QueueStore(redis, prefix);
  }

  async activeUsers(realmId: number, userIds: number[]): Promise<Set<number>> {
    const active = new Set<number>();
    const queues = await this.store.queuesOfUsers(realmId, userIds);
    if (!queues.size) return active;
    const owners: number[] = [];
    const reads: Array<(c: Redis) => unknown> = [];
    for (const [userId, ids] of queues) {
      for (const id of ids) {
        owners.push(userId);
        reads.push((c) => c.hget(this.store.metaKey(id), 'last_touched'));
      }
    }
    const since = Date.now() - this.windowSeconds * 1000;
    // Each queue's keys live in their own slot: one pipeline on a single node, per-node batches on a cluster.
    const results = await crossSlot(this.redis, reads);
    results.forEach(([err, touched], i) => {
      if (!err && touched && Number(touched) >= since) active.add(owners[i]!);
    });
    return active;
  }
}
