import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { start, type EventsHandle } from '../app';
import { register } from './support';

let env: TestEnv;
let realm: SeededRealm;
let service: EventsHandle;
let denmark: number;
let secret: number;

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  service = await start({ ...env.env, STREAM_PARTITIONS: '2' });
  const mk = (name: string, inviteOnly: boolean) =>
    env.db.stream.create({ data: { realmId: realm.realmId, name, nameKey: name.toLowerCase(), inviteOnly, isWebPublic: name === 'Denmark' } });
  denmark = (await mk('Denmark', false)).id;
  secret = (await mk('Secret', true)).id;
  await env.db.subscription.createMany({
    data: [
      { userId: realm.member.id, streamId: denmark, color: '#76ce90' },
      { userId: realm.member2.id, streamId: denmark },
      { userId: realm.member.id, streamId: secret },
    ],
  });
});

afterAll(async () => {
  await service?.stop();
  await env?.close();
});

/** `null` registers anonymously. */
const reg = (params: Record<string, string>, user: SeededRealm['member'] | null = realm.member) =>
  register(service.url, realm.realmId, user ?? undefined, params);

describe('unauthenticated register', () => {
  it('is refused while the realm has no spectator access', async () => {
    const res = await reg({}, null);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
  });

  it('refuses client_gravatar and include_subscribers, and serves web-public state otherwise', async () => {
    await env.db.realm.update({ where: { id: realm.realmId }, data: { settings: { enable_spectator_access: true } } });
    const gravatar = await reg({ client_gravatar: 'true' }, null);
    expect(gravatar.status).toBe(400);
    expect(gravatar.body).toMatchObject({ code: 'BAD_REQUEST', msg: "Invalid 'client_gravatar' parameter for anonymous request" });
    for (const value of ['true', 'partial']) {
      const subs = await reg({ include_subscribers: value }, null);
      expect(subs.body).toMatchObject({ code: 'BAD_REQUEST', msg: "Invalid 'include_subscribers' parameter for anonymous request" });
    }
    const ok = await reg({ client_gravatar: 'false' }, null);
    expect(ok.status).toBe(200);
    expect(ok.body.queue_id).toBeNull();
    expect(ok.body.subscriptions).toEqual([]);
    expect((ok.body.never_subscribed as Array<{ name: string }>).map((s) => s.name)).toEqual(['Denmark']);
    await env.db.realm.update({ where: { id: realm.realmId }, data: { settings: {} } });
  });
});

