/**
 * The harness of the event-table tests: a cluster of real processes, a seeded realm, one event
 * queue per seeded user registered the way a current client registers (every capability
 * declared), plus `legacy`, a queue of the member that declares none, and the marker barrier
 * of event-queues.ts to tell who received what.
 */
import { seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import { client, EventQueue, only, receivers, type Event, type Received } from './event-queues';

export const PEOPLE = ['owner', 'admin', 'moderator', 'member', 'member2', 'guest', 'bot'] as const;
export type Person = (typeof PEOPLE)[number];
export const EVERYONE: Person[] = [...PEOPLE].sort();
export const NOT = (...who: Person[]): Person[] => EVERYONE.filter((n) => !who.includes(n));

export const CAPABILITIES = {
  notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: false,
  stream_typing_notifications: true, user_settings_object: true, linkifier_url_template: true,
  user_list_incomplete: true, include_deactivated_groups: true, archived_channels: true, empty_topic_name: true,
  simplified_presence_events: true, individual_emoji_changes: true,
};

/** A 16 px PNG, for avatars, emoji and icons. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAGUlEQVQokWMwTvtPEmIY1ZA2GkrGwzVpAAAboJgQNBzlkgAAAABJRU5ErkJggg==',
  'base64',
);

export const isType = (type: string, op?: string) => (e: Event) => e.type === type && (op === undefined || e.op === op);
export const sorted = (...ids: number[]) => [...ids].sort((a, b) => a - b);

export class EventTable {
  env!: TestEnv;
  realm!: SeededRealm;
  cluster!: Cluster;
  readonly call = client(() => this.cluster.url);
  readonly queues = new Map<string, EventQueue>();
  private markers = 0;

  async start(): Promise<void> {
    this.env = await setupTestEnv();
    this.realm = await seedRealm(this.env.db);
    this.cluster = await startCluster(this.env, { env: { EVENTS_HEARTBEAT_SECONDS: '1' } });
    const base = { apply_markdown: 'true', client_gravatar: 'false', fetch_event_types: [] };
    for (const name of PEOPLE) {
      const q = new EventQueue(name, this.user(name));
      await q.register(this.call, { ...base, client_capabilities: CAPABILITIES });
      this.queues.set(name, q);
    }
    const legacy = new EventQueue('legacy', this.user('member'));
    await legacy.register(this.call, base);
    this.queues.set('legacy', legacy);
    // Events of the seeding (users created before the queues) may still be on their way.
    await this.after(async () => undefined);
  }

  async stop(): Promise<void> {
    await this.cluster?.stop();
    await this.env?.close();
  }

  user(name: Person): SeededUser {
    return this.realm[name];
  }

  idOf(name: Person): number {
    return this.realm[name].id;
  }

  /** Calls the API as `who` and returns the body, throwing on any error envelope. */
  async ok(method: string, path: string, who: Person, params: Record<string, unknown> = {}, opts = {}) {
    const res = await this.call(method, path, this.user(who), params, opts);
    if (res.body.result !== 'success') throw new Error(`${method} ${path} as ${who}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** Runs `change`, then waits behind a marker until every queue holds everything it will get. */
  async after(change: () => Promise<unknown>): Promise<Received> {
    await change();
    const marker = `marker ${++this.markers}`;
    await this.ok('PATCH', '/realm', 'owner', { description: marker });
    const isMarker = (e: Event) => e.type === 'realm' && e.property === 'description' && e.value === marker;
    const got: Received = {};
    await Promise.all([...this.queues].map(async ([name, q]) => void (got[name] = await q.readUntil(this.call, isMarker, 15000))));
    return got;
  }

  /** Asserts that exactly `who` (each once) got an event matching `match`; returns those events. */
  expectTo(got: Received, who: readonly Person[], match: (e: Event) => boolean): Record<string, Event> {
    expect(receivers(got, PEOPLE, match)).toEqual([...who].sort());
    return Object.fromEntries(who.map((n) => [n, only(got, n, match)]));
  }

  /** Who of the seeded users received matching events (names repeated per event). */
  receivers(got: Received, match: (e: Event) => boolean): string[] {
    return receivers(got, PEOPLE, match);
  }
}

export { only, type Event, type Received };
export { EventQueue } from './event-queues';
