import type Redis from 'ioredis';

export type WakeReason = 'woken' | 'timeout' | 'closed';

/**
 * Long-poll waiting without a Redis connection per client: one subscriber connection per
 * process, one channel per queue with someone waiting, local callbacks woken by PUBLISH.
 */
export class QueueWaiter {
  private readonly waiting = new Map<string, Set<(reason: WakeReason) => void>>();
  private readonly subscribed = new Map<string, Promise<unknown>>();
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
  async wait(queueId: string, timeoutMs: number, onSubscribed: () => Promise<boolean>, signal?: AbortSignal): Promise<WakeReason> {
    if (this.closed) return 'closed';
    let set = this.waiting.get(queueId);
    if (!set) {
      set = new Set();
      this.waiting.set(queueId, set);
      this.subscribed.set(queueId, this.subscriber.subscribe(this.channelOf(queueId)));
    }
    let settle!: (reason: WakeReason) => void;
    const done = new Promise<WakeReason>((resolve) => (settle = resolve));
    set.add(settle);
    const timer = setTimeout(() => settle('timeout'), timeoutMs);
    const onAbort = () => settle('closed');
    signal?.addEventListener('abort', onAbort);
    try {
      await this.subscribed.get(queueId);
      if (await onSubscribed()) settle('woken');
      return await done;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      set.delete(settle);
      if (set.size === 0 && this.waiting.get(queueId) === set) {
        this.waiting.delete(queueId);
        this.subscribed.delete(queueId);
        this.subscriber.unsubscribe(this.channelOf(queueId)).catch(() => {});
      }
    }
  }

  /** Ends every wait (process draining): long-polls answer and clients re-poll elsewhere. */
  closeAll(): void {
    this.closed = true;
    for (const set of this.waiting.values()) for (const wake of [...set]) wake('closed');
  }
}
