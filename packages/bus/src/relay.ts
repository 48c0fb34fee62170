import { Client } from 'pg';
import { Pause } from './pause';
import type { Redis } from 'ioredis';
import type { Keyspace } from './keys';
import { publishRows, type OutboxRow } from './publish';
import { OUTBOX_CHANNEL } from './outbox';

export interface OutboxRelayOptions {
  /** Postgres holding the outbox table. */
  databaseUrl: string;
  /** A regular (non-blocking) connection; the relay only pipelines script calls on it. */
  redis: Redis;
  keys: Keyspace;
  /** Rows moved per round trip. Default 200. */
  batchSize?: number;
  /**
   * Safety net behind LISTEN: a notification is lost if it fires while the relay reconnects.
   * Default 1000 ms.
   */
  pollIntervalMs?: number;
  /** How often a standby asks for the lock, so also the worst-case failover delay. Default 1000 ms. */
  standbyRetryMs?: number;
  /** Names the advisory lock. Relays sharing a database and a name elect one leader. */
  lockName?: string;
  /** Shown in pg_stat_activity. Default 'outbox-relay'. */
  applicationName?: string;
  /**
   * Approximate cap per partition stream (XADD MAXLEN ~); null disables it. Default 10 000.
   * Redis 7 trims without regard to consumer groups, so this must exceed the backlog the
   * slowest group may build: peak events per second per partition times the longest consumer
   * outage to survive. Memory is about partitions * cap * entry size.
   */
  streamMaxLen?: number | null;
  /**
   * How long a published row stays recognisable as published. It must outlast the gap between
   * XADD and DELETE, which is milliseconds unless the relay dies or loses Postgres in between;
   * a row republished after its marker expired reaches consumers twice. Costs roughly
   * 100 bytes of Redis per event published within the window. Default 3600 s.
   */
  markerTtlSeconds?: number;
  onError?: (err: Error) => void;
  /**
   * Awaited after a batch is in the streams and before its rows are deleted: a place for
   * metrics, and for tests to stop a relay at the worst possible moment.
   */
  afterPublish?: (rows: OutboxRow[]) => void | Promise<void>;
}

// One statement per batch: it deletes the rows the previous batch published and reads the next
// ones, skipping those (the SELECT sees the snapshot from before the DELETE). Qualified ORDER BY:
// a bare `id` would name the text output column and sort 10 before 9. Prepared once per session.
const NEXT_BATCH = `
WITH published AS (DELETE FROM outbox WHERE id = ANY($1::bigint[]))
SELECT id::text AS id, realm_id, type, payload::text AS payload, created_at::text AS created_at
FROM outbox WHERE outbox.id <> ALL($1::bigint[]) ORDER BY outbox.id LIMIT $2`;

/**
 * How long published rows wait for a commit's notification before the next batch's statement
 * runs anyway to delete them (the outbox backlog metric counts them until then).
 */
const DELETE_DELAY_MS = 50;

interface SelectedRow {
  id: string;
  realm_id: number;
  type: string;
  payload: string;
  created_at: string;
}

/**
 * Moves outbox rows to the partition streams. Run one in every replica of a service that
 * writes the outbox: a Postgres advisory lock, held on the relay's own session, lets exactly
 * one of them work while the others wait to take over.
 *
 * Rows are read in id order, appended, then deleted by the statement that reads the next batch
 * (at the next notification, or after DELETE_DELAY_MS of quiet). Deleting through the lock's
 * session fences a relay that lost its session: it can no longer delete, and its successor's
 * appends of the same rows are skipped by the publish script.
 */
export class OutboxRelay {
  private readonly opts: Required<Omit<OutboxRelayOptions, 'afterPublish' | 'onError' | 'streamMaxLen'>> &
    Pick<OutboxRelayOptions, 'afterPublish'> & { streamMaxLen: number | null; onError: (err: Error) => void };
  private running = false;
  private loop: Promise<void> | undefined;
  private leading = false;
  private notified = false;
  private readonly sleeper = new Pause();
  /** Ids of rows in the streams and not yet deleted: the next statement of the session deletes them. */
  private published: string[] = [];

  constructor(options: OutboxRelayOptions) {
    this.opts = {
      batchSize: 200,
      pollIntervalMs: 1000,
      standbyRetryMs: 1000,
      lockName: 'outbox-relay',
      applicationName: 'outbox-relay',
      markerTtlSeconds: 3600,
      ...options,
      streamMaxLen: options.streamMaxLen === undefined ? 10_000 : options.streamMaxLen,
      onError: options.onError ?? ((err) => console.error(`[outbox-relay] ${err.message}`)),
    };
  }

