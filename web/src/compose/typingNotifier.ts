/**
 * Outgoing typing notices, the family's protocol: `start` when typing begins and again every
 * `startedWaitMs` (10 s) while it goes on, `stop` after `stoppedWaitMs` (5 s) without a
 * keystroke, on sending, on leaving the box, or when the recipient changes. Pure apart from
 * the sender, clock and timers it is given.
 */
import type { Timers } from './draftSaver';

export type TypingRecipient = { type: 'stream'; stream_id: number; topic: string } | { type: 'direct'; to: number[] };

export type TypingSender = (op: 'start' | 'stop', to: TypingRecipient) => void;

function key(r: TypingRecipient): string {
  return r.type === 'stream' ? `s:${r.stream_id}:${r.topic}` : `d:${[...r.to].sort((a, b) => a - b).join(',')}`;
}

export class TypingNotifier {
  private current: TypingRecipient | null = null;
  private nextStartAt = 0;
  private idle: unknown;

  constructor(
    private readonly send: TypingSender,
    private readonly now: () => number = Date.now,
    private readonly timers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) },
    public startedWaitMs = 10_000,
    public stoppedWaitMs = 5_000,
  ) {}

  /** A keystroke in the box addressed to `to` (null: no complete recipient, or not allowed). */
  typed(to: TypingRecipient | null): void {
    if (this.current && (!to || key(to) !== key(this.current))) this.stop();
    if (!to) return;
    if (!this.current) {
      this.current = to;
      this.ping();
    } else if (this.now() >= this.nextStartAt) {
      this.ping();
    }
    this.restartIdle();
  }

  /** Sent, blurred, closed or emptied: tell the others at once. */
  stop(): void {
    if (this.idle !== undefined) this.timers.clear(this.idle);
    this.idle = undefined;
    if (!this.current) return;
    const was = this.current;
    this.current = null;
    this.nextStartAt = 0;
    this.send('stop', was);
  }

  get active(): boolean {
    return this.current !== null;
  }

  private ping(): void {
    this.send('start', this.current!);
    this.nextStartAt = this.now() + this.startedWaitMs;
  }

  private restartIdle(): void {
    if (this.idle !== undefined) this.timers.clear(this.idle);
    this.idle = this.timers.set(() => this.stop(), this.stoppedWaitMs);
  }
}
