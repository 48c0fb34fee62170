/**
 * Reads the domain streams of the partitions this replica holds (see leases.ts) through the
 * events consumer group and hands each batch to the fan-out, acknowledging it once every
 * append is in. Taking a partition over starts with the entries its previous holder read but
 * never acknowledged (XAUTOCLAIM), in stream order, before any new entry: nothing a dead
 * replica had in hand is lost, and the per-queue source positions keep what it had already
 * appended from being appended twice.
 */
import type { Redis } from 'ioredis';
import { duplicateBlocking, isCluster, type Keyspace } from '@chat/bus';
import type { Logger } from '@chat/kit';
import type { PartitionLeases } from './leases';
import { parseEntry, type Fanout, type StreamEntry } from './deliver';

type RawEntry = [string, string[] | null];

/** A blocking read of one partition (cluster mode); `result` is set once it returns. */
interface Read {
  settled: Promise<void>;
  result?: RawEntry[] | Error;
}

export interface ConsumerOptions {
  /** Regular connection: group setup, claims, acks. */
  redis: Redis;
  /**
   * Dedicated connection for the blocking XREADGROUP. On a Redis Cluster it is only the
   * template for one blocking connection per partition (see readNewClustered).
   */
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
  /** Seconds from each entry's XADD to its appends being in the queues (and waiting polls woken). */
  observeDelay?: (seconds: number) => void;
}

export class FanoutConsumer {
  private running = false;
  private loop: Promise<void> | undefined;
  /** Partitions whose group exists and whose leftovers were claimed since we gained them. */
  private readonly ready = new Set<number>();
  private readonly group: string;
  private lastOrphanSweep = Date.now();
  /** Cluster only: a blocking reader per partition, and the read each has in flight. */
  private readonly readers = new Map<number, Redis>();
  private readonly inflight = new Map<number, Read>();

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
    // Reads still in flight may return entries: deliver them while the leases are still ours,
    // so that nothing is left pending under this replica's name behind a successor's back.
    for (const p of [...this.inflight.keys()]) await this.finishRead(p).catch(() => undefined);
    for (const reader of this.readers.values()) reader.disconnect();
    this.readers.clear();
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
        // Entries read but not delivered stay pending; every partition takes its pending
        // entries back first, so nothing newer overtakes them.
        this.ready.clear();
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
        await this.finishRead(p);
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
    if (isCluster(this.opts.blocking)) return this.readNewClustered(active);
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
   * On a Redis Cluster each partition stream has its own hash slot, and one XREADGROUP may only
   * name streams of one slot. So each partition gets its own blocking connection and read; the
   * loop handles whichever reads have returned (in partition order) and leaves the others
   * blocked for the next turn, so an event is picked up as soon as it is appended.
   */
  private async readNewClustered(active: number[]): Promise<void> {
    for (const p of active) if (!this.inflight.has(p)) this.inflight.set(p, this.startRead(p));
    await Promise.race([...this.inflight.values()].map((r) => r.settled));
    for (const p of [...this.inflight.keys()].sort((a, b) => a - b)) {
      if (this.inflight.get(p)!.result !== undefined) await this.finishRead(p);
    }
  }

  private startRead(p: number): Read {
    const { keys, leases, batch } = this.opts;
    let reader = this.readers.get(p);
    if (!reader) {
      reader = duplicateBlocking(this.opts.blocking, `events-fanout:${p}`, (err) => this.opts.log?.warn({ err, partition: p }, 'redis error'));
      this.readers.set(p, reader);
    }
    const read: Read = { settled: Promise.resolve() };
    read.settled = (reader.xreadgroup(
      'GROUP', this.group, leases.replicaId, 'COUNT', batch, 'BLOCK', this.opts.blockMs ?? 500, 'STREAMS', keys.stream(p), '>',
    ) as Promise<Array<[string, RawEntry[]]> | null>).then(
      (reply) => void (read.result = reply?.[0]?.[1] ?? []),
      (err: Error) => void (read.result = err),
    );
    return read;
  }

  /** Waits for the partition's read in flight, if any, and delivers what it returned. */
  private async finishRead(p: number): Promise<void> {
    const read = this.inflight.get(p);
    if (!read) return;
    await read.settled;
    this.inflight.delete(p);
    if (read.result instanceof Error) throw read.result;
    await this.handle(p, read.result ?? []);
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
    if (this.opts.observeDelay) {
      const now = Date.now();
      // A stream id starts with the milliseconds of its XADD.
      for (const e of entries) this.opts.observeDelay(Math.max(0, now - Number(e.id.split('-')[0])) / 1000);
    }
    await this.opts.redis.xack(this.opts.keys.stream(p), this.group, ...raw.map(([id]) => id));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
