/**
 * Load for the fault test, driven as clients drive it: senders that retry a send whose answer
 * never came with the same idempotency key, and long-polling event queues that re-poll with the
 * same last_event_id after a cut connection. Everything they saw is kept for the ledger.
 */
import type { SeededUser } from '@chat/testing';

type Body = Record<string, any>;

const auth = (u: SeededUser) => `Basic ${Buffer.from(`${u.email}:${u.apiKey}`).toString('base64')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An answer, or why none came: a network error or a status the client retries. */
async function request(url: string, init: RequestInit, timeoutMs: number): Promise<{ status: number; body: Body } | { error: string }> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) as Body };
    } catch {
      return { error: `${res.status} not JSON: ${text.slice(0, 100)}` };
    }
  } catch (err) {
    return { error: String((err as Error).cause ?? (err as Error).message) };
  }
}

export interface SendRecord {
  key: string;
  content: string;
  /** Message id the server acknowledged, if it ever did. */
  ackedId?: number;
  attempts: number;
}

export class Sender {
  readonly sends: SendRecord[] = [];
  /** Answers that were neither a success nor retryable (would be a bug). */
  readonly refused: Body[] = [];
  private running = true;
  private done: Promise<void> | undefined;

  constructor(
    readonly name: string,
    readonly user: SeededUser,
    private readonly baseUrl: () => string,
    private readonly channel: string,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  private async loop(): Promise<void> {
    for (let n = 0; this.running; n++) {
      const record: SendRecord = { key: `${this.name}-${n}`, content: `fault ${this.name} ${n}`, attempts: 0 };
      this.sends.push(record);
      await this.sendUntilAcknowledged(record);
      await sleep(this.intervalMs);
    }
  }

  /** Retries until acknowledged; a send in flight when the load stops still gets its answer. */
  private async sendUntilAcknowledged(record: SendRecord): Promise<void> {
    const deadline = Date.now() + 120000;
    while (Date.now() < deadline) {
      record.attempts++;
      const answer = await request(`${this.baseUrl()}/api/v1/messages`, {
        method: 'POST',
        headers: { authorization: auth(this.user), 'idempotency-key': record.key },
        body: new URLSearchParams({ type: 'stream', to: this.channel, topic: 'load', content: record.content }),
      }, 15000);
      if ('status' in answer && answer.body.result === 'success') {
        record.ackedId = answer.body.id;
        return;
      }
      if ('status' in answer && answer.status < 500 && answer.status !== 429) {
        this.refused.push(answer.body);
        return;
      }
      await sleep(150);
    }
  }
}

export interface Delivered {
  eventId: number;
  messageId: number;
  content: string;
}

export class QueueReader {
  queueId = '';
  lastEventId = -1;
  readonly delivered: Delivered[] = [];
  /** Error answers that are not a passing outage (a lost queue, a refused acknowledgement). */
  readonly failures: Body[] = [];
  polls = 0;
  private running = true;
  private done: Promise<void> | undefined;

  constructor(
    readonly name: string,
    readonly user: SeededUser,
    private readonly baseUrl: () => string,
  ) {}

  async register(): Promise<void> {
    for (;;) {
      const answer = await request(`${this.baseUrl()}/api/v1/register`, {
        method: 'POST',
        headers: { authorization: auth(this.user) },
        body: new URLSearchParams({ event_types: JSON.stringify(['message']), apply_markdown: 'false' }),
      }, 30000);
      if ('status' in answer && answer.body.result === 'success') {
        this.queueId = answer.body.queue_id;
        this.lastEventId = answer.body.last_event_id;
        return;
      }
      await sleep(200);
    }
  }

  start(): void {
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      this.polls++;
      const qs = new URLSearchParams({ queue_id: this.queueId, last_event_id: String(this.lastEventId) });
      const answer = await request(`${this.baseUrl()}/api/v1/events?${qs}`, { headers: { authorization: auth(this.user) } }, 20000);
      if ('error' in answer || answer.status >= 500 || answer.status === 429) {
        await sleep(100);
        continue;
      }
      if (answer.body.result !== 'success') {
        this.failures.push(answer.body);
        return;
      }
      for (const e of answer.body.events as Body[]) {
        if (e.id <= this.lastEventId) continue; // a client drops what it already applied
        this.lastEventId = e.id;
        if (e.type === 'message') this.delivered.push({ eventId: e.id, messageId: e.message.id, content: e.message.content });
      }
    }
  }
}
