import { flagBit } from '@chat/contracts';
import { TEST_REALM_URL } from '@chat/testing';
import { userObject } from '@chat/wire';
import { buildWireMessages } from '../lib/wire';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let denmark: number;

beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2, admin } = h.realm;
  denmark = await h.createStream(owner, { name: 'Denmark', description: 'A **public** place' }, [owner, member, member2]);
  await h.createStream(admin, { name: 'secret', inviteOnly: true }, [admin, member]);
});
afterAll(() => h?.close());

describe('POST /messages', () => {
  it('sends to a channel by name with a topic, writing rows for every subscriber and the outbox event', async () => {
    const { member, member2, owner } = h.realm;
    const res = await h.api
      .post('/api/v1/messages')
      .set(h.as(member))
      .type('form')
      .send({ type: 'stream', to: 'Denmark', topic: 'castle', content: 'Hello **world**', queue_id: 'q1', local_id: '7.01' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', msg: '' });
    const id = res.body.id as number;
    const rows = await h.env.db.userMessage.findMany({ where: { messageId: id }, orderBy: { userId: 'asc' } });
    expect(rows.map((r) => r.userId).sort()).toEqual([owner.id, member.id, member2.id].sort());
    // The API client is not an interactive one, so nobody's copy starts read.
    expect(rows.every((r) => (r.flags & flagBit('read')) === 0n)).toBe(true);

    const [event] = (await outboxEvents(h.env, 'message')).filter((e) => e.event.message.id === id);
    expect(event.users.sort()).toEqual([owner.id, member.id, member2.id].sort());
    expect(event).toMatchObject({
      stream_id: denmark,
      public_stream: true,
      sender_id: member.id,
      sender_queue_id: 'q1',
      local_id: '7.01',
      raw_content: 'Hello **world**',
      topic: 'castle',
    });
    expect(event.event.message).toMatchObject({
      id,
      content: '<p>Hello <strong>world</strong></p>',
      content_type: 'text/html',
      display_recipient: 'Denmark',
      subject: 'castle',
      type: 'stream',
      stream_id: denmark,
      sender_email: member.email,
    });
    expect(event.user_flags[member2.id]).toEqual([]);
  });

  it('sends to a channel by id, with subject as the topic alias, and marks read_by_sender', async () => {
    const { member } = h.realm;
    const res = await h.api
      .post('/api/v1/messages')
      .set(h.as(member))
      .type('form')
      .send({ type: 'channel', to: String(denmark), subject: 'by id', content: 'x', read_by_sender: 'true' });
    expect(res.status).toBe(200);
    const row = await h.env.db.userMessage.findUniqueOrThrow({ where: { userId_messageId: { userId: member.id, messageId: res.body.id } } });
    expect(row.flags & flagBit('read')).toBe(flagBit('read'));
  });

  it('sends a direct message to a JSON list of ids or emails, the sender among them', async () => {
    const { member, member2 } = h.realm;
    const byId = await h.api
      .post('/api/v1/messages')
      .set(h.as(member))
      .type('form')
      .send({ type: 'direct', to: JSON.stringify([member2.id, member.id]), content: 'psst' });
    expect(byId.status).toBe(200);
    const byEmail = await h.api
      .post('/api/v1/messages')
      .set(h.as(member))
      .type('form')
      .send({ type: 'private', to: JSON.stringify([member2.email]), content: 'again' });
    expect(byEmail.status).toBe(200);
    const a = await h.env.db.message.findUniqueOrThrow({ where: { id: byId.body.id } });
    const b = await h.env.db.message.findUniqueOrThrow({ where: { id: byEmail.body.id } });
    expect(a.conversationId).toBe(b.conversationId);
    const rows = await h.env.db.userMessage.findMany({ where: { messageId: a.id } });
    expect(rows.map((r) => r.userId).sort()).toEqual([member.id, member2.id].sort());
    expect(rows.every((r) => (r.flags & flagBit('is_private')) !== 0n)).toBe(true);
  });

  it("writes a direct message and its conversation in one statement, its event's object as a fetch builds it", async () => {
    const { member, member2, admin } = h.realm;
    const send = async (to: number[], content: string) => {
      const res = await h.api.post('/api/v1/messages').set(h.as(member)).type('form').send({ type: 'direct', to: JSON.stringify(to), content });
      expect(res.status).toBe(200);
      return res.body.id as number;
    };
    // A new conversation of three, then the same one again, then a message to oneself.
    const first = await send([member2.id, admin.id], 'three of **us**');
    const second = await send([admin.id, member2.id], 'again');
    const own = await send([member.id], 'a note');
    const rows = await h.env.db.message.findMany({ where: { id: { in: [first, second, own] } }, orderBy: { id: 'asc' } });
    expect(rows[0]!.conversationId).not.toBeNull();
    expect(rows[1]!.conversationId).toBe(rows[0]!.conversationId);
    expect(rows[2]!.conversationId).not.toBe(rows[0]!.conversationId);
    const events = await outboxEvents(h.env, 'message');
    // The objects the write built before the conversation existed, against the objects built
    // from the stored rows, as the transaction's path builds them.
    const stored = await buildWireMessages(h.env.db, rows, { applyMarkdown: true, clientGravatar: false, allowEmptyTopicName: true, realmUrl: TEST_REALM_URL, allowEditHistory: true });
    for (const [i, id] of [first, second, own].entries()) {
      expect(events.find((e) => e.event.message.id === id)!.event.message).toEqual(stored[i]);
    }
  });

  it('answers STREAM_DOES_NOT_EXIST with the name, and BAD_REQUEST for a bad recipient', async () => {
    const { member } = h.realm;
    const missing = await h.api.post('/api/v1/messages').set(h.as(member)).type('form').send({ type: 'stream', to: 'Atlantis', topic: 't', content: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ result: 'error', msg: "Channel 'Atlantis' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream: 'Atlantis' });
    const bad = await h.api.post('/api/v1/messages').set(h.as(member)).type('form').send({ type: 'direct', to: '["nobody@chat.test"]', content: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: "Invalid email 'nobody@chat.test'" });
    const count = await h.env.db.message.count({ where: { content: 'x', topic: 't' } });
    expect(count).toBe(0);
  });

  it('refuses a private channel to a non-subscriber', async () => {
    const res = await h.api.post('/api/v1/messages').set(h.as(h.realm.member2)).type('form').send({ type: 'stream', to: 'secret', topic: 't', content: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe("Not authorized to send to channel 'secret'");
  });

  it('accepts a multipart body', async () => {
    const res = await h.api
      .post('/api/v1/messages')
      .set(h.as(h.realm.member))
      .field('type', 'stream')
      .field('to', 'Denmark')
      .field('topic', 'multipart')
      .field('content', 'from a form');
    expect(res.status).toBe(200);
    expect(typeof res.body.id).toBe('number');
  });
});

describe('GET /messages', () => {
  let ids: number[];
  beforeAll(async () => {
    ids = [];
    for (let i = 0; i < 5; i++) {
      const res = await h.api.post('/api/v1/messages').set(h.as(h.realm.owner)).type('form').send({ type: 'stream', to: 'Denmark', topic: 'range', content: `m${i}` });
      ids.push(res.body.id);
    }
  });

  const get = (q: Record<string, unknown>, user = h.realm.member2) =>
    h.api.get('/api/v1/messages').set(h.as(user)).query({ narrow: JSON.stringify([{ operator: 'topic', operand: 'range' }]), ...q });

  it('returns the newest messages with found_newest', async () => {
    const res = await get({ anchor: 'newest', num_before: 3, num_after: 0 });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual(ids.slice(2));
    expect(res.body).toMatchObject({ found_newest: true, found_oldest: false, found_anchor: false, history_limited: false });
  });

  it('returns the oldest messages with found_oldest', async () => {
    const res = await get({ anchor: 'oldest', num_before: 0, num_after: 2 });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual(ids.slice(0, 2));
    expect(res.body).toMatchObject({ anchor: 0, found_oldest: true, found_newest: false });
  });

  it('returns a window around an integer anchor', async () => {
    const res = await get({ anchor: String(ids[2]), num_before: 1, num_after: 1 });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids[1], ids[2], ids[3]]);
    expect(res.body).toMatchObject({ anchor: ids[2], found_anchor: true, found_oldest: false, found_newest: false });
    const excluded = await get({ anchor: String(ids[2]), num_before: 0, num_after: 2, include_anchor: 'false' });
    expect(excluded.body.messages.map((m: { id: number }) => m.id)).toEqual([ids[3], ids[4]]);
    expect(excluded.body.found_anchor).toBe(false);
    const middle = await get({ anchor: String(ids[2]), num_before: 1, num_after: 1, include_anchor: 'false' });
    expect(middle.body.msg).toBe('The anchor can only be excluded at an end of the range');
  });

  it('returns full message objects with flags', async () => {
    const res = await get({ anchor: String(ids[0]), num_before: 0, num_after: 0, client_gravatar: 'false' });
    const [m] = res.body.messages;
    expect(Object.keys(m).sort()).toEqual(
      [
        'avatar_url', 'client', 'content', 'content_type', 'display_recipient', 'flags', 'id', 'is_me_message', 'reactions',
        'recipient_id', 'sender_email', 'sender_full_name', 'sender_id', 'sender_realm_str', 'stream_id', 'subject',
        'submessages', 'timestamp', 'topic_links', 'type',
      ].sort(),
    );
    expect(m).toMatchObject({ content: '<p>m0</p>', flags: [], sender_id: h.realm.owner.id, type: 'stream', display_recipient: 'Denmark' });
    expect(m.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
  });

  it('gives each sender the avatar_url of their User object under client_gravatar', async () => {
    const { bot, member, member2 } = h.realm;
    const send = async (user: typeof bot) =>
      (await h.api.post('/api/v1/messages').set(h.as(user)).type('form').send({ type: 'direct', to: JSON.stringify([member.id]), content: 'hi' })).body.id as number;
    const { settings } = await h.env.db.user.findUniqueOrThrow({ where: { id: member2.id } });
    await h.env.db.user.update({ where: { id: member2.id }, data: { settings: { ...(settings as object), email_address_visibility: 3 } } });
    const fromBot = await send(bot);
    const fromHidden = await send(member2);
    const res = await h.api.get('/api/v1/messages').set(h.as(member)).query({ message_ids: JSON.stringify([fromBot, fromHidden]), client_gravatar: 'true' });
    const users = await Promise.all([bot.id, member2.id].map((id) => h.env.db.user.findUniqueOrThrow({ where: { id } })));
    const expected = users.map((u) => userObject(u, { id: member.id, role: member.role }, { realmUrl: TEST_REALM_URL, clientGravatar: true }).avatar_url);
    expect(res.body.messages.map((m: { avatar_url: unknown }) => m.avatar_url)).toEqual(expected);
    // A Gravatar bot's address is known to everyone, so the client computes it (null, as the
    // family sends it); a person whose address not everyone may see gets a URL.
    expect(expected[0]).toBeNull();
    expect(typeof expected[1]).toBe('string');
    await h.env.db.user.update({ where: { id: member2.id }, data: { settings: settings as object } });
  });

  it('reports unread parameters as ignored', async () => {
    const res = await get({ anchor: 'newest', num_before: 1, num_after: 0, bogus: '1' });
    expect(res.body.ignored_parameters_unsupported).toEqual(['bogus']);
  });
});
