import { hostname } from 'node:os';
import { Pause } from './pause';
import type { Redis } from 'ioredis';
import { crossSlot, duplicateBlocking, isCluster } from './redis';
import { entryHead, UnreadableEntryError, type EntryHead, type StreamEntry } from './entries';
import { bufferReads, deliveredEntries, selectedEntries, type BufferEntry, type BufferReads, type Delivered, type ReadReply } from './reading';
import type { StreamConsumerOptions } from './consumer-options';

export type { BatchHandler, StreamConsumerOptions } from './consumer-options';

/** How often a partition being taken over is re-examined while a live consumer finishes with it. */
const TAKEOVER_POLL_MS = 100;
const MAX_RETRY_DELAY_MS = 5000;
/** Idle wait between reads on a Redis Cluster, where one blocking read cannot cover every partition. */
const CLUSTER_POLL_MS = 50;
/** XPENDING / XCLAIM page size. */
const PAGE = 500;

interface Takeover {
  /** Entries other consumers had pending when we took the partition; null until looked up. */
  waitFor: Set<string> | null;
}

type PendingRow = [id: string, consumer: string, idleMs: number, deliveries: number];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const retryDelay = (attempt: number) => Math.min(100 * 2 ** attempt, MAX_RETRY_DELAY_MS);

/**
 * Reads partition streams through a consumer group and hands batches to a handler, with
 * at-least-once delivery: an entry is acknowledged only after the handler resolved, and entries
 * a dead consumer left pending are claimed after claimIdleMs.
 *
 * When it takes on a partition (at start or through setPartitions) it first finishes the
 * entries older consumers left pending there (waiting for live ones to acknowledge theirs,
 * claiming those of dead ones), then reads new ones. If each partition has one consumer at a
 * time, each realm's events are therefore handled in order even across crashes and handovers.
 */
export class StreamConsumer {
  readonly name: string;
  private readonly o: Required<Omit<StreamConsumerOptions, 'consumer' | 'partitions' | 'select'>> & Pick<StreamConsumerOptions, 'select'>;
  private assigned: number[];
  private readonly takeovers = new Map<number, Takeover>();
  private readonly groupsReady = new Set<number>();
  private reader: Redis | undefined;
  private running = false;
  private loop: Promise<void> | undefined;
  private nextClaimAt = 0;
  /** When the last read of new entries started (minReadIntervalMs). */
  private lastReadAt = 0;
  private reading: { clientId: Promise<number | null>; done: Promise<void> } | undefined;
  /** The loop's current pass: a read and the batch it returned, a takeover step, or a claim pass. */
  private iteration: Promise<void> | undefined;
  private readonly sleeper = new Pause();

  constructor(options: StreamConsumerOptions) {
    this.name = options.consumer ?? `${hostname()}-${process.pid}`;
    this.o = {
      batchSize: 100,
      blockMs: 5000,
      claimIdleMs: 30_000,
      claimIntervalMs: 5000,
      minReadIntervalMs: 0,
      startId: '$',
      onError: (err) => console.error(`[stream-consumer ${options.group}/${this.name}] ${err.message}`),
      ...options,
    };
    this.assigned = this.validPartitions(options.partitions ?? options.keys.allPartitions());
  }

  get partitions(): number[] {
    return [...this.assigned];
  }

  /** Creates the group on every partition stream, then starts reading in the background. */
  async start(): Promise<void> {
    if (this.running) return;
    // Every partition, assigned or not, so that no event published from now on is skipped by
    // a '$' group created later, when its partition gets assigned.
    await this.ensureGroups(this.o.keys.allPartitions());
    this.reader = duplicateBlocking(this.o.redis, `consumer:${this.o.group}:${this.name}`, this.o.onError);
    for (const p of this.assigned) this.takeovers.set(p, { waitFor: null });
    this.nextClaimAt = 0;
    this.running = true;
    this.loop = this.run();
  }

  /** Lets the batch in flight finish and be acknowledged, then closes the reader. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.interrupt(true);
    await this.loop;
    this.loop = undefined;
    this.reader?.disconnect();
    this.reader = undefined;
  }

  /**
   * Changes the partitions read. Resolves once no batch of a dropped partition is in flight
   * (which includes a failing batch still being retried), so a coordinator may then hand those
   * partitions to another consumer.
   */
  async setPartitions(partitions: number[]): Promise<void> {
    const next = this.validPartitions(partitions);
    const added = next.filter((p) => !this.assigned.includes(p));
    for (const p of this.assigned) if (!next.includes(p)) this.takeovers.delete(p);
    this.assigned = next;
    if (!this.running) return; // start() takes over whatever is assigned then
    for (const p of added) this.takeovers.set(p, { waitFor: null });
    await this.interrupt(false);
    // The pass under way may have read dropped partitions before the change; let it finish.
    await this.iteration?.catch(() => undefined);
  }

  private validPartitions(list: number[]): number[] {
    for (const p of list) this.o.keys.stream(p); // throws on a partition that does not exist
    return [...new Set(list)].sort((a, b) => a - b);
  }

