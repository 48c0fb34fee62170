import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import type { Cluster } from 'ioredis';
import { ACK_BATCH, APPEND, APPEND_BATCH, FETCH } from './scripts';
import { memberJson } from './members';
import { crossSlot, isCluster, redisKeys, type RedisKeys } from '@chat/bus';

type RedisLike = Redis | Cluster;

/** Queues per APPEND_BATCH (or ACK_BATCH) call: bounds how long one call keeps Redis busy (about 5 ms). */
const APPEND_BATCH_QUEUES = 500;

/** Queues in a fan-out's first APPEND_BATCH call; each next call takes twice as many, up to APPEND_BATCH_QUEUES. */
const FIRST_APPEND_CALL = 16;

/**
 * The [start, end) ranges of a fan-out's APPEND_BATCH calls, sent one after the other. Redis
 * sends a script's PUBLISHes only once the script is done, and everything it read in one go
 * before it writes to anyone: one call for 200 queues (some 4 ms of Redis) held every wake-up
 * until the last queue was in, while the gateways, on other cores, waited with nothing to do.
 * Small first, the first wake-ups leave within a fraction of that and the gateways answer them
 * while Redis appends the rest; doubling keeps the calls of a large fan-out few.
 */
export function appendCalls(count: number): Array<[number, number]> {
  const calls: Array<[number, number]> = [];
  for (let start = 0, size = FIRST_APPEND_CALL; start < count; start += size, size = Math.min(size * 2, APPEND_BATCH_QUEUES)) {
    calls.push([start, Math.min(start + size, count)]);
  }
  return calls;
}

/**
 * A poll acknowledged an event the queue cannot account for: below what was already pruned
 * ('pruned'), or an id it never issued ('unknown').
 */
export class QueueAckError extends Error {
  constructor(
    readonly kind: 'pruned' | 'unknown',
    readonly lastEventId: number,
  ) {
    super(kind === 'pruned' ? `An event newer than ${lastEventId} has already been pruned!` : `Event ${lastEventId} was not in this queue`);
    this.name = 'QueueAckError';
  }
}

/** What a client asked for at register time; decides which events reach the queue and how. */
export interface QueueSpec {
  userId: number;
  realmId: number;
  /** null: every type. */
  eventTypes: string[] | null;
  narrow: Array<[string, string]>;
  allPublicStreams: boolean;
  clientCapabilities: Record<string, boolean>;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  /**
   * Registered with slim_presence: legacy-format presence events leave out `email`. Optional
   * so queues created before the field existed read back as false.
   */
  slimPresence?: boolean;
  idleTimeoutSecs: number;
  clientName: string;
  /**
   * Positions already covered by the queue's initial state, per source (see APPEND): events at
   * or before them are never appended. The events service sets the stream position of the
   * realm's partition at creation, so a consumer catching up on a backlog cannot fill a new
   * queue with events older than the queue.
   */
  sources?: Record<string, string>;
}

export interface QueueInfo extends QueueSpec {
  queueId: string;
}

/** Where appended events come from, for exactly-once appends (see APPEND). */
export interface AppendSource {
  /** Names the ordered source, e.g. the stream partition: "src:3". */
  field: string;
  /** Position in that source, a stream id "<ms>-<seq>". */
  position: string;
}

export interface QueuedEvent {
  id: number;
  type: string;
  [key: string]: unknown;
}

/**
 * Per-client event queues in Redis. Keys of one queue share the hash tag {q:<id>}, so each
 * script runs on one slot of a Redis Cluster; commands over several queues or index sets go
 * through crossSlot, one pipeline per node. Index
 * sets (a user's queues, a realm's queues, a realm's all_public_streams queues) are separate
 * keys and may hold ids of queues Redis already expired, which readers drop as they meet them
 * (and the events service sweeps periodically).
 */
export class QueueStore {
  /** Key names (@chat/bus keys.ts). */
  readonly keys: RedisKeys;

