import type { EventPayload } from './outbox';

/**
 * One domain event as read from a partition stream. The relay writes the fields `outbox_id`,
 * `realm_id`, `type` and `payload` (JSON text of EventPayload).
 */
export interface StreamEntry<P extends object = EventPayload> {
  partition: number;
  /** Position in the partition stream, "<ms>-<seq>"; increases with publication order. */
  streamId: string;
  /** Unique per event for as long as the outbox table lives. */
  outboxId: string;
  realmId: number;
  type: string;
  payload: P;
}

/**
 * [id, flat field list]; fields are null for a pending entry trimmed from its stream. The
 * consumer reads fields as bytes, so that a payload it skips is never decoded into a string.
 */
export type RawEntry = [id: string, fields: Array<string | Buffer> | null];

export class UnreadableEntryError extends Error {
  constructor(
    readonly partition: number,
    readonly streamId: string,
    reason: string,
  ) {
    super(`unreadable stream entry ${streamId} in partition ${partition}: ${reason}`);
    this.name = 'UnreadableEntryError';
  }
}

/**
 * What an entry says before its payload is parsed: the fields the relay writes beside it, and
 * the payload's JSON text as the UTF-8 bytes read from Redis. A consumer's `select` decides from
 * this whether the entry is worth parsing. A byte below 0x80 in UTF-8 is always that ASCII
 * character, so a search for ASCII text (a path, digits, a backslash) in the bytes finds exactly
 * what it would find in the decoded text.
 */
export interface EntryHead {
  partition: number;
  streamId: string;
  outboxId: string;
  realmId: number;
  type: string;
  payload: Buffer;
}

/** The entry's fields, without parsing its payload. */
export function entryHead(partition: number, [id, flat]: RawEntry): EntryHead | UnreadableEntryError {
  if (!flat) return new UnreadableEntryError(partition, id, 'trimmed from the stream before it was acknowledged');
  let outboxId: string | undefined;
  let realm: string | undefined;
  let type: string | undefined;
  let payload: Buffer | undefined;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const name = String(flat[i]);
    const value = flat[i + 1]!;
    if (name === 'payload') payload = typeof value === 'string' ? Buffer.from(value) : value;
    else if (name === 'outbox_id') outboxId = String(value);
    else if (name === 'realm_id') realm = String(value);
    else if (name === 'type') type = String(value);
  }
  const realmId = Number(realm);
  if (!outboxId || !type || payload === undefined || !Number.isInteger(realmId)) {
    return new UnreadableEntryError(partition, id, 'missing outbox_id, realm_id, type or payload');
  }
  return { partition, streamId: id, outboxId, realmId, type, payload };
}

/** The entry with its payload parsed. */
export function parseHead(head: EntryHead): StreamEntry | UnreadableEntryError {
  let payload: unknown;
  try {
    payload = JSON.parse(head.payload.toString('utf8'));
  } catch {
    return new UnreadableEntryError(head.partition, head.streamId, 'payload is not JSON');
  }
  if (!payload || typeof payload !== 'object') {
    return new UnreadableEntryError(head.partition, head.streamId, 'missing outbox_id, realm_id, type or payload');
  }
  const { partition, streamId, outboxId, realmId, type } = head;
  return { partition, streamId, outboxId, realmId, type, payload: payload as EventPayload };
}

export function parseEntry(partition: number, raw: RawEntry): StreamEntry | UnreadableEntryError {
  const head = entryHead(partition, raw);
  return head instanceof UnreadableEntryError ? head : parseHead(head);
}