  /** True while this instance holds the lock. */
  get isLeader(): boolean {
    return this.leading;
  }

  /** Returns at once; the relay competes for leadership in the background. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Finishes the batch in flight, releases the lock and closes the session. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    this.loop = undefined;
  }

  private wake(): void {
    this.notified = true;
    this.sleeper.wake();
  }

  /** Resolves after `ms`, or sooner on a notification, a broken session, or stop(). */
  private pause(ms: number): Promise<void> {
    if (this.notified || !this.running) return Promise.resolve();
    return this.sleeper.for(ms);
  }

  private async run(): Promise<void> {
    while (this.running) {
      const client = new Client({
        connectionString: this.opts.databaseUrl,
        application_name: this.opts.applicationName,
        connectionTimeoutMillis: 10_000,
        // Start probing an idle session after 10 s instead of the OS default of two hours, so a
        // vanished database is noticed in minutes (the probe interval and count stay the OS's).
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
      });
      let broken: Error | undefined;
      // An unhandled 'error' on a pg client kills the process; a dead session is a normal event.
      client.on('error', (err) => {
        broken = err;
        this.wake();
      });
      client.on('end', () => {
        broken ??= new Error('outbox relay: database session ended');
        this.wake();
      });
      client.on('notification', () => this.wake());
      try {
        await client.connect();
        while (this.running && !broken) {
          if (await this.tryLock(client)) {
            this.leading = true;
            await this.lead(client, () => broken);
            break;
          }
          this.notified = false;
          await this.pause(this.opts.standbyRetryMs);
        }
      } catch (err) {
        if (this.running) this.opts.onError(err as Error);
      } finally {
        this.leading = false;
        // Ending the session releases the advisory lock.
        await client.end().catch(() => undefined);
      }
      if (this.running) {
        this.notified = false;
        await this.pause(this.opts.standbyRetryMs);
      }
    }
  }

  private async tryLock(client: Client): Promise<boolean> {
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
      [this.opts.lockName],
    );
    return rows[0].locked;
  }

  private async lead(client: Client, broken: () => Error | undefined): Promise<void> {
    // Rows published by an earlier session are not this one's to delete: a successor may have
    // taken them over, and the publish script skips what it finds already published.
    this.published = [];
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    while (this.running) {
      // Cleared before reading, so a commit that lands while a batch is in flight is not missed.
      this.notified = false;
      let more: boolean;
      try {
        more = await this.moveBatch(client);
      } catch (err) {
        const lost = broken();
        if (lost) throw lost;
        // Redis down, or a failing query: keep the lock, since a successor would fare no
        // better, and retry the same rows later.
        this.opts.onError(err as Error);
        this.notified = false;
        await this.pause(this.opts.standbyRetryMs);
        continue;
      }
      const lost = broken();
      if (lost) throw lost;
      if (more) continue;
      // Published rows go with the next batch's read, which comes soon whether or not another
      // commit does.
      await this.pause(this.published.length ? DELETE_DELAY_MS : this.opts.pollIntervalMs);
    }
    // Stopping: a read of no rows deletes what is published.
    if (this.published.length) await this.nextBatch(client, 0).catch((err: Error) => this.opts.onError(err));
  }

  /** Deletes what the last batch published and reads up to `limit` rows after it. */
  private async nextBatch(client: Client, limit: number): Promise<SelectedRow[]> {
    const { rows } = await client.query<SelectedRow>({ name: 'outbox-next-batch', text: NEXT_BATCH, values: [this.published, limit] });
    this.published = [];
    return rows;
  }

  /** Deletes what the last batch published and moves the next; true if the outbox may hold more. */
  private async moveBatch(client: Client): Promise<boolean> {
    const rows = await this.nextBatch(client, this.opts.batchSize);
    if (rows.length === 0) return false;
    const batch: OutboxRow[] = rows.map((r) => ({
      id: r.id,
      realmId: r.realm_id,
      type: r.type,
      payload: r.payload,
      createdAt: r.created_at,
    }));
    await publishRows(this.opts.redis, this.opts.keys, batch, {
      streamMaxLen: this.opts.streamMaxLen,
      markerTtlSeconds: this.opts.markerTtlSeconds,
    });
    await this.opts.afterPublish?.(batch);
    this.published = batch.map((r) => r.id);
    return rows.length === this.opts.batchSize;
  }
}
