/**
 * The write side of the outbox: an action records its domain event in the same transaction as
 * the change it describes, so the event exists exactly when the change does.
 */
import type { EventRecipients, OutboxEvents, OutboxType } from '@chat/contracts';

/**
 * The slice of a database client the outbox needs. A Prisma client and a Prisma interactive
 * transaction client both satisfy it; so does pgExecutor() around a pg client.
 */
export interface SqlExecutor {
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number>;
  $queryRawUnsafe<T = unknown>(sql: string, ...values: unknown[]): Promise<T>;
}

/**
 * Who receives an event: explicit user ids, computed by the action that made the change, or
 * 'realm' for events every user of the realm gets (realm settings, new users, emoji). 'realm'
 * exists because listing every id of a 10 000-user realm in each such event costs more than it
 * tells; the events service resolves it to the realm's queues. Defined in @chat/contracts with
 * the event types (contracts/src/events.ts).
 */
export type { EventRecipients };

/**
 * The JSON stored in outbox.payload and carried by the stream entry.
 *
 * - `event`: the body clients receive, without `id` (each client queue numbers its own events).
 * - `users`: the recipients.
 * - any other top-level field is routing data for consumers that clients never see, e.g.
 *   `stream_id` (channel, for narrow and all_public_streams queues), `sender_id`,
 *   `sender_queue_id` and `local_id` (to echo a client's local id back to its own queue), or
 *   `user_flags: { [userId]: string[] }` (per-recipient message flags).
 *
 * The payload of each type named in @chat/contracts `OutboxEvents` is typed there
 * (`OutboxPayload<T>`); this is the shape common to all.
 */
export interface EventPayload<E extends object = Record<string, unknown>> {
  event: E;
  users: EventRecipients;
  [routing: string]: unknown;
}

/**
 * A domain event to record. For a type named in @chat/contracts `OutboxEvents` (message,
 * update_message, reaction, subscription, ...), `event` and `routing` must have that type's
 * shape, so the producer and every consumer agree on it; other types take any event.
 */
export interface DomainEvent<T extends string = string> {
  realmId: number;
  /** The event type as clients see it ("message", "update_message", ...). */
  type: T;
  event: T extends OutboxType ? OutboxEvents[T]['event'] : object;
  users: EventRecipients;
  /** Extra routing fields, merged into the payload beside `event` and `users`. */
  routing?: T extends OutboxType ? OutboxEvents[T]['routing'] : Record<string, unknown>;
}

function validate(e: DomainEvent): void {
  if (!Number.isSafeInteger(e.realmId) || e.realmId < 0) {
    throw new Error(`outbox: realmId must be a non-negative integer, got ${e.realmId}`);
  }
  if (!e.type) throw new Error('outbox: event type is required');
  if (e.users !== 'realm' && !(Array.isArray(e.users) && e.users.every(Number.isSafeInteger))) {
    throw new Error(`outbox: users must be 'realm' or an array of user ids`);
  }
  if (e.routing && ('event' in e.routing || 'users' in e.routing)) {
    throw new Error('outbox: routing fields must not be named event or users');
  }
}

/**
 * The channel the relay LISTENs on. The outbox table and this channel are named only in this
 * package: an action that writes its own outbox rows composes outboxInsertSql and OUTBOX_NOTIFY.
 */
export const OUTBOX_CHANNEL = 'outbox';

/**
 * The insert of outbox rows that `select` gives as (realm_id, type, payload jsonb), for a
 * statement's data-modifying CTE: `event AS (${outboxInsertSql('SELECT ...')} RETURNING id)`.
 */
export function outboxInsertSql(select: string): string {
  return `INSERT INTO outbox (realm_id, type, payload)\n  ${select}`;
}

/**
 * Wakes the relay, as a text column to select once in the statement. NOTIFY is delivered only
 * if and when the transaction commits, and identical notifications in one transaction are
 * folded into one, so a transaction recording many events wakes the relay once.
 */
export const OUTBOX_NOTIFY = `pg_notify('${OUTBOX_CHANNEL}', '')::text`;

// One statement, so an action pays a single round trip per event.
const INSERT_SQL = `
WITH inserted AS (
  ${outboxInsertSql('VALUES ($1, $2, $3::jsonb)')} RETURNING id
)
SELECT id::text AS id, ${OUTBOX_NOTIFY} AS notified FROM inserted`;

/**
 * Records `e` in the caller's transaction and returns the outbox id. Call it with the
 * transaction client (`prisma.$transaction(async (tx) => ...)`): called with a bare client it
 * commits on its own and the guarantee that the event matches the change is gone.
 */
export async function recordEvent<T extends string>(tx: SqlExecutor, e: DomainEvent<T>): Promise<string> {
  const rows = await tx.$queryRawUnsafe<Array<{ id: string }>>(INSERT_SQL, e.realmId, e.type, outboxPayload(e));
  return rows[0].id;
}

/**
 * The outbox payload of `e`, checked, as JSON: for an action that inserts its outbox row (and
 * its NOTIFY) within a statement of its own, as messaging's single-statement send does.
 */
export function outboxPayload<T extends string>(e: DomainEvent<T>): string {
  validate(e);
  const payload = { ...e.routing, event: e.event, users: e.users };
  return JSON.stringify(payload);
}

/** The query surface of a pg Client, PoolClient or Pool. */
interface PgQueryable {
  query(sql: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/** Adapts a pg client (inside a BEGIN/COMMIT you manage) to SqlExecutor. */
export function pgExecutor(client: PgQueryable): SqlExecutor {
  return {
    async $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number> {
      const result = await client.query(sql, values);
      return result.rowCount ?? 0;
    },
    async $queryRawUnsafe<T>(sql: string, ...values: unknown[]): Promise<T> {
      const result = await client.query(sql, values);
      return result.rows as T;
    },
  };
}
