import type Redis from 'ioredis';

/**
 * API keys this gateway found recently, with what they authenticate as, kept in process for a
 * few seconds so that a client's next request costs no Redis round trip (ADR 0022). Redis's
 * auth cache stays the shared one; this copy is only as good as the forget messages this
 * process hears, so:
 *
 * - every forget message (`forgetCachedAuth` of @chat/bus, after any change that must apply at
 *   once) drops every entry, whichever keys it names: such changes are rare, and dropping all
 *   costs each active client one Redis read;
 * - entries are used and kept only while the subscription is live: when the connection drops,
 *   every entry goes, and none is kept again until the channel is subscribed anew;
 * - a lookup that began before a forget (or a lost subscription) must not keep what it found:
 *   its Redis read may have raced the delete (`generation`).
 *
 * An entry lives at most `ttlMs`, which bounds how long a change made past the users service
 * (SQL by hand) goes unseen, on top of the Redis entry's own lifetime.
 */
export class KnownKeys<U> {
  private readonly entries = new Map<string, { user: U; until: number }>();
  private live = false;
  private forgets = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 100_000,
  ) {}

  /** Changes with every forget and every loss of the subscription. */
  get generation(): number {
    return this.forgets;
  }

  get(apiKey: string): U | undefined {
    const hit = this.entries.get(apiKey);
    if (!hit) return undefined;
    if (hit.until > Date.now()) return hit.user;
    this.entries.delete(apiKey);
    return undefined;
  }

  /** Keeps what a lookup begun at `generation` found, unless a forget came in meanwhile. */
  keep(apiKey: string, user: U, generation: number): void {
    if (!this.live || generation !== this.forgets) return;
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= this.maxEntries && !this.entries.has(apiKey)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(apiKey, { user, until: Date.now() + this.ttlMs });
  }

  forgetAll(): void {
    this.forgets++;
    this.entries.clear();
  }

  /**
   * Hears the forget messages on `subscriber` (a connection of its own, put in subscriber
   * mode). Nothing is kept until the subscription is confirmed, after each (re)connect.
   */
  listen(subscriber: Redis, channel: string): void {
    subscriber.on('message', (from: string) => {
      if (from === channel) this.forgetAll();
    });
    subscriber.on('close', () => {
      this.live = false;
      this.forgetAll();
    });
    const subscribe = () => {
      subscriber.subscribe(channel).then(
        () => {
          // A connection lost while subscribing: the next 'ready' subscribes again.
          if (subscriber.status === 'ready') this.live = true;
        },
        () => undefined,
      );
    };
    subscriber.on('ready', subscribe);
    if (subscriber.status === 'ready') subscribe();
  }

  /** Whether entries are being kept: the subscription is live. */
  get listening(): boolean {
    return this.live;
  }
}