  constructor(
    readonly redis: RedisLike,
    readonly prefix: string,
  ) {
    this.keys = redisKeys(prefix);
    redis.defineCommand('queueAppend', { numberOfKeys: 2, lua: APPEND });
    redis.defineCommand('queueFetch', { numberOfKeys: 2, lua: FETCH });
    redis.defineCommand('queueAppendBatch', { lua: APPEND_BATCH });
    redis.defineCommand('queueAckBatch', { lua: ACK_BATCH });
    // The same script for one queue with its key count fixed, so that a Cluster connection
    // knows its keys and routes (and auto-pipelines) it by their slot.
    redis.defineCommand('queueAckOne', { numberOfKeys: 2, lua: ACK_BATCH });
  }

  metaKey(queueId: string): string {
    return this.keys.queueMeta(queueId);
  }

  eventsKey(queueId: string): string {
    return this.keys.queueEvents(queueId);
  }

  wakeChannel(queueId: string): string {
    return this.keys.queueWakeChannel(queueId);
  }

  userIndexKey(realmId: number, userId: number): string {
    return this.keys.userQueues(realmId, userId);
  }

  publicIndexKey(realmId: number): string {
    return this.keys.publicStreamQueues(realmId);
  }

  /** Every queue of a realm, for events addressed to the whole realm. */
  realmIndexKey(realmId: number): string {
    return this.keys.realmQueues(realmId);
  }

  async create(spec: QueueSpec): Promise<string> {
    const queueId = `${Date.now()}:${randomBytes(8).toString('hex')}`;
    const ttlMs = spec.idleTimeoutSecs * 1000;
    const meta = this.metaKey(queueId);
    await this.redis
      .multi()
      .hset(meta, {
        user_id: String(spec.userId),
        realm_id: String(spec.realmId),
        event_types: JSON.stringify(spec.eventTypes),
        narrow: JSON.stringify(spec.narrow),
        all_public_streams: spec.allPublicStreams ? '1' : '0',
        client_capabilities: JSON.stringify(spec.clientCapabilities),
        apply_markdown: spec.applyMarkdown ? '1' : '0',
        client_gravatar: spec.clientGravatar ? '1' : '0',
        slim_presence: spec.slimPresence ? '1' : '0',
        idle_timeout_ms: String(ttlMs),
        client_name: spec.clientName,
        seq: '-1',
        pruned: '-1',
        last_touched: String(Date.now()),
        ...spec.sources,
      })
      .pexpire(meta, ttlMs)
      .exec();
    // Index sets live in other slots than the queue (and than each other).
    const index = [this.userIndexKey(spec.realmId, spec.userId), this.realmIndexKey(spec.realmId)];
    if (spec.allPublicStreams) index.push(this.publicIndexKey(spec.realmId));
    for (const [err] of await crossSlot(this.redis, index.map((key) => (c: Redis) => c.sadd(key, queueId)))) if (err) throw err;
    return queueId;
  }

  async get(queueId: string): Promise<QueueInfo | null> {
    const [info] = await this.getMany([queueId]);
    return info ?? null;
  }

  /**
   * Metadata of several queues in one round trip; missing (expired) queues come back null. A
   * failed read throws: a queue Redis could not answer for is not an expired one, and callers
   * drop expired queues from the index sets for good.
   */
  async getMany(queueIds: string[]): Promise<Array<QueueInfo | null>> {
    if (!queueIds.length) return [];
    const results = await crossSlot(this.redis, queueIds.map((id) => (c: Redis) => c.hgetall(this.metaKey(id))));
    const failed = results.find(([err]) => err);
    if (failed) throw failed[0];
    return results.map(([, raw], i) => parseMeta(queueIds[i]!, raw as Record<string, string>));
  }

  /**
   * Events above lastEventId, after pruning those at or below it; null if not this user's live
   * queue. Throws QueueAckError when lastEventId is not an acknowledgement the queue can take.
   */
  async fetch(queueId: string, userId: number, lastEventId?: number): Promise<QueuedEvent[] | null> {
    const raw = await this.fetchJson(queueId, userId, lastEventId);
    return raw && raw.map((json) => JSON.parse(json) as QueuedEvent);
  }

