import { flagBit, LIMITS } from '@chat/contracts';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let denmark: number;

beforeAll(async () => {
  // Small thresholds so the seeded realm's channels count as large.
  h = await startHarness({ WILDCARD_MENTION_LARGE_STREAM_THRESHOLD: '2', TOPIC_WILDCARD_MENTION_LARGE_THRESHOLD: '1' });
  const { owner, member, member2, admin } = h.realm;
  denmark = await h.createStream(owner, { name: 'Denmark' }, [owner, member, member2, admin]);
  await h.createStream(owner, { name: 'Quiet', topicsPolicy: 'disable_empty_topic' }, [owner, member]);
});
afterAll(() => h?.close());

const send = (body: Record<string, string>, user = h.realm.member) => h.api.post('/api/v1/messages').set(h.as(user)).type('form').send(body);

describe('POST /messages rules', () => {
  it('reads "(no topic)" and the empty-topic display name as the empty topic, refusing them where a topic is required', async () => {
    for (const topic of ['(no topic)', 'general chat', '']) {
      const res = await send({ type: 'stream', to: 'Denmark', topic, content: 'x' });
      expect(res.status).toBe(200);
      expect((await h.env.db.message.findUniqueOrThrow({ where: { id: res.body.id } })).topic).toBe('');
      const refused = await send({ type: 'stream', to: 'Quiet', topic, content: 'x' });
      expect(refused.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Sending messages to the general chat is not allowed in this channel.' });
    }
    expect((await send({ type: 'stream', to: 'Denmark', content: 'x' })).body.msg).toBe('Missing topic');
  });

  it('bounds content and topic length', async () => {
    const res = await send({ type: 'stream', to: 'Denmark', topic: 't'.repeat(100), content: 'y'.repeat(LIMITS.maxMessageLength + 50) });
    const m = await h.env.db.message.findUniqueOrThrow({ where: { id: res.body.id } });
    expect([...m.topic].length).toBe(LIMITS.maxTopicLength);
    expect(m.topic.endsWith('...')).toBe(true);
    expect(m.content.length).toBe(LIMITS.maxMessageLength);
    expect(m.content.endsWith('[message truncated]')).toBe(true);
  });

  it('refuses empty content, unknown types, and a queue_id without local_id', async () => {
    expect((await send({ type: 'stream', to: 'Denmark', topic: 't', content: '   ' })).body.msg).toBe('Message must not be empty');
    expect((await send({ type: 'email', to: 'Denmark', topic: 't', content: 'x' })).body.msg).toBe('Invalid type');
    const unpaired = await send({ type: 'stream', to: 'Denmark', topic: 't', content: 'x', queue_id: 'q' });
    expect(unpaired.body.code).toBe('BAD_REQUEST');
    const missing = await send({ type: 'stream', to: String(999999), topic: 't', content: 'x' });
    expect(missing.body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream_id: 999999 });
  });

  it('sets mention flags for the mentioned user only', async () => {
    const res = await send({ type: 'stream', to: 'Denmark', topic: 'mentions', content: 'hi @**Othello**' });
    const rows = await h.env.db.userMessage.findMany({ where: { messageId: res.body.id } });
    const mentioned = rows.filter((r) => (r.flags & flagBit('mentioned')) !== 0n).map((r) => r.userId);
    expect(mentioned).toEqual([h.realm.member2.id]);
    const event = (await outboxEvents(h.env, 'message')).find((e) => e.event.message.id === res.body.id)!;
    expect(event.user_flags[h.realm.member2.id]).toEqual(['mentioned']);
  });

  it('flags copies whose owner has an alert word in the message', async () => {
    // Alert words belong to the users area; the row is what its action would write.
    await h.env.db.alertWord.create({ data: { realmId: h.realm.realmId, userId: h.realm.member2.id, word: 'Poison' } });
    const res = await send({ type: 'stream', to: 'Denmark', topic: 'alerts', content: 'beware the poison, not poisoned' });
    const rows = await h.env.db.userMessage.findMany({ where: { messageId: res.body.id } });
    const alerted = rows.filter((r) => (r.flags & flagBit('has_alert_word')) !== 0n).map((r) => r.userId);
    expect(alerted).toEqual([h.realm.member2.id]);
    const found = await h.api.get('/api/v1/messages').set(h.as(h.realm.member2)).query({ anchor: 'newest', num_before: '5', narrow: JSON.stringify([['is', 'alerted']]) });
    expect(found.body.messages.map((m: { id: number }) => m.id)).toEqual([res.body.id]);
  });

  it('allows channel wildcard mentions in a large channel only to those permitted', async () => {
    const refused = await send({ type: 'stream', to: 'Denmark', topic: 'all', content: 'hey @**all**' });
    expect(refused.body).toEqual({
      result: 'error',
      code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      msg: 'You do not have permission to use channel wildcard mentions in this channel.',
    });
    const allowed = await send({ type: 'stream', to: 'Denmark', topic: 'all', content: 'hey @**all**' }, h.realm.admin);
    expect(allowed.status).toBe(200);
    const rows = await h.env.db.userMessage.findMany({ where: { messageId: allowed.body.id } });
    expect(rows.every((r) => (r.flags & flagBit('stream_wildcard_mentioned')) !== 0n)).toBe(true);
  });

  it('refuses topic wildcard mentions in a busy topic', async () => {
    await send({ type: 'stream', to: 'Denmark', topic: 'busy', content: 'one' }, h.realm.owner);
    await send({ type: 'stream', to: 'Denmark', topic: 'busy', content: 'two' }, h.realm.member2);
    const refused = await send({ type: 'stream', to: 'Denmark', topic: 'busy', content: '@**topic** look' });
    expect(refused.body.code).toBe('TOPIC_WILDCARD_MENTION_NOT_ALLOWED');
  });

  it('follows a topic the sender starts, with a user_topic event', async () => {
    const res = await send({ type: 'stream', to: String(denmark), topic: 'brand new', content: 'first!' });
    expect(res.body.automatic_new_visibility_policy).toBe(3);
    const event = (await outboxEvents(h.env, 'user_topic')).find((e) => e.event.topic_name === 'brand new')!;
    expect(event.users).toEqual([h.realm.member.id]);
    expect(event.event).toMatchObject({ stream_id: denmark, visibility_policy: 3 });
    const second = await send({ type: 'stream', to: String(denmark), topic: 'brand new', content: 'again' });
    expect(second.body.automatic_new_visibility_policy).toBeUndefined();
  });

  it('keeps guests out of channels they are not in, and sends a direct message to oneself', async () => {
    const guest = await send({ type: 'stream', to: 'Denmark', topic: 't', content: 'x' }, h.realm.guest);
    expect(guest.body.msg).toBe("Not authorized to send to channel 'Denmark'");
    const self = await send({ type: 'direct', to: JSON.stringify([h.realm.member.id]), content: 'note to self' });
    const rows = await h.env.db.userMessage.findMany({ where: { messageId: self.body.id } });
    expect(rows.map((r) => r.userId)).toEqual([h.realm.member.id]);
    const byEmails = await send({ type: 'private', to: `${h.realm.member2.email}, ${h.realm.owner.email}`, content: 'comma list' });
    expect(byEmails.status).toBe(200);
    const mixed = await send({ type: 'direct', to: JSON.stringify([h.realm.member2.id, h.realm.owner.email]), content: 'x' });
    expect(mixed.body.msg).toBe('Recipient lists may contain emails or user IDs, but not both.');
  });
});

