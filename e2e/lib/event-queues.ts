/**
 * A client of the cluster as existing clients talk to it (HTTP Basic, form bodies, JSON-encoded
 * lists), and one event queue per user read with dont_block polls, for tests that check who
 * receives which event.
 *
 * Who received what is decided with a barrier: after the change under test, the realm owner
 * changes the realm description to a fresh marker. A realm's events travel in one ordered
 * stream partition and `realm` events go to every active user, so once each queue holds its
 * marker, every earlier event of the realm has reached every queue it will ever reach, and a
 * queue without the event under test will not get it later.
 */
import type { SeededUser } from '@chat/testing';

export type Body = Record<string, any>;
export type Event = Record<string, any>;

export interface CallOptions {
  multipart?: boolean;
  files?: Array<{ field: string; name: string; type: string; data: Buffer }>;
}

export function client(baseUrl: () => string) {
  return function call(
    method: string,
    path: string,
    user: SeededUser | null,
    params: Record<string, unknown> = {},
    opts: CallOptions = {},
  ): Promise<{ status: number; body: Body }> {
    const headers: Record<string, string> = {};
    if (user) headers.authorization = `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`;
    const encoded = Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string]);
    let url = `${baseUrl()}/api/v1${path}`;
    let body: FormData | URLSearchParams | undefined;
    if (method === 'GET') {
      if (encoded.length) url += `?${new URLSearchParams(encoded)}`;
    } else if (opts.multipart || opts.files) {
      const form = new FormData();
      for (const [k, v] of encoded) form.append(k, v);
      for (const f of opts.files ?? []) form.append(f.field, new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
      body = form;
    } else {
      body = new URLSearchParams(encoded);
    }
    return fetch(url, { method, headers, body }).then(async (res) => ({ status: res.status, body: (await res.json()) as Body }));
  };
}

export type Call = ReturnType<typeof client>;

export class EventQueue {
  queueId = '';
  lastEventId = -1;

  constructor(
    readonly name: string,
    readonly user: SeededUser,
  ) {}

  async register(call: Call, params: Record<string, unknown>): Promise<Body> {
    const res = await call('POST', '/register', this.user, params);
    if (res.body.result !== 'success') throw new Error(`register as ${this.name} failed: ${JSON.stringify(res.body)}`);
    this.queueId = res.body.queue_id;
    this.lastEventId = res.body.last_event_id;
    return res.body;
  }

  /** Events up to and including the one `isMarker` accepts (the marker itself left out). */
  async readUntil(call: Call, isMarker: (e: Event) => boolean, timeoutMs: number): Promise<Event[]> {
    const out: Event[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await call('GET', '/events', this.user, { queue_id: this.queueId, last_event_id: String(this.lastEventId), dont_block: 'true' });
      if (res.body.result !== 'success') throw new Error(`GET /events as ${this.name} failed: ${JSON.stringify(res.body)}`);
      for (const e of res.body.events as Event[]) {
        this.lastEventId = e.id;
        if (isMarker(e)) return out;
        if (e.type !== 'heartbeat') out.push(e);
      }
      if (Date.now() > deadline) {
        throw new Error(`${this.name}'s queue never received the marker; it got ${JSON.stringify(out.map((e) => e.type))}`);
      }
      await new Promise((r) => setTimeout(r, 40));
    }
  }
}

/** What each queue received, by queue name. */
export type Received = Record<string, Event[]>;

/**
 * The queue names that received events matching `match`, each name repeated once per match
 * (so an event delivered twice shows up as a duplicate name), sorted.
 */
export function receivers(got: Received, names: readonly string[], match: (e: Event) => boolean): string[] {
  const out: string[] = [];
  for (const name of names) for (const e of got[name] ?? []) if (match(e)) out.push(name);
  return out.sort();
}

/** The single event of `name`'s queue matching `match` (throws when there is not exactly one). */
export function only(got: Received, name: string, match: (e: Event) => boolean): Event {
  const found = (got[name] ?? []).filter(match);
  if (found.length !== 1) throw new Error(`${name} got ${found.length} matching events: ${JSON.stringify(got[name])}`);
  return found[0]!;
}