  private get redis(): Redis {
    if (!this.reader) throw new Error('stream consumer is not started');
    return this.reader;
  }

  /** The reader, answering in bytes: a payload the consumer skips is never decoded. */
  private get bytes(): BufferReads {
    return bufferReads(this.redis);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      const iteration = this.iterate();
      this.iteration = iteration;
      try {
        await iteration;
        failures = 0;
      } catch (err) {
        if (!this.running) break;
        // The stream was deleted (FLUSHALL, a test cleaning up): recreate the groups.
        if (err instanceof Error && err.message.startsWith('NOGROUP')) this.groupsReady.clear();
        this.o.onError(err as Error);
        await this.pause(retryDelay(failures++));
      }
    }
  }

  private async iterate(): Promise<void> {
    await this.ensureGroups(this.assigned);
    await this.takeOver();
    if (Date.now() >= this.nextClaimAt) {
      await this.claimAbandoned();
      this.nextClaimAt = Date.now() + this.o.claimIntervalMs;
    }
    const live = this.assigned.filter((p) => !this.takeovers.has(p));
    const due = this.nextClaimAt - Date.now();
    // Never 0: BLOCK 0 waits forever.
    const wait = Math.max(1, Math.min(this.takeovers.size > 0 ? TAKEOVER_POLL_MS : this.o.blockMs, due));
    if (live.length === 0) {
      await this.pause(wait);
      return;
    }
    const early = this.lastReadAt + this.o.minReadIntervalMs - Date.now();
    if (early > 0) {
      // Interrupted by stop() and setPartitions() like any pause; the next pass reads.
      await this.pause(Math.max(1, Math.min(early, due)));
      return;
    }
    this.lastReadAt = Date.now();
    await this.process(await this.readNew(live, wait));
  }

  private async ensureGroups(partitions: number[]): Promise<void> {
    for (const p of partitions) {
      if (this.groupsReady.has(p)) continue;
      try {
        await this.o.redis.xgroup('CREATE', this.o.keys.stream(p), this.o.group, this.o.startId, 'MKSTREAM');
      } catch (err) {
        if (!(err instanceof Error && err.message.startsWith('BUSYGROUP'))) throw err;
      }
      this.groupsReady.add(p);
    }
  }

  private async readNew(partitions: number[], blockMs: number): Promise<Delivered[]> {
    if (isCluster(this.o.redis)) return this.readNewClustered(partitions, blockMs);
    const streams = partitions.map((p) => this.o.keys.stream(p));
    // Sent ahead of the read on the same connection, so its id is known while the read blocks
    // and interrupt() can CLIENT UNBLOCK it.
    const clientId = this.redis.client('ID').then(Number, () => null);
    const request = this.bytes.xreadgroupBuffer(
      'GROUP', this.o.group, this.name, 'COUNT', this.o.batchSize, 'BLOCK', blockMs,
      'STREAMS', ...streams, ...streams.map(() => '>'),
    ) as Promise<ReadReply>;
    const reading = { clientId, done: request.then(() => undefined, () => undefined) };
    this.reading = reading;
    try {
      return deliveredEntries(await request, this.o.keys);
    } finally {
      if (this.reading === reading) this.reading = undefined;
    }
  }

  /**
   * On a cluster every partition stream has its own hash slot and one XREADGROUP may name only
   * one, so each partition is read on its own, without BLOCK (a blocked read would hold the
   * node's connection and every other partition's read behind it); when all come back empty
   * the consumer sleeps a short, interruptible while instead.
   */
  private async readNewClustered(partitions: number[], blockMs: number): Promise<Delivered[]> {
    const replies = await Promise.all(
      partitions.map((p) =>
        this.bytes.xreadgroupBuffer(
          'GROUP', this.o.group, this.name, 'COUNT', this.o.batchSize, 'STREAMS', this.o.keys.stream(p), '>',
        ) as Promise<ReadReply>,
      ),
    );
    const out = replies.flatMap((r) => deliveredEntries(r, this.o.keys));
    if (out.length === 0) await this.pause(Math.min(blockMs, CLUSTER_POLL_MS));
    return out;
  }

  /** Ends a blocked read now rather than after blockMs. */
  private async interrupt(stopping: boolean): Promise<void> {
    this.sleeper.wake();
    const reading = this.reading;
    if (!reading) return;
    const id = await reading.clientId;
    let finished = false;
    void reading.done.then(() => (finished = true));
    // UNBLOCK can land just before the read blocks; repeat until the read returns.
    for (let i = 0; i < 50 && !finished && id !== null; i++) {
      await this.o.redis.client('UNBLOCK', id).catch(() => 0);
      await Promise.race([reading.done, sleep(20)]);
    }
    // Redis unreachable: the read would wait for it forever.
    if (!finished && stopping) this.reader?.disconnect();
    await reading.done;
  }

  /** Resolves after `ms`, or sooner on stop() or setPartitions(). */
  private pause(ms: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return this.sleeper.for(ms);
  }

  /** Handles and acknowledges one batch. */
  private async process(batch: Delivered[]): Promise<void> {
    if (batch.length === 0) return;
    const heads: EntryHead[] = [];
    for (const { partition, raw } of batch) {
      const head = entryHead(partition, raw);
      // Retrying cannot make it readable; report it and let the acknowledgement drop it.
      if (head instanceof UnreadableEntryError) this.o.onError(head);
      else heads.push(head);
    }
    if (heads.length > 0 && !(await this.handle(heads))) return;
    await this.ack(batch);
  }

  /** False if the consumer stopped before the handler succeeded. */
  private async handle(heads: EntryHead[]): Promise<boolean> {
    // Selected and parsed once: a retry hands the handler the same entries.
    let entries: StreamEntry[] | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        entries ??= await selectedEntries(heads, this.o.select, this.o.onError);
        if (entries.length > 0) await this.o.handler(entries);
        return true;
      } catch (err) {
        this.o.onError(err as Error);
        if (!this.running) return false;
        await this.pause(retryDelay(attempt));
        if (!this.running) return false;
      }
    }
  }

  private async ack(batch: Delivered[]): Promise<void> {
    const ids = new Map<number, string[]>();
    for (const { partition, raw } of batch) {
      const list = ids.get(partition) ?? [];
      list.push(raw[0]);
      ids.set(partition, list);
    }
    const acks = [...ids].map(([p, list]) => (c: Redis) => c.xack(this.o.keys.stream(p), this.o.group, ...list));
    for (const [err] of await crossSlot(this.redis, acks)) if (err) throw err;
  }

  /**
   * Advances each partition being taken over: claims entries other consumers left pending once
   * they are idle for claimIdleMs, waits for the younger ones to be acknowledged, then handles
   * everything this consumer holds, oldest first, and starts reading new entries.
   */
  private async takeOver(): Promise<void> {
    for (const [p, state] of [...this.takeovers]) {
      if (!this.running) return;
      const stream = this.o.keys.stream(p);
      const others = await this.pendingOfOthers(stream);
      const waitFor = state.waitFor ?? new Set(others.map(([id]) => id));
      const still = others.filter(([id]) => waitFor.has(id));
      const claimable = still.filter(([, , idle]) => idle >= this.o.claimIdleMs).map(([id]) => id);
      for (let i = 0; i < claimable.length; i += PAGE) {
        await this.redis.call(
          'xclaim', stream, this.o.group, this.name, this.o.claimIdleMs, ...claimable.slice(i, i + PAGE), 'JUSTID',
        );
      }
      state.waitFor = new Set(still.filter(([, , idle]) => idle < this.o.claimIdleMs).map(([id]) => id));
      if (state.waitFor.size > 0) continue;
      if (!(await this.drainOwnPending(p))) return;
      if (this.takeovers.get(p) === state) this.takeovers.delete(p);
    }
  }

  private async pendingOfOthers(stream: string): Promise<PendingRow[]> {
    const out: PendingRow[] = [];
    let start = '-';
    for (;;) {
      const page = (await this.redis.call('xpending', stream, this.o.group, start, '+', PAGE)) as PendingRow[];
      for (const row of page) if (row[1] !== this.name) out.push([row[0], row[1], Number(row[2]), Number(row[3])]);
      if (page.length < PAGE) return out;
      start = `(${page[page.length - 1][0]}`;
    }
  }

  /** Handles the entries this consumer already holds in partition `p`; false if it stopped first. */
  private async drainOwnPending(p: number): Promise<boolean> {
    const stream = this.o.keys.stream(p);
    let cursor = '0';
    while (this.running) {
      const reply = (await this.bytes.xreadgroupBuffer(
        'GROUP', this.o.group, this.name, 'COUNT', this.o.batchSize, 'STREAMS', stream, cursor,
      )) as ReadReply;
      const batch = deliveredEntries(reply, this.o.keys);
      if (batch.length === 0) return true;
      await this.process(batch);
      cursor = batch[batch.length - 1].raw[0];
    }
    return false;
  }

  /** Claims and handles entries that consumers died holding, on the partitions being read. */
  private async claimAbandoned(): Promise<void> {
    for (const p of this.assigned.filter((q) => !this.takeovers.has(q))) {
      const stream = this.o.keys.stream(p);
      let cursor = '0-0';
      do {
        const [next, claimed, deleted] = (await this.bytes.xautoclaimBuffer(
          stream, this.o.group, this.name, this.o.claimIdleMs, cursor, 'COUNT', this.o.batchSize,
        )) as [Buffer, BufferEntry[], Buffer[] | undefined];
        for (const id of deleted ?? []) {
          this.o.onError(new UnreadableEntryError(p, id.toString(), 'trimmed from the stream before it was acknowledged'));
        }
        await this.process(claimed.map(([id, fields]) => ({ partition: p, raw: [id.toString(), fields] })));
        cursor = next.toString();
      } while (cursor !== '0-0' && this.running);
    }
  }
}
