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

/** [id, flat field list]; fields are null for a pending entry trimmed from its stream. */
export type RawEntry = [id: string, fields: string[] | null];

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

export function parseEntry(partition: number, [id, flat]: RawEntry): StreamEntry | UnreadableEntryError {
  if (!flat) return new UnreadableEntryError(partition, id, 'trimmed from the stream before it was acknowledged');
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
  let payload: unknown;
  try {
    payload = JSON.parse(fields.payload ?? '');
  } catch {
    return new UnreadableEntryError(partition, id, 'payload is not JSON');
  }
  const realmId = Number(fields.realm_id);
  if (!payload || typeof payload !== 'object' || !fields.outbox_id || !fields.type || !Number.isInteger(realmId)) {
    return new UnreadableEntryError(partition, id, 'missing outbox_id, realm_id, type or payload');
  }
  return {
    partition,
    streamId: id,
    outboxId: fields.outbox_id,
    realmId,
    type: fields.type,
    payload: payload as EventPayload,
  };
}