  /**
   * Same as fetch, but each event stays JSON text with its id spliced in: the long-poll answer
   * is assembled from these strings without parsing and re-serialising every message body.
   */
  async fetchJson(queueId: string, userId: number, lastEventId?: number): Promise<string[] | null> {
    const reply = (await (this.redis as unknown as Record<string, (...a: unknown[]) => Promise<string[]>>).queueFetch(
      this.metaKey(queueId),
      this.eventsKey(queueId),
      String(userId),
      lastEventId === undefined ? '' : String(lastEventId),
      String(Date.now()),
    ))!;
    if (reply[0] === 'pruned' || reply[0] === 'unknown') throw new QueueAckError(reply[0], lastEventId!);
    if (reply[0] !== 'ok') return null;
    return reply.slice(1).map(memberJson);
  }

  /**
   * Acknowledgements held back by a gateway (AckBatcher, ACK_BATCH): prunes each queue up to its
   * acknowledged id and refreshes its idle timer. Per queue, in order: false when the queue is
   * gone or not that user's. One script call per APPEND_BATCH_QUEUES queues on a single node,
   * one per queue (its own slot) on a cluster.
   */
  async ackMany(acks: Array<{ queueId: string; userId: number; lastEventId: number }>): Promise<boolean[]> {
    const now = String(Date.now());
    type Scripts = Record<string, (...a: unknown[]) => Promise<number[]>>;
    const call = (c: RedisLike, part: typeof acks) =>
      (c as unknown as Scripts).queueAckBatch(
        part.length * 2,
        ...part.flatMap((a) => [this.metaKey(a.queueId), this.eventsKey(a.queueId)]),
        now,
        ...part.flatMap((a) => [String(a.userId), String(a.lastEventId)]),
      );
    if (isCluster(this.redis)) {
      const one = (c: Redis, a: (typeof acks)[number]) =>
        (c as unknown as Scripts).queueAckOne(this.metaKey(a.queueId), this.eventsKey(a.queueId), now, String(a.userId), String(a.lastEventId));
      const results = await crossSlot(this.redis, acks.map((a) => (c: Redis) => one(c, a)));
      return results.map(([err, reply]) => {
        if (err) throw err;
        return (reply as number[])[0] === 1;
      });
    }
    const calls: Array<Promise<number[]>> = [];
    for (let start = 0; start < acks.length; start += APPEND_BATCH_QUEUES) calls.push(call(this.redis, acks.slice(start, start + APPEND_BATCH_QUEUES)));
    return (await Promise.all(calls)).flat().map((r) => r === 1);
  }

  /**
   * Appends events (ids assigned here) and wakes waiting long-polls. Returns the last id, -1 if
   * the queue is gone, -2 if `source` was already applied.
   */
  async append(queueId: string, events: object[], source?: AppendSource): Promise<number> {
    return Number(await this.appendTo(this.redis as Redis, queueId, events.map((e) => JSON.stringify(e)), source));
  }

  /**
   * Appends to many queues in one batch (one round trip per node), for fan-out; results in
   * order, as `[error, last id]` (see append).
   */
  async appendMany(appends: Array<{ queueId: string; events: object[]; source?: AppendSource }>): Promise<Array<[Error | null, number]>> {
    return this.appendManyJson(appends.map((a) => ({ ...a, events: a.events.map((e) => JSON.stringify(e)) })));
  }

  /**
   * appendMany with each event already JSON text. On a single Redis node the appends go in
   * APPEND_BATCH calls (appendCalls: growing, one after the other), each distinct text sent
   * once per call: a fan-out's queues mostly receive the same text, and one script call per
   * queue cost the fan-out more CPU than the appends cost Redis. On a cluster each queue's
   * APPEND goes to its own slot (crossSlot).
   */
  async appendManyJson(appends: Array<{ queueId: string; events: string[]; source?: AppendSource }>): Promise<Array<[Error | null, number]>> {
    if (isCluster(this.redis)) {
      const results = await crossSlot(this.redis, appends.map((a) => (c: Redis) => this.appendTo(c, a.queueId, a.events, a.source)));
      return results.map(([err, id]) => [err, Number(id)]);
    }
    const results: Array<[Error | null, number]> = [];
    for (const [start, end] of appendCalls(appends.length)) results.push(...(await this.appendBatch(appends.slice(start, end))));
    return results;
  }

