import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { crossSlot, type Keyspace } from '@chat/bus';

/**
 * Which replica consumes which stream partition. Each partition is leased to at most one live
 * replica at a time (a Redis key with a TTL, renewed while the replica lives), so the entries of
 * one partition, and with them the events of each realm, are processed in stream order by one
 * process. Replicas announce themselves in a sorted set scored by their last heartbeat; each
 * aims at ceil(partitions / live replicas) leases, releasing extras for a newcomer to take and
 * taking free ones, so partitions spread out as replicas come and go. A dead replica's leases
 * expire after `leaseMs` and the survivors pick them up.
 */

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;

export interface LeaseOptions {
  redis: Redis;
  /** Key names; its partition count is the number of leases. */
  keys: Keyspace;
  leaseMs: number;
  /** Called when a partition is gained (true) or must stop being processed (false). */
  onChange?: () => void;
}

interface Held {
  /** Until when the lease is surely ours: renewal time + lease - a safety margin. */
  validUntil: number;
  /** Asked to give it up: stop reading it, then release once the batch in hand is done. */
  releasing: boolean;
}

export class PartitionLeases {
  readonly replicaId = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly held = new Map<number, Held>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;

  constructor(private readonly opts: LeaseOptions) {
    opts.redis.defineCommand('leaseRenew', { numberOfKeys: 1, lua: RENEW });
    opts.redis.defineCommand('leaseRelease', { numberOfKeys: 1, lua: RELEASE });
  }

  leaseKey(partition: number): string {
    return this.opts.keys.partitionLease(partition);
  }

  private get replicasKey(): string {
    return this.opts.keys.eventsReplicas();
  }

  /** Partitions this replica may read now. */
  active(): number[] {
    const now = Date.now();
    return [...this.held]
      .filter(([, h]) => !h.releasing && h.validUntil > now)
      .map(([p]) => p)
      .sort((a, b) => a - b);
  }

  /** True while `partition` is ours and not being handed over; checked before every batch. */
  owns(partition: number): boolean {
    const h = this.held.get(partition);
    return !!h && h.validUntil > Date.now();
  }

  isReleasing(partition: number): boolean {
    return !!this.held.get(partition)?.releasing;
  }

  start(): void {
    const loop = () => {
      this.ticking = this.tick()
        .catch(() => undefined)
        .finally(() => {
          if (this.timer !== undefined) this.timer = setTimeout(loop, Math.max(50, this.opts.leaseMs / 4));
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  /** Stops renewing and gives every lease back at once, so survivors need not wait for expiry. */
  async stop(): Promise<void> {
    const timer = this.timer;
    this.timer = undefined;
    clearTimeout(timer);
    await this.ticking;
    const r = this.opts.redis as unknown as Record<string, (...a: unknown[]) => Promise<number>>;
    await Promise.all([...this.held.keys()].map((p) => r.leaseRelease(this.leaseKey(p), this.replicaId).catch(() => 0)));
    this.held.clear();
    await this.opts.redis.zrem(this.replicasKey, this.replicaId).catch(() => 0);
  }

  /** The consumer finished the batch of a partition being handed over. */
  async release(partition: number): Promise<void> {
    if (!this.held.get(partition)?.releasing) return;
    this.held.delete(partition);
    const r = this.opts.redis as unknown as Record<string, (...a: unknown[]) => Promise<number>>;
    await r.leaseRelease(this.leaseKey(partition), this.replicaId).catch(() => 0);
  }

  async tick(): Promise<void> {
    const { redis, leaseMs } = this.opts;
    const { partitions } = this.opts.keys;
    const now = Date.now();
    const [, , [, live]] = (await redis
      .multi()
      .zadd(this.replicasKey, now, this.replicaId)
      .zremrangebyscore(this.replicasKey, '-inf', now - leaseMs)
      .zcard(this.replicasKey)
      .exec()) as Array<[Error | null, number]>;
    const target = Math.ceil(partitions / Math.max(1, live));
    let changed = false;

    // Renew what we hold; a lease that is no longer ours is dropped at once.
    const mine = [...this.held.keys()];
    // Lease keys lie in different slots: one pipeline per node on a cluster.
    const renewed = await crossSlot(
      redis,
      mine.map((p) => (c: Redis) => (c as unknown as Record<string, (...a: unknown[]) => unknown>).leaseRenew(this.leaseKey(p), this.replicaId, leaseMs)),
    );
    mine.forEach((p, i) => {
      const [err, ok] = renewed[i]!;
      if (err || ok !== 1) {
        this.held.delete(p);
        changed = true;
      } else {
        this.held.get(p)!.validUntil = now + leaseMs * 0.75;
      }
    });

    // Hand extras over to newcomers: highest partitions first, after their batch in hand.
    const keeping = [...this.held].filter(([, h]) => !h.releasing).map(([p]) => p).sort((a, b) => a - b);
    for (const p of keeping.slice(target)) {
      this.held.get(p)!.releasing = true;
      changed = true;
    }

    // Take free partitions up to our share, starting at a replica-specific offset so that
    // replicas starting together do not all race for partition 0.
    let count = Math.min(keeping.length, target);
    const offset = parseInt(this.replicaId.slice(-4), 16) % partitions;
    for (let i = 0; i < partitions && count < target; i++) {
      const p = (offset + i) % partitions;
      if (this.held.has(p)) continue;
      const ok = await redis.set(this.leaseKey(p), this.replicaId, 'PX', leaseMs, 'NX');
      if (ok === 'OK') {
        this.held.set(p, { validUntil: now + leaseMs * 0.75, releasing: false });
        count++;
        changed = true;
      }
    }
    if (changed) this.opts.onChange?.();
  }
}
