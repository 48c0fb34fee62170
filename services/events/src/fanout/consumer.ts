/**
 * Reads the domain streams of the partitions this replica holds (see leases.ts) through the
 * events consumer group and hands each batch to the fan-out, acknowledging it once every
 * append is in. Taking a partition over starts with the entries its previous holder read but
 * never acknowledged (XAUTOCLAIM), in stream order, before any new entry: nothing a dead
 * replica had in hand is lost, and the per-queue source positions keep what it had already
 * appended from being appended twice.
 */
import type { Redis } from 'ioredis';
import type { Keyspace } from '@chat/bus';
import type { Logger } from '@chat/kit';
import type { PartitionLeases } from './leases';
import { parseEntry, type Fanout, type StreamEntry } from './deliver';

type RawEntry = [string, string[] | null];

export interface ConsumerOptions {
  /** Regular connection: group setup, claims, acks. */
  redis: Redis;
  /** Dedicated connection for the blocking XREADGROUP. */
  blocking: Redis;
  keys: Keyspace;
  leases: PartitionLeases;
  fanout: Fanout;
  batch: number;
  /** Lease length: entries pending longer than twice this are orphans and are claimed again. */
  leaseMs: number;
  /** Longest wait in XREADGROUP, so also how fast a newly gained partition is picked up. */
  blockMs?: number;
  log?: Logger;
}

export class FanoutConsumer {
  private running = false;
  private loop: Promise<void> | undefined;
  /** Partitions whose group exists and whose leftovers were claimed since we gained them. */
  private readonly ready = new Set<number>();
  private readonly group: string;
  private lastOrphanSweep = Date.now();

  constructor(private readonly opts: ConsumerOptions) {
    this.group = opts.keys.groups.events;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  private async run(): Promise<void> {
    const { leases, log } = this.opts;
    while (this.running) {
      try {
        await this.releaseHandedOver();
        const active = leases.active();
        for (const p of [...this.ready]) if (!active.includes(p)) this.ready.delete(p);
        if (!active.length) {
          await sleep(100);
          continue;
        }
        for (const p of active) {
          if (!this.ready.has(p) && this.running) {
            await this.takeOver(p, 0);
            this.ready.add(p);
          }
        }
        await this.sweepOrphans(active);
        await this.readNew(active);
      } catch (err) {
        if (!this.running) break;
        log?.error({ err }, 'fan-out loop failed; retrying');
        await sleep(500);
      }
    }
    await this.releaseHandedOver().catch(() => undefined);
  }

  private async releaseHandedOver(): Promise<void> {
    for (const p of this.opts.keys.allPartitions()) {
      if (this.opts.leases.isReleasing(p)) {
        this.ready.delete(p);
        await this.opts.leases.release(p);
      }
    }
  }

  private async ensureGroup(stream: string): Promise<void> {
    try {
      // From the start of the stream: queues refuse entries older than themselves (their
      // creation-time source positions), so an old backlog reaches no queue it predates.
      await this.opts.redis.xgroup('CREATE', stream, this.group, '0', 'MKSTREAM');
    } catch (err) {
      if (!String((err as Error).message).startsWith('BUSYGROUP')) throw err;
    }
  }

  /**
   * A replica stalled (paused, not dead) past its lease may read entries after its successor
   * already claimed the partition's leftovers; such entries would sit unacknowledged forever.
   * Now and then, claim whatever has been pending for longer than two leases.
   */
  private async sweepOrphans(active: number[]): Promise<void> {
    if (Date.now() - this.lastOrphanSweep < this.opts.leaseMs) return;
    this.lastOrphanSweep = Date.now();
    for (const p of active) await this.takeOver(p, this.opts.leaseMs * 2);
  }

  /** Delivers, in order, the partition's entries read but not acknowledged for `minIdleMs`. */
  private async takeOver(p: number, minIdleMs: number): Promise<void> {
    const { redis, keys, leases } = this.opts;
    const stream = keys.stream(p);
    await this.ensureGroup(stream);
    let cursor = '0-0';
    do {
      if (!leases.owns(p)) return;
      const [next, claimed, deleted] = (await redis.xautoclaim(
        stream, this.group, leases.replicaId, minIdleMs, cursor, 'COUNT', this.opts.batch,
      )) as [string, RawEntry[], string[]?];
      await this.handle(p, claimed);
      if (deleted?.length) await redis.xack(stream, this.group, ...deleted);
      cursor = next;
    } while (cursor !== '0-0' && this.running);
  }

  private async readNew(active: number[]): Promise<void> {
    const { blocking, keys, leases, batch } = this.opts;
    const streams = active.map((p) => keys.stream(p));
    const reply = (await blocking.xreadgroup(
      'GROUP', this.group, leases.replicaId,
      'COUNT', batch, 'BLOCK', this.opts.blockMs ?? 500,
      'STREAMS', ...streams, ...streams.map(() => '>'),
    )) as Array<[string, RawEntry[]]> | null;
    for (const [stream, entries] of reply ?? []) {
      const p = keys.partitionOfStream(stream);
      if (p !== undefined) await this.handle(p, entries);
    }
  }

  /**
   * Delivers then acknowledges one partition's entries. A partition lost meanwhile is left
   * unacknowledged for its new holder to claim.
   */
  private async handle(p: number, raw: RawEntry[]): Promise<void> {
    if (!raw.length) return;
    if (!this.opts.leases.owns(p)) return;
    const entries: StreamEntry[] = [];
    for (const [id, fields] of raw) {
      const e = fields ? parseEntry(id, fields, this.opts.log) : null;
      if (e) entries.push(e);
    }
    await this.opts.fanout.deliver(p, entries);
    await this.opts.redis.xack(this.opts.keys.stream(p), this.group, ...raw.map(([id]) => id));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
