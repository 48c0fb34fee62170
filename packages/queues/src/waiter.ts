import type Redis from 'ioredis';
import { parseWake } from './members';

export type WakeReason = 'woken' | 'timeout' | 'closed';

/**
 * Called once per hold. `events` is set only when the wake-up carried exactly the events that
 * follow the holder's last_event_id: the poll can answer with them without reading the queue.
 */
export type HoldCallback = (reason: WakeReason, events: string[] | null) => void;

interface Holder {
  lastEventId: number | undefined;
  done: HoldCallback;
  timer: NodeJS.Timeout;
  /** The user polling, when the caller wants settled() to know of this poll's answer. */
  owner: number | undefined;
}

interface Channel {
  /** Set once SUBSCRIBE is confirmed; wake-ups are only known to reach us from then on. */
  live: boolean;
  subscribing: Promise<void> | undefined;
  /** Wake-ups received; a holder registered against an older count re-reads the queue. */
  wakes: number;
  holders: Set<Holder>;
  /** When the last holder left, or the queue was last marked; see sweep(). */
  idleSince: number;
  /**
   * The last answer a wake-up carried: to whom, up to which event, and the wake-up count it
   * was complete at. See settled().
   */
  answered: { owner: number; lastId: number; wakes: number } | undefined;
}

/** How long a queue's subscription outlives its last waiter. Default 5000 ms. */
const DEFAULT_LINGER_MS = 5000;

/**
 * Long-poll waiting without a Redis connection per client: one subscriber connection per
 * process, one channel per queue with someone waiting, local callbacks woken by PUBLISH.
 *
 * Nothing is awaited while a poll waits: a held poll costs one small holder record and its
 * timer, not a chain of suspended async frames, which matters at tens of thousands of polls.
 *
 * The protocol that loses no wake-up: take `mark()` (or `await subscribe()`), read the queue,
 * and if it was empty `hold()` with that mark. A wake-up that arrived in between changes the
 * channel's count, and hold() then answers at once so that the caller reads the queue again.
 */
export class QueueWaiter {
  private readonly channels = new Map<string, Channel>();
  private holding = 0;
  private batch: { channels: string[]; sent: Promise<unknown> } | undefined;
  private closed = false;
  private readonly sweeper: NodeJS.Timeout;
  private readonly lingerMs: number;

  constructor(
    private readonly subscriber: Redis,
    private readonly channelOf: (queueId: string) => string,
    private readonly queueOfChannel: (channel: string) => string,
    options: { lingerMs?: number } = {},
  ) {
    this.lingerMs = options.lingerMs ?? DEFAULT_LINGER_MS;
    subscriber.on('message', (channel: string, message: string) => this.onMessage(this.queueOfChannel(channel), message));
    // After a reconnect, wake-ups published while the connection was down are lost: every
    // waiting poll reads its queue again once the subscriptions are back.
    let connected = subscriber.status === 'ready';
    subscriber.on('ready', () => {
      if (connected) void this.resync();
      connected = true;
    });
    this.sweeper = setInterval(() => this.sweep(), this.lingerMs).unref();
  }

  /** Polls waiting now. */
  get size(): number {
    return this.holding;
  }

  /** The queue's wake-up count if its subscription is live, else undefined (then subscribe()). */
  mark(queueId: string): number | undefined {
    const channel = this.channels.get(queueId);
    if (!channel?.live) return undefined;
    channel.idleSince = Date.now();
    return channel.wakes;
  }

  /**
   * The mark to hold a re-poll with, without reading the queue, when this process has itself
   * just answered `owner`'s poll of the queue with every event up to `lastEventId` and no
   * wake-up came since: the queue then holds nothing newer (each append publishes one, in order
   * on this connection), and one that is on its way finds the mark moved. Undefined otherwise:
   * read the queue as usual. The caller still owes the queue the acknowledgement (AckBatcher).
   */
  settled(queueId: string, owner: number, lastEventId: number): number | undefined {
    const channel = this.channels.get(queueId);
    const answered = channel?.answered;
    if (!channel?.live || !answered || answered.owner !== owner || answered.lastId !== lastEventId || answered.wakes !== channel.wakes) return undefined;
    channel.idleSince = Date.now();
    return channel.wakes;
  }

  /**
   * Wakes the queue's holders as a wake-up would, so that they read the queue again: its
   * held-back acknowledgement found it gone, or could not be made.
   */
  poke(queueId: string): void {
    const channel = this.channels.get(queueId);
    if (!channel) return;
    channel.wakes++;
    channel.answered = undefined;
    for (const holder of [...channel.holders]) this.release(channel, holder, 'woken', null);
  }

