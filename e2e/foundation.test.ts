/**
 * The foundation, end to end: every service as its own process, driven through the gateway
 * the way an existing client does it (HTTP Basic, multipart and form bodies, query strings).
 */
import { FEATURE_LEVEL } from '@chat/contracts';
import { SYSTEM_BOTS } from '@chat/realm';
import { seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';

let env: TestEnv;
let realm: SeededRealm;
let cluster: Cluster;
let denmark: number;

type Body = Record<string, any>;

function call(method: string, path: string, user: SeededUser | null, params: Record<string, unknown> = {}, multipart = false, userAgent?: string): Promise<{ status: number; body: Body }> {
  const headers: Record<string, string> = {};
  if (userAgent) headers['user-agent'] = userAgent;
  if (user) headers.authorization = `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`;
  const encoded = Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string]);
  let url = `${cluster.url}/api/v1${path}`;
  let body: FormData | URLSearchParams | undefined;
  if (method === 'GET') {
    if (encoded.length) url += `?${new URLSearchParams(encoded)}`;
  } else if (multipart) {
    body = new FormData();
    for (const [k, v] of encoded) body.append(k, v);
  } else {
    body = new URLSearchParams(encoded);
  }
  return fetch(url, { method, headers, body }).then(async (res) => ({ status: res.status, body: (await res.json()) as Body }));
}

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  cluster = await startCluster(env, { env: { EVENTS_HEARTBEAT_SECONDS: '1' } });
  const created = await call('POST', '/users/me/subscriptions', realm.owner, {
    subscriptions: [{ name: 'Denmark', description: 'Something is rotten' }],
    principals: [realm.owner.id, realm.member.id, realm.member2.id, realm.admin.id],
  });
  expect(created.body).toMatchObject({ result: 'success' });
  const id = await call('GET', '/get_stream_id', realm.member, { stream: 'Denmark' });
  denmark = id.body.stream_id;
}, 180000);

afterAll(async () => {
  await cluster?.stop();
  await env?.close();
});

it('serves server settings without authentication', async () => {
  const { status, body } = await call('GET', '/server_settings', null);
  expect(status).toBe(200);
  for (const field of [
    'authentication_methods', 'external_authentication_methods', 'svc_feature_level', 'svc_version', 'svc_merge_base',
    'push_notifications_enabled', 'is_incompatible', 'email_auth_enabled', 'require_email_format_usernames',
    'realm_url', 'realm_uri', 'realm_name', 'realm_icon', 'realm_description', 'realm_web_public_access_enabled',
  ]) {
    expect(body).toHaveProperty(field);
  }
  expect(body.svc_feature_level).toBe(FEATURE_LEVEL);
  expect(body.realm_name).toBe('Test Organization');
});

it('refuses requests without valid credentials and unknown paths', async () => {
  expect((await call('GET', '/messages', null)).status).toBe(401);
  const unknown = await call('GET', '/definitely/not/here', realm.member);
  expect(unknown.status).toBe(404);
  expect(unknown.body).toMatchObject({ result: 'error', code: 'NOT_FOUND' });
});

describe('sending and fetching', () => {
  const sent: number[] = [];

  it('sends to a channel by name and by id with a topic (multipart bodies), and a direct message', async () => {
    const byName = await call('POST', '/messages', realm.member, { type: 'stream', to: 'Denmark', topic: 'castle', content: 'first' }, true);
    expect(byName.body).toMatchObject({ result: 'success', id: expect.any(Number) });
    const byId = await call('POST', '/messages', realm.member, { type: 'channel', to: String(denmark), topic: 'castle', content: 'second' }, true);
    expect(byId.body.result).toBe('success');
    const direct = await call('POST', '/messages', realm.member, { type: 'direct', to: [realm.member2.id], content: 'psst' }, true);
    expect(direct.body.result).toBe('success');
    sent.push(byName.body.id, byId.body.id, direct.body.id);
    const missing = await call('POST', '/messages', realm.member, { type: 'stream', to: 'Elsinore', topic: 't', content: 'x' });
    expect(missing.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream: 'Elsinore' });
  });

  it('fetches with anchors newest, oldest and an id', async () => {
    // Narrowed to the sender: a welcome message the onboarding consumer sends the seeded people
    // may land among these, depending on when its consumer group was created at start-up.
    const narrow = [{ operator: 'sender', operand: realm.member.email }];
    const newest = await call('GET', '/messages', realm.member2, { anchor: 'newest', num_before: 10, num_after: 0, narrow });
    expect(newest.body.messages.map((m: Body) => m.id)).toEqual(sent);
    expect(newest.body).toMatchObject({ found_newest: true, found_oldest: true });
    // Anything else member2 has is from the server's own bots, never a second copy of these.
    const everything = await call('GET', '/messages', realm.member2, { anchor: 'newest', num_before: 20, num_after: 0 });
    const others = everything.body.messages.filter((m: Body) => !sent.includes(m.id));
    expect(others.map((m: Body) => m.sender_email.split('@')[0])).toEqual(others.map(() => SYSTEM_BOTS.welcome.local));
    expect(everything.body.messages.filter((m: Body) => sent.includes(m.id)).map((m: Body) => m.id)).toEqual(sent);
    const oldest = await call('GET', '/messages', realm.member2, { anchor: 'oldest', num_before: 0, num_after: 1, narrow });
    expect(oldest.body.messages.map((m: Body) => m.id)).toEqual([sent[0]]);
    const around = await call('GET', '/messages', realm.member2, { anchor: String(sent[1]), num_before: 1, num_after: 1, narrow });
    expect(around.body.messages.map((m: Body) => m.id)).toEqual(sent);
    expect(around.body.found_anchor).toBe(true);
    const [first] = newest.body.messages;
    expect(first).toMatchObject({ subject: 'castle', display_recipient: 'Denmark', sender_id: realm.member.id, content: '<p>first</p>' });
  });
});

