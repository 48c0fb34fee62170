/**
 * Appends a batch of stream entries to every matching queue: recipients resolved to queue ids
 * and queue registrations loaded in pipelined round trips for the whole batch, then every
 * append of the batch sent in entry order in one batch (one pipeline, or on a Redis Cluster one
 * pipeline per node; appends to one queue stay in order because they share its slot). Each append carries its entry's
 * stream position, so re-delivering a batch (after a crash or a lease handover) appends
 * nothing twice.
 */
import type { Db } from '@chat/db';
import type { Redis } from 'ioredis';
import { crossSlot, isCluster, isTransientRedisError } from '@chat/bus';
import { isMessagePayload } from '@chat/contracts';
import type { QueueInfo, QueueStore } from '@chat/queues';
import type { Logger } from '@chat/kit';
import { formatKey, formatMessage, formatOther, type Payload } from './format';

export interface StreamEntry {
  /** Stream entry id "<ms>-<seq>". */
  id: string;
  realmId: number;
  payload: Payload;
}

/** Parses XREADGROUP / XAUTOCLAIM field lists; entries whose payload is unreadable are skipped. */
export function parseEntry(id: string, fields: string[], log?: Logger): StreamEntry | null {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
  try {
    const payload = JSON.parse(f.payload ?? '') as Payload;
    if (!payload?.event?.type) throw new Error('no event');
    return { id, realmId: Number(f.realm_id), payload };
  } catch (err) {
    log?.error({ err, id }, 'dropping unreadable stream entry');
    return null;
  }
}

/** Registrations never change after creation, so they are cached; appends notice deletion. */
const META_CACHE_LIMIT = 200_000;
/** Commands per pipeline round trip. */
const PIPELINE_CHUNK = 5000;

export class Fanout {
  private readonly meta = new Map<string, QueueInfo>();
  appended = 0;

  /** sender id -> (whether client_gravatar queues get avatar_url null, until when that is known). */
  private readonly gravatar = new Map<number, { value: boolean; until: number }>();

  constructor(
    private readonly store: QueueStore,
    private readonly log?: Logger,
    private readonly db?: Db,
  ) {}

  /**
   * Producers may say whether the sender's avatar is a gravatar everyone may compute
   * (`sender_gravatar`); when they do not, it is looked up once a minute per sender.
   */
  private async fillSenderGravatar(entries: StreamEntry[]): Promise<void> {
    if (!this.db) return;
    const now = Date.now();
    for (const { payload } of entries) {
      if (payload.event.type !== 'message' || typeof payload.sender_gravatar === 'boolean' || payload.sender_id === undefined) continue;
      let known = this.gravatar.get(payload.sender_id);
      if (!known || known.until < now) {
        const u = await this.db.user.findUnique({ where: { id: payload.sender_id }, select: { avatarSource: true, settings: true } });
        const visibility = Number((u?.settings as Record<string, unknown> | null)?.email_address_visibility ?? 1);
        known = { value: !!u && u.avatarSource !== 'U' && visibility === 1, until: now + 60_000 };
        if (this.gravatar.size > 50_000) this.gravatar.clear();
        this.gravatar.set(payload.sender_id, known);
      }
      payload.sender_gravatar = known.value;
    }
  }

  async deliver(partition: number, entries: StreamEntry[]): Promise<void> {
    if (!entries.length) return;
    await this.fillSenderGravatar(entries);
    const { targets, keysOf } = await this.resolveTargets(entries);
    const stale = await this.loadMeta([...new Set(targets.flat())]);

    type Append = { queueId: string; realmId: number; events: string[]; position: string };
    const appends: Append[] = [];
    entries.forEach((entry, i) => {
      // Queues registered alike get the same text: formatted and serialised once (formatKey).
      const formatted = new Map<string, string[]>();
      const recipients = entry.payload.users === 'realm' ? null : new Set(entry.payload.users);
      for (const queueId of targets[i]!) {
        const q = this.meta.get(queueId);
        if (!q || q.realmId !== entry.realmId) continue;
        if (!this.reaches(q, entry.payload, recipients)) continue;
        const key = formatKey(q, entry.payload);
        let events = formatted.get(key);
        if (!events) formatted.set(key, (events = this.eventsFor(q, entry.payload).map((e) => JSON.stringify(e))));
        if (events.length) appends.push({ queueId, realmId: q.realmId, events, position: entry.id });
      }
    });

    for (let start = 0; start < appends.length; start += PIPELINE_CHUNK) {
      const chunk = appends.slice(start, start + PIPELINE_CHUNK);
      const results = await this.store.appendManyJson(
        chunk.map((a) => ({ queueId: a.queueId, events: a.events, source: { field: `src:${partition}`, position: a.position } })),
      );
      let retry: Error | undefined;
      results.forEach(([err, id], i) => {
        const a = chunk[i]!;
        if (err && isTransientRedisError(err)) retry ??= err;
        // One broken queue must not hold the partition back: the others' appends are in.
        else if (err) return void this.log?.error({ err, queueId: a.queueId }, 'append failed');
        else if (id === -1) stale.push(a.queueId);
        else if (Number(id) >= 0) this.appended += a.events.length;
      });
      // Redis unreachable or failing over: the batch stays unacknowledged and is delivered
      // again; appends carry their stream position, so the queues that got it keep one copy.
      if (retry) throw retry;
    }
    await this.dropStale(stale, targets, keysOf);
  }