describe('direct message policies', () => {
  it('needs an authorizing participant and, for a new conversation, an initiator', async () => {
    const admins = await h.env.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:administrators' } });
    const realm = await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    const settings = realm.settings as Record<string, unknown>;
    // Realm policies belong to the users area; this is the value its PATCH /realm stores.
    await h.env.db.realm.update({ where: { id: realm.id }, data: { settings: { ...settings, direct_message_permission_group: admins.id } } });
    const refused = await send({ type: 'direct', to: JSON.stringify([h.realm.member2.id]), content: 'x' });
    expect(refused.body.msg).toBe('This conversation does not include any users who can authorize it.');
    expect((await send({ type: 'direct', to: JSON.stringify([h.realm.admin.id]), content: 'ok' })).status).toBe(200);
    // A conversation with a bot needs nobody to authorize it.
    expect((await send({ type: 'direct', to: JSON.stringify([h.realm.bot.id]), content: 'to a bot' })).status).toBe(200);
    await h.env.db.realm.update({ where: { id: realm.id }, data: { settings: { ...settings, direct_message_initiator_group: admins.id } } });
    const fresh = await send({ type: 'direct', to: JSON.stringify([h.realm.moderator.id]), content: 'x' });
    expect(fresh.body.msg).toBe('You do not have permission to initiate direct message conversations.');
    expect((await send({ type: 'direct', to: JSON.stringify([h.realm.admin.id]), content: 'existing' })).status).toBe(200);
    await h.env.db.realm.update({ where: { id: realm.id }, data: { settings: settings as object } });
  });
});

describe('POST /messages: the caller and the channel, read in one statement', () => {
  it('finds the channel by id or by name in any case, refuses one the realm does not have', async () => {
    const byName = await send({ type: 'stream', to: '  dEnMaRk ', topic: 'lookup', content: 'by name' });
    const byId = await send({ type: 'stream', to: String(denmark), topic: 'lookup', content: 'by id' });
    for (const res of [byName, byId]) {
      expect(res.body.result).toBe('success');
      expect(await h.env.db.message.findUniqueOrThrow({ where: { id: res.body.id } })).toMatchObject({ streamId: denmark, topic: 'lookup' });
      // Every subscriber got a copy, the sender's included.
      const copies = await h.env.db.userMessage.findMany({ where: { messageId: res.body.id }, orderBy: { userId: 'asc' } });
      const { owner, member, member2, admin } = h.realm;
      expect(copies.map((c) => c.userId)).toEqual([owner.id, member.id, member2.id, admin.id].sort((a, b) => a - b));
    }
    expect((await send({ type: 'stream', to: 'Nowhere', topic: 't', content: 'x' })).body)
      .toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', msg: "Channel 'Nowhere' does not exist" });
    expect((await send({ type: 'stream', to: '999999', topic: 't', content: 'x' })).body)
      .toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', msg: "Channel with ID '999999' does not exist" });
  });

  it('refuses a deactivated caller before the channel, the topic or a parameter', async () => {
    const { member2 } = h.realm;
    await h.env.db.user.update({ where: { id: member2.id }, data: { isActive: false } });
    try {
      const before = await h.env.db.message.count();
      const bodies: Array<Record<string, string>> = [
        { type: 'stream', to: 'Denmark', topic: 't', content: 'x' },
        { type: 'stream', to: 'Nowhere', topic: 't', content: 'x' },
        { type: 'stream', to: 'Denmark', content: 'x' },
        { type: 'stream', to: 'Denmark', topic: 't' },
        { type: 'private', to: JSON.stringify([h.realm.member.id]), content: 'x' },
      ];
      for (const body of bodies) {
        const res = await send(body, member2);
        expect(res.body).toMatchObject({ result: 'error', code: 'USER_DEACTIVATED', msg: 'Account is deactivated' });
      }
      expect(await h.env.db.message.count()).toBe(before);
    } finally {
      await h.env.db.user.update({ where: { id: member2.id }, data: { isActive: true } });
    }
  });
});