  /** Subscribes to the queue's wake-ups; resolves with its mark once the subscription is live. */
  async subscribe(queueId: string): Promise<number> {
    let channel = this.channels.get(queueId);
    if (!channel) {
      channel = { live: false, subscribing: undefined, wakes: 0, holders: new Set(), idleSince: Date.now(), answered: undefined };
      this.channels.set(queueId, channel);
    }
    channel.idleSince = Date.now();
    if (!channel.live) {
      const c = channel;
      c.subscribing ??= this.subscribeBatched(this.channelOf(queueId)).then(
        () => {
          c.live = true;
          c.subscribing = undefined;
        },
        (err: unknown) => {
          c.subscribing = undefined;
          if (this.channels.get(queueId) === c && !c.holders.size) this.channels.delete(queueId);
          throw err;
        },
      );
      await c.subscribing;
    }
    return channel.wakes;
  }

  /**
   * SUBSCRIBE for every channel asked for in the same turn of the event loop, in one command:
   * thousands of polls arriving together (a gateway restart) cost a handful of round trips.
   */
  private subscribeBatched(channel: string): Promise<unknown> {
    if (!this.batch) {
      const batch = { channels: [] as string[], sent: Promise.resolve() as Promise<unknown> };
      batch.sent = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        if (this.batch === batch) this.batch = undefined;
        return this.subscriber.subscribe(...batch.channels);
      });
      this.batch = batch;
    }
    this.batch.channels.push(channel);
    return this.batch.sent;
  }

  /**
   * Waits for the next wake-up of `queueId` after `mark`, for at most `timeoutMs`. Answers
   * 'woken' at once if one already came (or the subscription was dropped) since the mark.
   * Returns a cancel function for a client that went away; done is then not called. With
   * `owner`, an answer carried by a wake-up is remembered for settled().
   */
  hold(queueId: string, mark: number, lastEventId: number | undefined, timeoutMs: number, done: HoldCallback, owner?: number): () => void {
    const channel = this.channels.get(queueId);
    if (this.closed || !channel?.live || channel.wakes !== mark) {
      const reason: WakeReason = this.closed ? 'closed' : 'woken';
      queueMicrotask(() => done(reason, null));
      return noop;
    }
    const holder: Holder = {
      lastEventId,
      done,
      timer: setTimeout(() => this.release(channel, holder, 'timeout', null), timeoutMs),
      owner,
    };
    channel.holders.add(holder);
    this.holding++;
    return () => {
      if (!channel.holders.delete(holder)) return;
      this.holding--;
      clearTimeout(holder.timer);
      if (!channel.holders.size) channel.idleSince = Date.now();
    };
  }

  /** Ends every wait (process draining): long-polls answer and clients re-poll elsewhere. */
  closeAll(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const channel of this.channels.values()) {
      for (const holder of [...channel.holders]) this.release(channel, holder, 'closed', null);
    }
  }

  private async resync(): Promise<void> {
    const names = [...this.channels.keys()].map((q) => this.channelOf(q));
    for (let i = 0; i < names.length; i += 1000) await this.subscriber.subscribe(...names.slice(i, i + 1000)).catch(noop);
    for (const channel of this.channels.values()) {
      channel.wakes++;
      for (const holder of [...channel.holders]) this.release(channel, holder, 'woken', null);
    }
  }

  private release(channel: Channel, holder: Holder, reason: WakeReason, events: string[] | null): void {
    if (!channel.holders.delete(holder)) return;
    this.holding--;
    clearTimeout(holder.timer);
    if (!channel.holders.size) channel.idleSince = Date.now();
    holder.done(reason, events);
  }

  private onMessage(queueId: string, message: string): void {
    const channel = this.channels.get(queueId);
    if (!channel) return;
    channel.wakes++;
    if (!channel.holders.size) return;
    const wake = parseWake(message);
    for (const holder of [...channel.holders]) {
      const seen = holder.lastEventId;
      // A wake-up for events the holder already has (published before the holder's read of
      // the queue, delivered after it) is no news.
      if (seen !== undefined && wake.lastId <= seen) continue;
      const carried = seen !== undefined && wake.firstId === seen + 1 ? wake.events : null;
      if (carried && holder.owner !== undefined) channel.answered = { owner: holder.owner, lastId: wake.lastId, wakes: channel.wakes };
      this.release(channel, holder, 'woken', carried);
    }
  }

  /**
   * Drops subscriptions nobody has waited on for a while. A client re-polls right after each
   * answer, so keeping the subscription that long saves an UNSUBSCRIBE/SUBSCRIBE pair and the
   * round trip the next poll would spend on it.
   */
  private sweep(): void {
    const cutoff = Date.now() - this.lingerMs;
    const drop: string[] = [];
    for (const [queueId, channel] of this.channels) {
      if (channel.live && !channel.holders.size && channel.idleSince < cutoff) {
        this.channels.delete(queueId);
        drop.push(this.channelOf(queueId));
      }
    }
    for (let i = 0; i < drop.length; i += 1000) this.subscriber.unsubscribe(...drop.slice(i, i + 1000)).catch(noop);
  }
}

function noop(): void {}
