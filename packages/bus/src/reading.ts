import type { Redis } from 'ioredis';
import type { Keyspace } from './keys';
import { parseHead, UnreadableEntryError, type EntryHead, type RawEntry, type StreamEntry } from './entries';

/** For each head of a batch, whether its entry is parsed and handed to the handler. */
export type BatchSelector = (heads: EntryHead[]) => boolean[] | Promise<boolean[]>;

/** An entry read from one partition. */
export type Delivered = { partition: number; raw: RawEntry };

/** An entry as read in bytes (see RawEntry). */
export type BufferEntry = [id: Buffer, fields: Buffer[] | null];

/**
 * XREADGROUP's reply, read in bytes: [[stream, entries], ...] on RESP2, a stream-to-entries map
 * on RESP3, which ioredis hands over flattened as [stream, entries, ...].
 */
export type ReadReply = Array<[stream: Buffer, entries: BufferEntry[]]> | Array<Buffer | BufferEntry[]> | null;

/** XREADGROUP and XAUTOCLAIM answering in bytes. */
export interface BufferReads {
  xreadgroupBuffer(...args: Array<string | number>): Promise<unknown>;
  xautoclaimBuffer(...args: Array<string | number>): Promise<unknown>;
}

/**
 * `redis` with its commands that answer in bytes, typed loosely: their overloads do not cover
 * every argument order. (`callBuffer` loses its command name under ioredis 6's auto-pipelining,
 * which a duplicated connection inherits; the named variants do not.)
 */
export function bufferReads(redis: Redis): BufferReads {
  return redis as unknown as BufferReads;
}

/** The entries of a read, with their partitions; names and ids become strings, fields stay bytes. */
export function deliveredEntries(reply: ReadReply, keys: Pick<Keyspace, 'partitionOfStream'>): Delivered[] {
  const out: Delivered[] = [];
  const pairs: Array<[Buffer, BufferEntry[]]> = [];
  if (reply && Buffer.isBuffer(reply[0])) {
    for (let i = 0; i + 1 < reply.length; i += 2) pairs.push([reply[i] as Buffer, reply[i + 1] as BufferEntry[]]);
  } else if (reply) {
    pairs.push(...(reply as Array<[Buffer, BufferEntry[]]>));
  }
  for (const [stream, entries] of pairs) {
    const partition = keys.partitionOfStream(stream.toString());
    if (partition === undefined) continue;
    for (const [id, fields] of entries) out.push({ partition, raw: [id.toString(), fields] });
  }
  return out;
}

/** The entries `select` picks (all without one), parsed; unreadable ones are reported and left out. */
export async function selectedEntries(heads: EntryHead[], select: BatchSelector | undefined, onError: (err: Error) => void): Promise<StreamEntry[]> {
  const picks = select ? await select(heads) : undefined;
  const entries: StreamEntry[] = [];
  heads.forEach((head, i) => {
    if (picks && !picks[i]) return;
    const entry = parseHead(head);
    if (entry instanceof UnreadableEntryError) onError(entry);
    else entries.push(entry);
  });
  return entries;
}
