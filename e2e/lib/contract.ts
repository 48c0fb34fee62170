/**
 * The harness of the client-contract tests: a cluster of real processes, a seeded realm, a
 * channel everyone but the guest is subscribed to with a first message, and calls made the way
 * the family's clients make them (HTTP Basic, form bodies with JSON-encoded values, a client
 * User-Agent).
 */
import { doCreateUser } from '@chat/realm';
import { ROLE } from '@chat/contracts';
import { seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';

export type Body = Record<string, any>;
export type Person = 'owner' | 'admin' | 'moderator' | 'member' | 'member2' | 'guest' | 'bot';

/** The User-Agent of the family's mobile app; the server picks its dialect from it. */
export const MOBILE_UA = 'ZulipFlutter/30.0.0 (Android 14)';
export const TERMINAL_UA = 'ZulipTerminal/0.7.0 Linux';

export interface Request {
  files?: Array<{ field: string; name: string; type: string; data: Buffer }>;
  userAgent?: string;
  /** Query string even for non-GET methods. */
  query?: boolean;
}

export interface Reply {
  status: number;
  body: Body;
}

/** A 16 px PNG, for emoji and files. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAGUlEQVQokWMwTvtPEmIY1ZA2GkrGwzVpAAAboJgQNBzlkgAAAABJRU5ErkJggg==',
  'base64',
);

export class Contract {
  env!: TestEnv;
  realm!: SeededRealm;
  cluster!: Cluster;
  /** Channel "Verona": owner, admin, moderator, member, member2 and the bot subscribed. */
  channelId = 0;
  readonly channelName = 'Verona';
  /** A channel message of the member in Verona, topic "balcony". */
  messageId = 0;
  /** A direct message of the member to member2. */
  dmId = 0;
  private disposable = 0;

  async start(): Promise<void> {
    this.env = await setupTestEnv();
    this.realm = await seedRealm(this.env.db);
    // A BigBlueButton server configured (never contacted: creating a call only signs a link).
    this.cluster = await startCluster(this.env, {
      env: { EVENTS_HEARTBEAT_SECONDS: '2', BIG_BLUE_BUTTON_URL: 'http://127.0.0.1:9/bigbluebutton/', BIG_BLUE_BUTTON_SECRET: 'contract-test-bbb-secret' },
    });
    const ids = (['owner', 'admin', 'moderator', 'member', 'member2', 'bot'] as Person[]).map((p) => this.user(p).id);
    await this.ok('POST', '/users/me/subscriptions', 'owner', { subscriptions: [{ name: this.channelName, description: 'Fair **Verona**' }], principals: ids });
    this.channelId = (await this.ok('GET', '/get_stream_id', 'member', { stream: this.channelName })).stream_id;
    this.messageId = await this.send('member', 'balcony', 'But soft, what light');
    this.dmId = (await this.ok('POST', '/messages', 'member', { type: 'direct', to: [this.user('member2').id], content: 'psst' })).id;
  }

  async stop(): Promise<void> {
    await this.cluster?.stop();
    await this.env?.close();
  }

  user(who: Person | SeededUser): SeededUser {
    return typeof who === 'string' ? this.realm[who] : who;
  }

  async call(method: string, path: string, who: Person | SeededUser | null, params: Record<string, unknown> = {}, req: Request = {}): Promise<Reply> {
    const headers: Record<string, string> = { 'user-agent': req.userAgent ?? 'ZulipContractTests/1.0' };
    if (who) {
      const u = this.user(who);
      headers.authorization = `Basic ${Buffer.from(`${u.email}:${u.apiKey}`).toString('base64')}`;
    }
    const encoded = Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string]);
    let url = `${this.cluster.url}/api/v1${path}`;
    let body: FormData | URLSearchParams | undefined;
    if (method === 'GET' || req.query) {
      if (encoded.length) url += `?${new URLSearchParams(encoded)}`;
    } else if (req.files) {
      const form = new FormData();
      for (const [k, v] of encoded) form.append(k, v);
      for (const f of req.files) form.append(f.field, new Blob([new Uint8Array(f.data)], { type: f.type }), f.name);
      body = form;
    } else {
      body = new URLSearchParams(encoded);
    }
    const res = await fetch(url, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: Body;
    try {
      parsed = JSON.parse(text) as Body;
    } catch {
      parsed = { unparsed: text.slice(0, 300) };
    }
    return { status: res.status, body: parsed };
  }

  /** Calls the API and returns the body, throwing on anything but a success envelope. */
  async ok(method: string, path: string, who: Person | SeededUser | null, params: Record<string, unknown> = {}, req: Request = {}): Promise<Body> {
    const res = await this.call(method, path, who, params, req);
    if (res.body.result !== 'success') throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** Sends a message to Verona and returns its id. */
  async send(who: Person, topic: string, content: string): Promise<number> {
    return (await this.ok('POST', '/messages', who, { type: 'stream', to: this.channelName, topic, content })).id;
  }

  /** A new channel (with `who` and the admin subscribed) and its id. */
  async channel(name: string, who: Person = 'admin'): Promise<number> {
    await this.ok('POST', '/users/me/subscriptions', who, { subscriptions: [{ name }], principals: [this.user(who).id, this.user('admin').id] });
    return (await this.ok('GET', '/get_stream_id', who, { stream: name })).stream_id;
  }

  /** A fresh member account (through the realm's own account-creation action), for destructive calls. */
  async newMember(): Promise<SeededUser> {
    const n = ++this.disposable;
    const u = await doCreateUser(this.env.db, { realmId: this.realm.realmId, email: `extra${n}@chat.test`, fullName: `Extra ${n}`, role: ROLE.MEMBER });
    return { id: u.id, email: u.email, apiKey: u.apiKey, role: u.role, isBot: u.isBot, fullName: u.fullName };
  }

  /** Registers an event queue as `who` with `params`; returns the register body. */
  register(who: Person | SeededUser, params: Record<string, unknown> = {}, userAgent?: string): Promise<Body> {
    return this.ok('POST', '/register', who, params, { userAgent });
  }

  /**
   * Long-polls `who`'s queue (blocking GET /events, as clients do) until an event `match`
   * accepts arrives; returns it. Heartbeats and other events are skipped.
   */
  async waitFor(who: Person | SeededUser, queue: { queue_id: string; last_event_id: number }, match: (e: Body) => boolean, userAgent?: string, timeoutMs = 20000): Promise<Body> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const res = await this.ok('GET', '/events', who, { queue_id: queue.queue_id, last_event_id: String(queue.last_event_id) }, { userAgent });
      for (const e of res.events as Body[]) {
        queue.last_event_id = Math.max(queue.last_event_id, e.id);
        if (match(e)) return e;
      }
    }
    throw new Error(`no matching event within ${timeoutMs} ms`);
  }
}