describe('include_subscribers', () => {
  const denmarkOf = (body: { subscriptions: Array<Record<string, unknown>> }) => body.subscriptions.find((s) => s.name === 'Denmark')!;

  it('leaves subscriber lists out by default and with false', async () => {
    for (const params of [{}, { include_subscribers: 'false' }] as Array<Record<string, string>>) {
      const sub = denmarkOf((await reg(params)).body);
      expect(sub).not.toHaveProperty('subscribers');
      expect(sub).not.toHaveProperty('partial_subscribers');
    }
  });

  it('sends full lists with true, and with partial for channels under 250 subscribers', async () => {
    for (const value of ['true', 'partial', '"partial"']) {
      const sub = denmarkOf((await reg({ include_subscribers: value })).body);
      expect(sub.subscribers).toEqual([realm.member.id, realm.member2.id].sort((a, b) => a - b));
    }
  });

  it('sends partial_subscribers (bots and recent senders) instead for channels of 250 or more', async () => {
    const big = await env.db.stream.create({ data: { realmId: realm.realmId, name: 'Big', nameKey: 'big' } });
    await env.db.user.createMany({
      data: Array.from({ length: 250 }, (_, i) => ({
        realmId: realm.realmId, email: `crowd${i}@chat.test`, deliveryEmail: `crowd${i}@chat.test`, fullName: `Crowd ${i}`, apiKey: `crowd-key-${i}-${realm.realmId}`,
      })),
    });
    const crowd = await env.db.user.findMany({ where: { realmId: realm.realmId, email: { startsWith: 'crowd' } } });
    const members = [...crowd.map((u) => u.id), realm.member.id, realm.bot.id];
    await env.db.subscription.createMany({ data: members.map((userId) => ({ userId, streamId: big.id })) });
    await env.db.message.create({ data: { realmId: realm.realmId, senderId: crowd[0]!.id, recipientType: 'stream', streamId: big.id, topic: 't', content: 'x', renderedContent: '<p>x</p>' } });
    const bigOf = (body: { subscriptions: Array<Record<string, unknown>> }) => body.subscriptions.find((s) => s.name === 'Big')!;
    const partial = bigOf((await reg({ include_subscribers: 'partial' })).body);
    expect(partial).not.toHaveProperty('subscribers');
    expect(partial.partial_subscribers).toEqual([crowd[0]!.id, realm.bot.id].sort((a, b) => a - b));
    const full = bigOf((await reg({ include_subscribers: 'true' })).body);
    expect((full.subscribers as number[]).length).toBe(252);
    expect(full).not.toHaveProperty('partial_subscribers');
  });

  it('rejects other values', async () => {
    const res = await reg({ include_subscribers: 'maybe' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BAD_REQUEST');
  });
});

it('gives every field of the subscription object', async () => {
  const sub = (await reg({ fetch_event_types: JSON.stringify(['subscription']) })).body.subscriptions.find(
    (s: { stream_id: number }) => s.stream_id === denmark,
  );
  for (const field of [
    'stream_id', 'name', 'description', 'rendered_description', 'date_created', 'creator_id', 'invite_only',
    'desktop_notifications', 'email_notifications', 'wildcard_mentions_notify', 'push_notifications',
    'audible_notifications', 'pin_to_top', 'is_muted', 'in_home_view', 'is_announcement_only', 'is_web_public',
    'color', 'stream_post_policy', 'message_retention_days', 'history_public_to_subscribers', 'first_message_id',
    'folder_id', 'topics_policy', 'is_recently_active', 'stream_weekly_traffic', 'can_add_subscribers_group',
    'can_remove_subscribers_group',
  ]) {
    expect(sub).toHaveProperty(field);
  }
  expect(sub).toMatchObject({ name: 'Denmark', color: '#76ce90', is_muted: false, in_home_view: true, invite_only: false, desktop_notifications: false });
  expect(typeof sub.can_add_subscribers_group).toBe('number');
  const nullable = (await reg({ client_capabilities: JSON.stringify({ notification_settings_null: true }) })).body.subscriptions;
  expect(nullable.find((s: { stream_id: number }) => s.stream_id === denmark).desktop_notifications).toBeNull();
});

it('keeps private channels from those outside them', async () => {
  const body = (await reg({ include_subscribers: 'true' }, realm.member2)).body;
  const seen = [...body.subscriptions, ...body.unsubscribed, ...body.never_subscribed].map((s: { name: string }) => s.name);
  // Big (a public channel of the partial_subscribers case) is visible to everyone; Secret is not.
  expect(seen).not.toContain('Secret');
  expect(seen).toContain('Denmark');
  const admin = (await reg({ include_subscribers: 'true' }, realm.admin)).body;
  const secretForAdmin = admin.never_subscribed.find((s: { name: string }) => s.name === 'Secret');
  expect(secretForAdmin.subscribers).toEqual([realm.member.id]);
});

describe('fetch_event_types', () => {
  it('defaults to event_types, and to everything without either', async () => {
    const all = (await reg({})).body;
    for (const key of ['realm_users', 'subscriptions', 'user_settings', 'realm_user_groups', 'recent_private_conversations', 'navigation_views', 'saved_snippets', 'realm_linkifiers', 'presences']) {
      expect(all).toHaveProperty(key);
    }
    const onlyMessages = (await reg({ event_types: JSON.stringify(['message']) })).body;
    expect(onlyMessages).toHaveProperty('max_message_id');
    expect(onlyMessages).not.toHaveProperty('realm_users');
    expect(onlyMessages).not.toHaveProperty('subscriptions');
    const chosen = (await reg({ event_types: JSON.stringify(['message']), fetch_event_types: JSON.stringify(['subscription', 'navigation_views', 'saved_snippets', 'recent_private_conversations']) })).body;
    expect(Object.keys(chosen)).toEqual(expect.arrayContaining(['subscriptions', 'navigation_views', 'saved_snippets', 'recent_private_conversations']));
    expect(chosen).not.toHaveProperty('max_message_id');
    expect(chosen.max_message_length).toBe(10000);
  });

  it('rejects lists that are not lists of strings', async () => {
    const res = await reg({ event_types: '["message", 3]' });
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect((await reg({ event_types: 'not json' })).body.code).toBe('INVALID_JSON');
  });
});

describe('idle_queue_timeout', () => {
  it('defaults to 600 seconds and sets the queue lifetime', async () => {
    expect((await reg({})).body.idle_queue_timeout_secs).toBe(600);
    const short = await reg({ idle_queue_timeout: '30' });
    expect(short.body.idle_queue_timeout_secs).toBe(30);
    const ttl = await env.redis.pttl(`${env.prefix}{q:${short.body.queue_id}}:meta`);
    expect(ttl).toBeGreaterThan(25000);
    expect(ttl).toBeLessThanOrEqual(30000);
  });

  it('accepts at most 7 days and at least 1 second', async () => {
    expect((await reg({ idle_queue_timeout: String(7 * 86400) })).body.idle_queue_timeout_secs).toBe(7 * 86400);
    for (const bad of [String(7 * 86400 + 1), '-5', 'soon']) {
      const res = await reg({ idle_queue_timeout: bad });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', var_name: 'idle_queue_timeout' });
    }
  });
});

it('reports unsupported parameters and refuses all_public_streams to guests', async () => {
  const res = await reg({ slim_presence: 'true', presence_history_limit_days: '3', frobnicate: '1' });
  expect(res.body.ignored_parameters_unsupported).toEqual(['frobnicate']);
  const guest = await reg({ all_public_streams: 'true' }, realm.guest);
  expect(guest.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'User not authorized for this query' });
});

it('rejects malformed client_capabilities and narrows', async () => {
  expect((await reg({ client_capabilities: '{"bulk_message_deletion": "yes"}' })).body.code).toBe('BAD_REQUEST');
  expect((await reg({ narrow: '[["stream"]]' })).body.code).toBe('BAD_REQUEST');
  expect((await reg({ narrow: '[{"operator": "stream", "operand": "Denmark"}]' })).status).toBe(200);
});

describe('guests and web-public channels', () => {
  it('shows a guest web-public channels (with their subscribers) but no other public channel it is not in', async () => {
    const ordinary = await env.db.stream.create({ data: { realmId: realm.realmId, name: 'Ordinary', nameKey: 'ordinary' } });
    const body = (await reg({ include_subscribers: 'true', fetch_event_types: JSON.stringify(['subscription', 'stream']) }, realm.guest)).body;
    expect(body.subscriptions).toEqual([]);
    const never = body.never_subscribed.map((s: { stream_id: number }) => s.stream_id);
    expect(never).toContain(denmark);
    expect(never).not.toContain(ordinary.id);
    expect(never).not.toContain(secret);
    expect(body.never_subscribed.find((s: { stream_id: number }) => s.stream_id === denmark).subscribers).toEqual([realm.member.id, realm.member2.id].sort((a, b) => a - b));
    expect(body.streams.map((s: { stream_id: number }) => s.stream_id)).toEqual([denmark]);
    const member = (await reg({ fetch_event_types: JSON.stringify(['subscription']) })).body;
    expect(member.never_subscribed.map((s: { stream_id: number }) => s.stream_id)).toContain(ordinary.id);
  });
});
