import type Redis from 'ioredis';

export type WakeReason = 'woken' | 'timeout' | 'closed';

/** How long a queue's subscription outlives its last waiter. */
const LINGER_MS = 5000;

/**
 * Long-poll waiting without a Redis connection per client: one subscriber connection per
 * process, one channel per queue with someone waiting, local callbacks woken by PUBLISH.
 */
export class QueueWaiter {
  private readonly waiting = new Map<string, Set<(reason: WakeReason) => void>>();
  private readonly subscribed = new Map<string, Promise<unknown>>();
  /** Unsubscribes scheduled for queues nobody waits on any more; see LINGER_MS. */
  private readonly lingering = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly subscriber: Redis,
    private readonly channelOf: (queueId: string) => string,
    private readonly queueOfChannel: (channel: string) => string,
  ) {
    subscriber.on('message', (channel: string) => {
      const set = this.waiting.get(this.queueOfChannel(channel));
      if (set) for (const wake of [...set]) wake('woken');
    });
  }

  get size(): number {
    let n = 0;
    for (const set of this.waiting.values()) n += set.size;
    return n;
  }

  /**
   * Registers interest and resolves `subscribed` once the subscription is live, so the caller
   * can re-check the queue afterwards without missing an append in between.
   */
  async wait(
    queueId: string,
    timeoutMs: number,
    onSubscribed: () => Promise<boolean>,
    /** Lets the caller end the wait (client gone) without an AbortController per poll. */
    onCancel?: (cancel: () => void) => void,
  ): Promise<WakeReason> {
    if (this.closed) return 'closed';
    let set = this.waiting.get(queueId);
    if (!set) {
      set = new Set();
      this.waiting.set(queueId, set);
      if (!this.subscribed.has(queueId)) this.subscribed.set(queueId, this.subscriber.subscribe(this.channelOf(queueId)));
    }
    const linger = this.lingering.get(queueId);
    if (linger) {
      clearTimeout(linger);
      this.lingering.delete(queueId);
    }
    let settle!: (reason: WakeReason) => void;
    const done = new Promise<WakeReason>((resolve) => (settle = resolve));
    set.add(settle);
    const timer = setTimeout(() => settle('timeout'), timeoutMs);
    onCancel?.(() => settle('closed'));
    try {
      await this.subscribed.get(queueId);
      if (await onSubscribed()) settle('woken');
      return await done;
    } finally {
      clearTimeout(timer);
      set.delete(settle);
      if (set.size === 0 && this.waiting.get(queueId) === set) {
        this.waiting.delete(queueId);
        // A client re-polls right after each answer: keeping the subscription a moment saves
        // an UNSUBSCRIBE/SUBSCRIBE pair and the round trip the next wait would spend on it.
        this.lingering.set(
          queueId,
          setTimeout(() => {
            this.lingering.delete(queueId);
            if (this.waiting.has(queueId)) return;
            this.subscribed.delete(queueId);
            this.subscriber.unsubscribe(this.channelOf(queueId)).catch(() => {});
          }, LINGER_MS).unref(),
        );
      }
    }
  }

  /** Ends every wait (process draining): long-polls answer and clients re-poll elsewhere. */
  closeAll(): void {
    this.closed = true;
    for (const timer of this.lingering.values()) clearTimeout(timer);
    this.lingering.clear();
    for (const set of this.waiting.values()) for (const wake of [...set]) wake('closed');
  }
}