  /**
   * Which queues each entry may reach, before per-queue filtering, with the index sets each
   * entry read (for dropStale). On a single node each entry's sets are read with one `SUNION`:
   * for a message to 200 people one reply to parse instead of 200. On a cluster the sets lie in
   * different slots, and each is read with `SMEMBERS`.
   */
  private async resolveTargets(entries: StreamEntry[]): Promise<{ targets: string[][]; keysOf: string[][] }> {
    const keysOf = entries.map((e) => {
      const keys: string[] = [];
      const { users } = e.payload;
      if (users === 'realm') keys.push(this.store.realmIndexKey(e.realmId));
      else for (const uid of users) keys.push(this.store.userIndexKey(e.realmId, uid));
      if (e.payload.event.type === 'message' && e.payload.public_stream) keys.push(this.store.publicIndexKey(e.realmId));
      return keys;
    });
    const { redis } = this.store;
    if (!isCluster(redis)) {
      // An event for no client (one only other services' consumers read) has no set to read:
      // SUNION without a key is an error.
      const pipeline = redis.pipeline();
      for (const keys of keysOf) if (keys.length) pipeline.sunion(...keys);
      const results = keysOf.some((keys) => keys.length) ? ((await pipeline.exec()) ?? []) : [];
      let next = 0;
      const targets = keysOf.map((keys) => {
        if (!keys.length) return [];
        const [err, ids] = results[next++] ?? [new Error('no reply')];
        if (err) throw err;
        return ids as string[];
      });
      return { targets, keysOf };
    }
    const lookups = new Map<string, string[]>();
    for (const keys of keysOf) for (const k of keys) lookups.set(k, []);
    const keyList = [...lookups.keys()];
    for (let start = 0; start < keyList.length; start += PIPELINE_CHUNK) {
      const chunk = keyList.slice(start, start + PIPELINE_CHUNK);
      const results = await crossSlot(redis, chunk.map((k) => (c: Redis) => c.smembers(k)));
      results.forEach(([err, ids], i) => {
        if (err) throw err;
        lookups.set(chunk[i]!, ids as string[]);
      });
    }
    const targets = keysOf.map((keys) => [...new Set(keys.flatMap((k) => lookups.get(k)!))]);
    return { targets, keysOf };
  }

  /** Loads registrations not cached yet; returns the ids of queues that no longer exist. */
  private async loadMeta(queueIds: string[]): Promise<string[]> {
    const missing = queueIds.filter((id) => !this.meta.has(id));
    const gone: string[] = [];
    for (let start = 0; start < missing.length; start += PIPELINE_CHUNK) {
      const chunk = missing.slice(start, start + PIPELINE_CHUNK);
      const infos = await this.store.getMany(chunk);
      infos.forEach((info, i) => {
        if (info) this.remember(info);
        else gone.push(chunk[i]!);
      });
    }
    return gone;
  }

  private remember(info: QueueInfo): void {
    if (this.meta.size >= META_CACHE_LIMIT) {
      const oldest = this.meta.keys().next().value;
      if (oldest !== undefined) this.meta.delete(oldest);
    }
    this.meta.set(info.queueId, info);
  }

  /** A message reaches its recipients' queues and all_public_streams queues of a public channel. */
  private reaches(q: QueueInfo, p: Payload, recipients: Set<number> | null): boolean {
    if (!isMessagePayload(p)) return true;
    return (recipients === null ? false : recipients.has(q.userId)) || (q.allPublicStreams && !!p.public_stream);
  }

  private eventsFor(q: QueueInfo, p: Payload): object[] {
    if (isMessagePayload(p)) {
      const e = formatMessage(q, p);
      return e ? [e] : [];
    }
    return formatOther(q, p);
  }

  /**
   * Expired (garbage-collected) queues met on the way leave the index sets of the entries that
   * found them: one `SREM` per set with every such queue (removing a non-member is a no-op).
   * Worked out only when a batch met one, off the path of every other batch.
   */
  private async dropStale(queueIds: string[], targets: string[][], keysOf: string[][]): Promise<void> {
    if (!queueIds.length) return;
    const stale = new Set(queueIds);
    for (const id of stale) this.meta.delete(id);
    const bySet = new Map<string, Set<string>>();
    targets.forEach((ids, i) => {
      const here = ids.filter((id) => stale.has(id));
      if (!here.length) return;
      for (const key of keysOf[i]!) {
        const set = bySet.get(key) ?? new Set<string>();
        for (const id of here) set.add(id);
        bySet.set(key, set);
      }
    });
    await crossSlot(this.store.redis, [...bySet].map(([key, ids]) => (c: Redis) => c.srem(key, ...ids)));
  }
}
