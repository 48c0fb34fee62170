import { flagBit } from '@chat/contracts';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let msg: number;
let secretMsg: number;

beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2, admin } = h.realm;
  await h.createStream(owner, { name: 'Denmark' }, [owner, member]);
  await h.createStream(admin, { name: 'secret', inviteOnly: true }, [admin, member]);
  const send = async (to: string) =>
    (await h.api.post('/api/v1/messages').set(h.as(member)).type('form').send({ type: 'stream', to, topic: 't', content: 'react to me' })).body.id as number;
  msg = await send('Denmark');
  secretMsg = await send('secret');
  void member2;
});
afterAll(() => h?.close());

const react = (user: Parameters<Harness['as']>[0], id: number, body: Record<string, string>, method: 'post' | 'delete' = 'post') =>
  h.api[method](`/api/v1/messages/${id}/reactions`).set(h.as(user)).type('form').send(body);

describe('reactions', () => {
  it('adds a unicode emoji by name, shows it on the message and tells the readers', async () => {
    const res = await react(h.realm.member, msg, { emoji_name: 'heart' });
    expect(res.status).toBe(200);
    const fetched = await h.api.get(`/api/v1/messages/${msg}`).set(h.as(h.realm.owner));
    expect(fetched.body.message.reactions).toEqual([
      { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji', user_id: h.realm.member.id, user: { id: h.realm.member.id, email: h.realm.member.email, full_name: h.realm.member.fullName, is_mirror_dummy: false } },
    ]);
    const event = (await outboxEvents(h.env, 'reaction')).at(-1)!;
    expect(event.event).toMatchObject({ type: 'reaction', op: 'add', message_id: msg, emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji', user_id: h.realm.member.id });
    expect(event.users.sort()).toEqual([h.realm.owner.id, h.realm.member.id].sort());
    expect((await react(h.realm.member, msg, { emoji_name: 'heart' })).body).toMatchObject({ code: 'REACTION_ALREADY_EXISTS', msg: 'Reaction already exists.' });
  });

  it('lets a non-subscriber react through public history, creating their historical copy', async () => {
    const res = await react(h.realm.member2, msg, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' });
    expect(res.status).toBe(200);
    const um = await h.env.db.userMessage.findUniqueOrThrow({ where: { userId_messageId: { userId: h.realm.member2.id, messageId: msg } } });
    expect(um.flags & flagBit('historical')).toBe(flagBit('historical'));
  });

  it('checks names and codes against the emoji data', async () => {
    expect((await react(h.realm.member, msg, { emoji_name: 'heart', emoji_code: 'zzzz' })).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid emoji code.' });
    expect((await react(h.realm.member, msg, { emoji_name: 'octopus', emoji_code: '1f600' })).body.msg).toBe('Invalid emoji name.');
    expect((await react(h.realm.member, msg, { emoji_name: 'no_such_emoji' })).body.msg).toBe("Emoji 'no_such_emoji' does not exist");
    expect((await react(h.realm.member, msg, { emoji_name: 'zulip', reaction_type: 'svc_extra_emoji', emoji_code: 'zulip' })).status).toBe(200);
  });

  it('removes reactions, REACTION_DOES_NOT_EXIST otherwise', async () => {
    const res = await react(h.realm.member, msg, { emoji_name: 'heart' }, 'delete');
    expect(res.status).toBe(200);
    expect((await outboxEvents(h.env, 'reaction')).at(-1)!.event).toMatchObject({ op: 'remove', emoji_code: '2764' });
    const again = await react(h.realm.member, msg, { emoji_name: 'heart' }, 'delete');
    expect(again.body).toEqual({ result: 'error', code: 'REACTION_DOES_NOT_EXIST', msg: "Reaction doesn't exist." });
  });

  it('refuses messages the user may not see', async () => {
    expect((await react(h.realm.member2, secretMsg, { emoji_name: 'heart' })).body.msg).toBe('Invalid message(s)');
    expect((await react(h.realm.guest, msg, { emoji_name: 'heart' })).body.msg).toBe('Invalid message(s)');
  });
});

describe('flags', () => {
  const flags = (user: Parameters<Harness['as']>[0], body: Record<string, string>) =>
    h.api.post('/api/v1/messages/flags').set(h.as(user)).type('form').send(body);

  it('marks read and unread, reporting the changed messages and the event', async () => {
    const res = await flags(h.realm.owner, { messages: JSON.stringify([msg]), op: 'add', flag: 'read' });
    expect(res.body).toMatchObject({ result: 'success', messages: [msg] });
    const again = await flags(h.realm.owner, { messages: JSON.stringify([msg]), op: 'add', flag: 'read' });
    expect(again.body.messages).toEqual([]);
    const unread = await flags(h.realm.owner, { messages: JSON.stringify([msg]), op: 'remove', flag: 'read' });
    expect(unread.body.messages).toEqual([msg]);
    const event = (await outboxEvents(h.env, 'update_message_flags')).at(-1)!;
    expect(event.users).toEqual([h.realm.owner.id]);
    expect(event.event).toMatchObject({ op: 'remove', flag: 'read', messages: [msg], message_details: { [msg]: { type: 'stream', topic: 't' } } });
  });

  it('stars a message and finds it with is:starred', async () => {
    await flags(h.realm.owner, { messages: JSON.stringify([msg]), op: 'add', flag: 'starred' });
    const res = await h.api.get('/api/v1/messages').set(h.as(h.realm.owner)).query({ anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([['is', 'starred']]) });
    expect(res.body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags.includes('starred')])).toEqual([[msg, true]]);
  });

  it('refuses unknown and server-owned flags, and messages out of reach', async () => {
    expect((await flags(h.realm.owner, { messages: JSON.stringify([msg]), op: 'add', flag: 'bogus' })).body.msg).toBe("Invalid flag: 'bogus'");
    expect((await flags(h.realm.owner, { messages: JSON.stringify([msg]), op: 'add', flag: 'mentioned' })).body.msg).toBe("Flag not editable: 'mentioned'");
    expect((await flags(h.realm.member2, { messages: JSON.stringify([secretMsg]), op: 'add', flag: 'starred' })).body.msg).toBe('Invalid message(s)');
  });

  it('marks a channel, a topic, or everything as read', async () => {
    const denmark = await h.env.db.stream.findFirstOrThrow({ where: { name: 'Denmark' } });
    await flags(h.realm.owner, { messages: JSON.stringify([msg]), op: 'remove', flag: 'read' });
    expect((await h.api.post('/api/v1/mark_topic_as_read').set(h.as(h.realm.owner)).type('form').send({ stream_id: String(denmark.id), topic_name: 'T' })).status).toBe(200);
    const um = await h.env.db.userMessage.findUniqueOrThrow({ where: { userId_messageId: { userId: h.realm.owner.id, messageId: msg } } });
    expect(um.flags & flagBit('read')).toBe(flagBit('read'));
    const all = await h.api.post('/api/v1/mark_all_as_read').set(h.as(h.realm.member));
    expect(all.body).toMatchObject({ result: 'success', complete: true });
  });
});

describe('flags over a narrow', () => {
  it('updates the window of a narrow and reports the counts', async () => {
    const { owner } = h.realm;
    const res = await h.api
      .post('/api/v1/messages/flags/narrow')
      .set(h.as(owner))
      .type('form')
      .send({ anchor: 'oldest', num_before: '0', num_after: '10', narrow: JSON.stringify([['channel', 'Denmark']]), op: 'add', flag: 'starred' });
    expect(res.body).toMatchObject({ result: 'success', processed_count: 1, first_processed_id: msg, last_processed_id: msg, found_newest: true });
    const matches = await h.api.get('/api/v1/messages/matches_narrow').set(h.as(owner)).query({ msg_ids: JSON.stringify([msg, secretMsg]), narrow: JSON.stringify([['search', 'react']]) });
    expect(Object.keys(matches.body.messages)).toEqual([String(msg)]);
    expect(matches.body.messages[msg].match_content).toContain('<span class="highlight">react</span>');
  });
});
