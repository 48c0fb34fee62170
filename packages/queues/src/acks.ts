import type { QueueStore } from './store';

/**
 * How long an acknowledgement waits for others to share its script call, unless the caller says
 * otherwise: the gateway passes its EVENTS_ACK_BATCH_MS (1 s, ADR 0030), so that a queue polled
 * again meanwhile is acknowledged once.
 */
const DEFAULT_DELAY_MS = 10;

/**
 * Acknowledgements of re-polls a gateway held without reading their queue (QueueWaiter's
 * settled()), sent to Redis together: after each message, every recipient polls again within
 * a few milliseconds, and one ACK_BATCH call for all of them replaces a FETCH each. Until it is
 * sent, the queue keeps events the client already has, which only the next poll would read
 * (and prune, as FETCH does) were this process to stop first: nothing is lost or repeated.
 * `failed` is told of each queue found gone (or when the call fails), so that its held polls
 * read the queue and answer the error as any poll of a gone queue does.
 */
export class AckBatcher {
  private pending = new Map<string, { userId: number; lastEventId: number }>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** Acknowledgements deferred since start (a metric). */
  deferred = 0;

  constructor(
    private readonly store: QueueStore,
    private readonly failed: (queueIds: string[], err?: unknown) => void,
    private readonly delayMs = DEFAULT_DELAY_MS,
  ) {}

  /** Acknowledges `lastEventId` on the queue soon; a later one of the same queue supersedes it. */
  defer(queueId: string, userId: number, lastEventId: number): void {
    this.deferred++;
    const held = this.pending.get(queueId);
    if (!held || held.userId !== userId || held.lastEventId < lastEventId) this.pending.set(queueId, { userId, lastEventId });
    this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  /** Sends what is pending now; resolves once it (and any earlier send) is done. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending.size) return this.flushing;
    const acks = [...this.pending].map(([queueId, a]) => ({ queueId, ...a }));
    this.pending = new Map();
    const sent = this.store.ackMany(acks).then(
      (owned) => {
        const gone = acks.filter((_, i) => !owned[i]).map((a) => a.queueId);
        if (gone.length) this.failed(gone);
      },
      (err: unknown) => this.failed(acks.map((a) => a.queueId), err),
    );
    this.flushing = Promise.all([this.flushing, sent]).then(() => undefined);
    return this.flushing;
  }
}
