/**
 * Events against register, the way the family's server tests its event system: after each
 * change made through the API, the events a client received, applied to the state of its
 * earlier POST /register (lib/event-replay.ts, as clients apply them), must give the state a
 * fresh POST /register returns; and every event must match the family's OpenAPI schema of its
 * type (lib/openapi.ts eventErrors). Two viewers: a member and an administrator, who see
 * different things of the same change.
 */
import { seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import { ROLE, TOPIC_VISIBILITY } from '@chat/contracts';
import { client, type Body, type Event } from './lib/event-queues';
import { CAPABILITIES } from './lib/event-table';
import { comparable, replay, REPLAYED_EVENT_TYPES, type State } from './lib/event-replay';
import { eventErrors } from './lib/openapi';

type Person = 'owner' | 'admin' | 'member' | 'member2';
const VIEWERS = ['member', 'admin'] as const;

const REGISTER = {
  apply_markdown: 'true',
  client_gravatar: 'false',
  include_subscribers: 'false',
  client_capabilities: CAPABILITIES,
  event_types: [...REPLAYED_EVENT_TYPES, 'update_message', 'delete_message', 'reaction'],
  fetch_event_types: REPLAYED_EVENT_TYPES,
};

const viewerOf = (user: SeededUser) => ({ userId: user.id, includeSubscribers: false });

/** One viewer's register state and the queue that keeps it current. */
interface View {
  user: SeededUser;
  state: State;
  queueId: string;
  lastEventId: number;
}

let env: TestEnv;
let realm: SeededRealm;
let cluster: Cluster;
const call = client(() => cluster.url);
const views = new Map<string, View>();
let markers = 0;
let verona = 0;
let mantua = 0;

async function ok(method: string, path: string, who: Person, params: Record<string, unknown> = {}): Promise<Body> {
  const res = await call(method, path, realm[who], params);
  if (res.body.result !== 'success') throw new Error(`${method} ${path} as ${who}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function register(user: SeededUser): Promise<View> {
  const res = await call('POST', '/register', user, REGISTER);
  if (res.body.result !== 'success') throw new Error(`register failed: ${JSON.stringify(res.body)}`);
  return { user, state: res.body, queueId: res.body.queue_id, lastEventId: res.body.last_event_id };
}

/** Every event of `view`'s queue up to and including the realm description `marker`. */
async function readThrough(view: View, marker: string): Promise<Event[]> {
  const out: Event[] = [];
  const deadline = Date.now() + 15000;
  for (;;) {
    const res = await call('GET', '/events', view.user, { queue_id: view.queueId, last_event_id: String(view.lastEventId), dont_block: 'true' });
    if (res.body.result !== 'success') throw new Error(`GET /events failed: ${JSON.stringify(res.body)}`);
    for (const e of res.body.events as Event[]) {
      view.lastEventId = e.id;
      if (e.type === 'heartbeat') continue;
      out.push(e);
      if (e.type === 'realm' && e.property === 'description' && e.value === marker) return out;
    }
    if (Date.now() > deadline) throw new Error(`the marker never arrived; got ${JSON.stringify(out.map((e) => e.type))}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/**
 * Makes `change`, then for each viewer: reads every event up to a realm-wide marker (a realm's
 * events travel in order, so everything the change caused is before it), checks each against
 * the OpenAPI file, replays them onto the viewer's register state and compares the result with
 * a fresh register, which becomes the next step's starting point. Returns what each viewer got.
 */
async function step(change: () => Promise<unknown>): Promise<Record<string, { before: State; events: Event[]; fresh: State }>> {
  await change();
  const marker = `marker ${++markers}`;
  await ok('PATCH', '/realm', 'owner', { description: marker });
  const out: Record<string, { before: State; events: Event[]; fresh: State }> = {};
  for (const name of VIEWERS) {
    const view = views.get(name)!;
    const events = await readThrough(view, marker);
    const fresh = await register(view.user);
    // The next step starts from the fresh state, whatever this one finds.
    views.set(name, fresh);
    out[name] = { before: view.state, events, fresh: fresh.state };
  }
  for (const name of VIEWERS) {
    const { before, events, fresh } = out[name]!;
    for (const e of events) expect({ viewer: name, event: e, errors: eventErrors(e) }).toEqual({ viewer: name, event: e, errors: [] });
    expect({ viewer: name, state: comparable(replay(before, events, viewerOf(realm[name]))) }).toEqual({ viewer: name, state: comparable(fresh) });
  }
  return out;
}

const send = async (who: Person, topic: string, content: string): Promise<number> =>
  (await ok('POST', '/messages', who, { type: 'stream', to: 'Verona', topic, content })).id;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  cluster = await startCluster(env, { env: { EVENTS_HEARTBEAT_SECONDS: '2' } });
  const ids = (who: Person[]) => who.map((p) => realm[p].id);
  await ok('POST', '/users/me/subscriptions', 'owner', { subscriptions: [{ name: 'Verona' }], principals: ids(['owner', 'admin', 'member', 'member2']) });
  await ok('POST', '/users/me/subscriptions', 'owner', { subscriptions: [{ name: 'Mantua' }], principals: ids(['owner', 'admin']) });
  verona = (await ok('GET', '/get_stream_id', 'member', { stream: 'Verona' })).stream_id;
  mantua = (await ok('GET', '/get_stream_id', 'member', { stream: 'Mantua' })).stream_id;
  await send('member2', 'balcony', 'But soft');
  for (const name of VIEWERS) views.set(name, await register(realm[name]));
  // Whatever the setup still has on its way is replayed by a first step.
  await step(async () => undefined);
}, 180000);

afterAll(async () => {
  await cluster?.stop();
  await env?.close();
});

describe('events replayed onto register give a fresh register', () => {
  it('messages: send, edit, reactions, delete', async () => {
    let first = 0;
    let second = 0;
    const sent = await step(async () => {
      first = await send('member', 'balcony', 'What light');
      second = await send('member2', 'balcony', 'through yonder window');
    });
    expect(sent.member!.fresh.max_message_id).toBe(second);
    await step(() => ok('PATCH', `/messages/${first}`, 'member', { content: 'What light breaks' }));
    await step(() => ok('POST', `/messages/${second}/reactions`, 'member', { emoji_name: 'heart' }));
    await step(() => ok('DELETE', `/messages/${second}/reactions`, 'member', { emoji_name: 'heart' }));
    // The older one: deleting the newest message is a state change no event describes.
    await step(() => ok('DELETE', `/messages/${first}`, 'admin'));
  });

  it('subscriptions: add, property update, remove', async () => {
    const added = await step(() => ok('POST', '/users/me/subscriptions', 'member', { subscriptions: [{ name: 'Mantua' }] }));
    expect(added.admin!.events.some((e) => e.type === 'subscription' && e.op === 'peer_add')).toBe(true);
    const updated = await step(() =>
      ok('POST', '/users/me/subscriptions/properties', 'member', {
        subscription_data: [
          { stream_id: mantua, property: 'color', value: '#c2c2c2' },
          { stream_id: mantua, property: 'pin_to_top', value: true },
          { stream_id: verona, property: 'is_muted', value: true },
        ],
      }),
    );
    // The comparison can fail: the same events without the color change give another state.
    const { before, events, fresh } = updated.member!;
    const withoutColor = events.filter((e) => !(e.type === 'subscription' && e.property === 'color'));
    expect(withoutColor.length).toBe(events.length - 1);
    expect(comparable(replay(before, withoutColor, viewerOf(realm.member)))).not.toEqual(comparable(fresh));
    await step(() => ok('DELETE', '/users/me/subscriptions', 'member', { subscriptions: ['Mantua'] }));
  });

  it('topic visibility: followed, muted, back to inherit', async () => {
    const policy = (visibility_policy: number) => () => ok('POST', '/user_topics', 'member', { stream_id: verona, topic: 'balcony', visibility_policy });
    const followed = await step(policy(TOPIC_VISIBILITY.FOLLOWED));
    expect(followed.member!.fresh.user_topics).toEqual([expect.objectContaining({ stream_id: verona, topic_name: 'balcony', visibility_policy: TOPIC_VISIBILITY.FOLLOWED })]);
    await step(policy(TOPIC_VISIBILITY.MUTED));
    await step(policy(TOPIC_VISIBILITY.INHERIT));
  });

  it('people: full name and role', async () => {
    await step(() => ok('PATCH', `/users/${realm.member2.id}`, 'admin', { full_name: 'Juliet Capulet' }));
    const promoted = await step(() => ok('PATCH', `/users/${realm.member2.id}`, 'owner', { role: ROLE.MODERATOR }));
    expect(promoted.member!.events.some((e) => e.type === 'user_group' && e.op === 'add_members')).toBe(true);
    await step(() => ok('PATCH', `/users/${realm.member2.id}`, 'owner', { role: ROLE.MEMBER }));
  });

  it('organization: settings and custom profile fields', async () => {
    await step(() => ok('PATCH', '/realm', 'owner', { name: 'Fair Verona' }));
    await step(() => ok('POST', '/realm/profile_fields', 'admin', { name: 'House', field_type: 1, hint: 'Montague or Capulet' }));
  });

  it('user groups: create, add and remove members', async () => {
    let groupId = 0;
    await step(async () => {
      groupId = (await ok('POST', '/user_groups/create', 'admin', { name: 'Capulets', description: 'The house', members: [realm.member2.id] })).group_id;
    });
    await step(() => ok('POST', `/user_groups/${groupId}/members`, 'admin', { add: [realm.member.id] }));
    await step(() => ok('POST', `/user_groups/${groupId}/members`, 'admin', { delete: [realm.member2.id] }));
  });
});