describe('event queues', () => {
  it('delivers a message event, with local_message_id only to the sender\'s queue', async () => {
    const mine = await call('POST', '/register', realm.member, { event_types: ['message'] });
    const theirs = await call('POST', '/register', realm.member2, { event_types: ['message'] });
    expect(mine.body).toMatchObject({ result: 'success', queue_id: expect.any(String), last_event_id: -1 });
    const sent = await call('POST', '/messages', realm.member, {
      type: 'stream', to: 'Denmark', topic: 'ghost', content: 'who is there', queue_id: mine.body.queue_id, local_id: '17.01',
    }, true);
    const poll = (q: Body, user: SeededUser) => call('GET', '/events', user, { queue_id: q.body.queue_id, last_event_id: -1 });
    const [a, b] = await Promise.all([poll(mine, realm.member), poll(theirs, realm.member2)]);
    const own = a.body.events.find((e: Body) => e.type === 'message');
    const other = b.body.events.find((e: Body) => e.type === 'message');
    expect(own.message.id).toBe(sent.body.id);
    expect(own.local_message_id).toBe('17.01');
    expect(other.message.id).toBe(sent.body.id);
    expect(other.local_message_id).toBeUndefined();
  });

  it('answers a silent blocking poll with a heartbeat', async () => {
    const q = await call('POST', '/register', realm.admin, { event_types: ['message'] });
    const res = await call('GET', '/events', realm.admin, { queue_id: q.body.queue_id, last_event_id: -1 });
    expect(res.body.events).toEqual([{ type: 'heartbeat', id: expect.any(Number) }]);
  });

  it('answers BAD_EVENT_QUEUE_ID for an unknown queue', async () => {
    const res = await call('GET', '/events', realm.member, { queue_id: '1:nope', last_event_id: -1 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_EVENT_QUEUE_ID' });
  });
});

describe('the family dialect', () => {
  const TERMINAL = 'ZulipTerminal/0.7.0 Linux';

  it('names the extra emoji zulip_extra_emoji for the family\'s clients and svc_extra_emoji for others', async () => {
    const q = await call('POST', '/register', realm.member2, { event_types: ['reaction'] });
    const sent = await call('POST', '/messages', realm.member, { type: 'stream', to: 'Denmark', topic: 'dialect', content: 'react' });
    const id = sent.body.id;
    // Input in either dialect is accepted.
    const added = await call('POST', `/messages/${id}/reactions`, realm.member, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' }, false, TERMINAL);
    expect(added.body).toMatchObject({ result: 'success' });
    const typeIn = (b: Body) => b.message.reactions.map((r: Body) => r.reaction_type);
    expect(typeIn((await call('GET', `/messages/${id}`, realm.member2, {}, false, TERMINAL)).body)).toEqual(['zulip_extra_emoji']);
    expect(typeIn((await call('GET', `/messages/${id}`, realm.member2)).body)).toEqual(['svc_extra_emoji']);
    // The Python bindings' form, for a bot's name (no version) and for any name a script passes.
    for (const ua of ['ZulipHelloworldBot (Debian GNU/Linux; 12)', 'deploy-script (Linux; 6.1.0-18-amd64)']) {
      expect([ua, typeIn((await call('GET', `/messages/${id}`, realm.member2, {}, false, ua)).body)]).toEqual([ua, ['zulip_extra_emoji']]);
    }
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
    expect(typeIn((await call('GET', `/messages/${id}`, realm.member2, {}, false, browser)).body)).toEqual(['svc_extra_emoji']);
    const poll = (ua?: string) => call('GET', '/events', realm.member2, { queue_id: q.body.queue_id, last_event_id: -1, dont_block: true }, false, ua);
    const reactionType = (b: Body) => b.events?.find((e: Body) => e.type === 'reaction')?.reaction_type;
    let family: Body = {};
    for (let i = 0; i < 50 && !reactionType(family); i++) {
      family = (await poll(TERMINAL)).body;
      if (!reactionType(family)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(reactionType(family)).toBe('zulip_extra_emoji');
    expect(reactionType((await poll()).body)).toBe('svc_extra_emoji');
    expect(reactionType((await poll('ZulipHelloworldBot (Debian GNU/Linux; 12)')).body)).toBe('zulip_extra_emoji');
  });
});