  private async appendBatch(appends: Array<{ queueId: string; events: string[]; source?: AppendSource }>): Promise<Array<[Error | null, number]>> {
    const textIndex = new Map<string, number>();
    const texts: string[] = [];
    const keys: string[] = [];
    const perQueue: Array<string | number> = [];
    for (const a of appends) {
      keys.push(this.metaKey(a.queueId), this.eventsKey(a.queueId));
      perQueue.push(this.wakeChannel(a.queueId), a.source?.field ?? '', a.source?.position ?? '', a.events.length);
      for (const text of a.events) {
        let i = textIndex.get(text);
        if (i === undefined) textIndex.set(text, (i = texts.push(text)));
        perQueue.push(i);
      }
    }
    // A failed call (Redis unreachable, the script refused) throws: none of its appends is
    // known to be in, and the caller delivers the whole batch again.
    const replies = await (this.redis as unknown as Record<string, (...a: unknown[]) => Promise<Array<number | string>>>).queueAppendBatch(
      keys.length, ...keys, texts.length, ...texts, ...perQueue,
    );
    return replies.map((r) => (typeof r === 'number' ? [null, r] : [new Error(String(r)), NaN]));
  }

  /** Sends one append (events as JSON text) on a connection or pipeline. */
  appendTo(pipe: Redis | ReturnType<RedisLike['pipeline']>, queueId: string, events: string[], source?: AppendSource): unknown {
    return (pipe as unknown as Record<string, (...a: unknown[]) => unknown>).queueAppend(
      this.metaKey(queueId),
      this.eventsKey(queueId),
      this.wakeChannel(queueId),
      source?.field ?? '',
      source?.position ?? '',
      ...events,
    );
  }

  async delete(queueId: string, userId: number): Promise<boolean> {
    const info = await this.get(queueId);
    if (!info || info.userId !== userId) return false;
    await this.redis.del(this.metaKey(queueId), this.eventsKey(queueId));
    await this.forget(info.realmId, [[userId, queueId]]);
    return true;
  }

  /** Queue ids per user, one pipelined round trip. */
  async queuesOfUsers(realmId: number, userIds: number[]): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>();
    if (!userIds.length) return out;
    const results = await crossSlot(this.redis, userIds.map((uid) => (c: Redis) => c.smembers(this.userIndexKey(realmId, uid))));
    results.forEach(([err, ids], i) => {
      if (!err && (ids as string[]).length) out.set(userIds[i]!, ids as string[]);
    });
    return out;
  }

  async publicQueues(realmId: number): Promise<string[]> {
    return this.redis.smembers(this.publicIndexKey(realmId));
  }

  async realmQueues(realmId: number): Promise<string[]> {
    return this.redis.smembers(this.realmIndexKey(realmId));
  }

  /** Drops index entries of queues that no longer exist. */
  async forget(realmId: number, entries: Array<[number, string]>): Promise<void> {
    if (!entries.length) return;
    await crossSlot(
      this.redis,
      entries.flatMap(([uid, qid]) => [
        (c: Redis) => c.srem(this.userIndexKey(realmId, uid), qid),
        (c: Redis) => c.srem(this.publicIndexKey(realmId), qid),
        (c: Redis) => c.srem(this.realmIndexKey(realmId), qid),
      ]),
    );
  }
}

function parseMeta(queueId: string, raw: Record<string, string>): QueueInfo | null {
  if (!raw || !raw.user_id) return null;
  return {
    queueId,
    userId: Number(raw.user_id),
    realmId: Number(raw.realm_id),
    eventTypes: JSON.parse(raw.event_types ?? 'null'),
    narrow: JSON.parse(raw.narrow ?? '[]'),
    allPublicStreams: raw.all_public_streams === '1',
    clientCapabilities: JSON.parse(raw.client_capabilities ?? '{}'),
    applyMarkdown: raw.apply_markdown === '1',
    clientGravatar: raw.client_gravatar === '1',
    slimPresence: raw.slim_presence === '1',
    idleTimeoutSecs: Number(raw.idle_timeout_ms) / 1000,
    clientName: raw.client_name ?? '',
  };
}
