/**
 * The family's terminal client, Python bindings and zulip-js, end to end through the gateway:
 * what each reads from the server and the calls each makes, as they make them. zulip-js is
 * the published package itself (pinned in e2e/package.json), driven against the cluster.
 */
import { Contract, TERMINAL_UA, type Body } from './lib/contract';
import { maybe } from './lib/pending';

// zulip-js is CommonJS without types: a factory taking { realm, username, apiKey }.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const zulipInit = require('zulip-js') as (config: Record<string, string>) => Promise<any>;

const c = new Contract();
beforeAll(() => c.start(), 180000);
afterAll(() => c.stop());

describe('terminal client (ZulipTerminal)', () => {
  let initial: Body;
  beforeAll(async () => {
    // What the client asks for at start (model.py initial_data_to_fetch), with client_gravatar.
    initial = await c.register('member', {
      fetch_event_types: ['realm', 'presence', 'subscription', 'message', 'starred_messages', 'update_message_flags', 'muted_topics',
        'realm_user', 'realm_user_groups', 'user_settings', 'realm_emoji', 'custom_profile_fields', 'zulip_version'],
      event_types: ['message', 'update_message', 'reaction', 'submessage', 'subscription', 'typing', 'update_message_flags',
        'user_settings', 'realm_emoji', 'realm_user'],
      client_gravatar: true,
      apply_markdown: true,
    }, TERMINAL_UA);
  });

  maybe('terminal: register zulip_version')('register has zulip_version', () => expect(typeof initial.zulip_version).toBe('string'));
  maybe('terminal: register zulip_feature_level')('register has zulip_feature_level', () => expect(Number.isInteger(initial.zulip_feature_level)).toBe(true));
  it('register has cross_realm_bots', () => expect(Array.isArray(initial.cross_realm_bots)).toBe(true));

  it('register has the realm and personal keys the client reads', () => {
    expect(initial).toMatchObject({
      realm_name: 'Test Organization',
      realm_allow_edit_history: expect.any(Boolean),
      realm_users: expect.any(Array), realm_user_groups: expect.any(Array), realm_emoji: expect.any(Object),
      subscriptions: expect.any(Array), presences: expect.any(Object), muted_topics: expect.any(Array),
      starred_messages: expect.any(Array), unread_msgs: expect.any(Object), custom_profile_fields: expect.any(Array),
      user_settings: expect.objectContaining({
        send_private_typing_notifications: expect.any(Boolean), twenty_four_hour_time: expect.any(Boolean),
        pm_content_in_desktop_notifications: expect.any(Boolean),
      }),
      user_id: c.user('member').id, email: c.user('member').email, full_name: c.user('member').fullName,
      max_stream_name_length: expect.any(Number), max_topic_length: expect.any(Number), max_message_length: expect.any(Number),
      server_presence_ping_interval_seconds: expect.any(Number), server_presence_offline_threshold_seconds: expect.any(Number),
    });
    // realm_edit_topic_policy is read with .get(), but must be an integer when present.
    if ('realm_edit_topic_policy' in initial) expect(Number.isInteger(initial.realm_edit_topic_policy)).toBe(true);
  });

  // Read with []: absent, the client stops at start with a KeyError.
  maybe('terminal: register realm_message_retention_days')('register has realm_message_retention_days', () => {
    expect('realm_message_retention_days' in initial).toBe(true);
    // A number of days, or -1 / null for "forever".
    expect(initial.realm_message_retention_days === null || Number.isInteger(initial.realm_message_retention_days)).toBe(true);
  });

  // realm_allow_message_editing is read with .get(): absent, the client refuses every edit.
  maybe('terminal: register message editing settings')('register has realm_allow_message_editing and realm_message_content_edit_limit_seconds', () => {
    expect(typeof initial.realm_allow_message_editing).toBe('boolean');
    // null means no limit; messages.py compares it with 0.
    expect('realm_message_content_edit_limit_seconds' in initial).toBe(true);
    expect(initial.realm_message_content_edit_limit_seconds === null || Number.isInteger(initial.realm_message_content_edit_limit_seconds)).toBe(true);
  });

  it('subscriptions carry the name, stream_id, color and message_retention_days the client reads', () => {
    const verona = initial.subscriptions.find((s: Body) => s.stream_id === c.channelId);
    expect(verona).toMatchObject({ name: c.channelName, color: expect.stringMatching(/^#[0-9a-f]{6}$/i), date_created: expect.any(Number), invite_only: false, pin_to_top: false });
    expect('message_retention_days' in verona).toBe(true);
  });

  maybe('terminal: + reaction thumbs_up')('its "+" key reacts thumbs_up (1f44d, unicode_emoji) and the reaction event carries what it matches on', async () => {
    const q = { queue_id: initial.queue_id, last_event_id: initial.last_event_id };
    const spec = { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' };
    const added = await c.call('POST', `/messages/${c.messageId}/reactions`, 'member', spec, { userAgent: TERMINAL_UA });
    expect(added.body).toMatchObject({ result: 'success' });
    const event = await c.waitFor('member', q, (e) => e.type === 'reaction' && e.op === 'add', TERMINAL_UA);
    expect(event).toMatchObject({ message_id: c.messageId, user_id: c.user('member').id, ...spec });
    const { message } = await c.ok('GET', `/messages/${c.messageId}`, 'member');
    expect(message.reactions).toEqual(expect.arrayContaining([expect.objectContaining({ ...spec, user_id: c.user('member').id })]));
    const removed = await c.call('DELETE', `/messages/${c.messageId}/reactions`, 'member', spec, { userAgent: TERMINAL_UA });
    expect(removed.body).toMatchObject({ result: 'success' });
    expect(await c.waitFor('member', q, (e) => e.type === 'reaction' && e.op === 'remove', TERMINAL_UA)).toMatchObject({ emoji_code: '1f44d' });
  });

  maybe('terminal: GET /streams/{id}/email_address')('GET /streams/{id}/email_address answers the channel\'s email', async () => {
    const res = await c.call('GET', `/streams/${c.channelId}/email_address`, 'member', {}, { userAgent: TERMINAL_UA });
    expect(res.body).toMatchObject({ result: 'success', email: expect.stringContaining('@') });
  });
});

describe('Python bindings', () => {
  maybe('python: server_settings zulip_version and zulip_feature_level')('GET /server_settings has zulip_version and zulip_feature_level', async () => {
    const { body } = await c.call('GET', '/server_settings', null, {}, { userAgent: 'ZulipPython/0.9.0' });
    expect(body).toMatchObject({ result: 'success', zulip_version: expect.any(String), zulip_feature_level: expect.any(Number) });
  });

  maybe('python: bot_storage round trip')('a bot stores, reads and removes its storage', async () => {
    const put = await c.ok('PUT', '/bot_storage', 'bot', { storage: { hamlet: 'prince', act: '3' } });
    expect(put.result).toBe('success');
    expect(await c.ok('GET', '/bot_storage', 'bot', { keys: ['hamlet'] })).toMatchObject({ storage: { hamlet: 'prince' } });
    await c.ok('DELETE', '/bot_storage', 'bot', { keys: ['hamlet'] });
    expect((await c.ok('GET', '/bot_storage', 'bot')).storage).toEqual({ act: '3' });
  });
});

describe('zulip-js', () => {
  let z: any;
  let z2: any;
  beforeAll(async () => {
    const member = c.user('member');
    z = await zulipInit({ realm: c.cluster.url, username: member.email, apiKey: member.apiKey });
    z2 = await zulipInit({ realm: `${c.cluster.url}/api`, username: c.user('member2').email, apiKey: c.user('member2').apiKey });
  });

  it('reads the server settings', async () => {
    expect(await z.server.settings()).toMatchObject({ result: 'success', realm_name: 'Test Organization' });
  });

  it('registers a queue and long-polls a channel message and a direct message', async () => {
    const q = await z2.queues.register({ event_types: ['message'] });
    expect(q).toMatchObject({ result: 'success', queue_id: expect.any(String) });
    const sent = await z.messages.send({ to: c.channelName, type: 'stream', topic: 'zulip-js', content: 'from **zulip-js**' });
    expect(sent).toMatchObject({ result: 'success', id: expect.any(Number) });
    const dm = await z.messages.send({ to: [c.user('member2').id], type: 'private', content: 'privately' });
    expect(dm.result).toBe('success');
    const seen: number[] = [];
    let last = q.last_event_id;
    while (seen.length < 2) {
      const res = await z2.events.retrieve({ queue_id: q.queue_id, last_event_id: last });
      expect(res.result).toBe('success');
      for (const e of res.events) {
        last = Math.max(last, e.id);
        if (e.type === 'message') seen.push(e.message.id);
      }
    }
    expect(seen).toEqual([sent.id, dm.id]);
    expect(await z2.queues.deregister({ queue_id: q.queue_id })).toMatchObject({ result: 'success' });
  });

  it('gets messages with a narrow', async () => {
    const res = await z.messages.retrieve({ anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'topic', operand: 'balcony' }] });
    expect(res.result).toBe('success');
    expect(res.messages.map((m: Body) => m.id)).toContain(c.messageId);
    expect((await z.messages.getById({ message_id: c.messageId })).message.content).toBe('<p>But soft, what light</p>');
  });

  it('adds and removes a reaction (DELETE with a query string)', async () => {
    const id = await c.send('member2', 'zulip-js', 'react to me');
    expect(await z.reactions.add({ message_id: id, emoji_name: 'octopus' })).toMatchObject({ result: 'success' });
    expect((await z.messages.getById({ message_id: id })).message.reactions).toEqual([expect.objectContaining({ emoji_name: 'octopus' })]);
    expect(await z.reactions.remove({ message_id: id, emoji_name: 'octopus' })).toMatchObject({ result: 'success' });
    expect((await z.messages.getById({ message_id: id })).message.reactions).toEqual([]);
  });

  it('edits a message (PATCH with a query string) and reads its edit history', async () => {
    const id = await c.send('member', 'zulip-js', 'first words');
    expect(await z.messages.update({ message_id: id, content: 'second words' })).toMatchObject({ result: 'success' });
    const history = await z.messages.getHistoryById({ message_id: id });
    expect(history.message_history.map((h: Body) => h.content)).toEqual(['first words', 'second words']);
  });

  it('subscribes, lists subscriptions and topics, and finds a channel id', async () => {
    expect(await z.users.me.subscriptions.add({ subscriptions: JSON.stringify([{ name: 'Mantua' }]) })).toMatchObject({ result: 'success' });
    const subs = await z.streams.subscriptions.retrieve();
    expect(subs.subscriptions.map((s: Body) => s.name)).toEqual(expect.arrayContaining(['Mantua', c.channelName]));
    expect(await z.streams.getStreamId('Mantua')).toMatchObject({ result: 'success', stream_id: expect.any(Number) });
    const topics = await z.streams.topics.retrieve({ stream_id: c.channelId });
    expect(topics.topics.map((t: Body) => t.name)).toContain('balcony');
  });

  it('lists users and reads its own profile', async () => {
    const users = await z.users.retrieve();
    expect(users.members.map((u: Body) => u.user_id)).toEqual(expect.arrayContaining([c.user('member').id, c.user('member2').id]));
    expect(await z.users.me.getProfile()).toMatchObject({ result: 'success', user_id: c.user('member').id });
  });

  it('sends typing notifications and renders markdown', async () => {
    expect(await z.typing.send({ to: [c.user('member2').id], op: 'start' })).toMatchObject({ result: 'success' });
    expect(await z.messages.render({ content: '**bold**' })).toMatchObject({ rendered: '<p><strong>bold</strong></p>' });
  });

  it('reaches any endpoint through callEndpoint (zulip-js has no upload call)', async () => {
    expect(await z.callEndpoint('/users/me/alert_words', 'GET')).toMatchObject({ result: 'success', alert_words: [] });
  });
});
