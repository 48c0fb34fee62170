import { LIMITS } from '@chat/contracts';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let denmark: number;
beforeAll(async () => {
  h = await startHarness();
  denmark = await h.createStream(h.realm.owner, { name: 'Denmark' }, [h.realm.owner, h.realm.member, h.realm.member2]);
});
afterAll(() => h?.close());

describe('typing', () => {
  it('tells direct-message recipients, the sender included', async () => {
    const { member, member2 } = h.realm;
    const res = await h.api.post('/api/v1/typing').set(h.as(member)).type('form').send({ op: 'start', to: JSON.stringify([member2.id]) });
    expect(res.status).toBe(200);
    const event = (await outboxEvents(h.env, 'typing')).at(-1)!;
    expect(event.users.sort()).toEqual([member.id, member2.id].sort());
    expect(event.event).toEqual({
      type: 'typing',
      op: 'start',
      message_type: 'direct',
      sender: { user_id: member.id, email: member.email },
      recipients: [member, member2].sort((a, b) => a.id - b.id).map((u) => ({ user_id: u.id, email: u.email })),
    });
  });

  it('tells every channel subscriber, the typist included', async () => {
    const res = await h.api.post('/api/v1/typing').set(h.as(h.realm.member)).type('form').send({ op: 'stop', type: 'stream', stream_id: String(denmark), topic: 'castle' });
    expect(res.status).toBe(200);
    const event = (await outboxEvents(h.env, 'typing')).at(-1)!;
    expect(event.users.sort()).toEqual([h.realm.owner.id, h.realm.member.id, h.realm.member2.id].sort());
    expect(event.event).toEqual({
      type: 'typing',
      op: 'stop',
      message_type: 'stream',
      sender: { user_id: h.realm.member.id, email: h.realm.member.email },
      stream_id: denmark,
      topic: 'castle',
    });
    const bad = await h.api.post('/api/v1/typing').set(h.as(h.realm.member)).type('form').send({ op: 'go', to: JSON.stringify([h.realm.member2.id]) });
    expect(bad.body.msg).toBe('Invalid op');
  });

  it("answers the family's errors for a bad notice, and reads the empty topic's display name", async () => {
    const typing = (body: Record<string, string>) => h.api.post('/api/v1/typing').set(h.as(h.realm.member)).type('form').send(body);
    const cases: Array<[Record<string, string>, string]> = [
      [{ op: 'start', to: '[]' }, "Empty 'to' list"],
      [{ op: 'start', type: 'direct', to: JSON.stringify([h.realm.member2.id, 987654]) }, 'Invalid user ID 987654'],
      [{ op: 'start', type: 'direct' }, "Missing 'to' argument"],
      [{ op: 'start', type: 'stream', stream_id: String(denmark) }, 'Missing topic'],
      [{ op: 'start', type: 'channel', topic: 'castle' }, "Missing 'stream_id' argument"],
      [{ op: 'start', type: 'private', to: JSON.stringify([h.realm.member2.id]) }, 'Invalid type'],
    ];
    for (const [body, msg] of cases) {
      const res = await typing(body);
      expect([body, res.status, res.body.result, res.body.msg]).toEqual([body, 400, 'error', msg]);
    }
    const before = (await outboxEvents(h.env, 'typing')).length;
    expect((await typing({ op: 'start', type: 'channel', stream_id: String(denmark), topic: 'general chat' })).status).toBe(200);
    const events = await outboxEvents(h.env, 'typing');
    expect(events.length).toBe(before + 1);
    expect(events.at(-1)!.event).toMatchObject({ message_type: 'stream', stream_id: denmark, topic: '' });
  });

  it('reads a topic as the family does: stripped first, then unprintable characters named by position', async () => {
    const send = (topic: string) => h.api.post('/api/v1/messages').set(h.as(h.realm.member)).type('form').send({ type: 'stream', to: 'Denmark', topic, content: 'x' });
    expect((await send('editing\nfun')).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid character in topic, at position 8!' });
    expect((await send('😀\u0007')).body.msg).toBe('Invalid character in topic, at position 2!');
    expect((await send('a\ufdd0')).body.msg).toBe('Invalid character in topic, at position 2!');
    const trailing = await send('castle\n');
    expect(trailing.body.result).toBe('success');
    const row = await h.env.db.message.findUniqueOrThrow({ where: { id: trailing.body.id } });
    expect(row.topic).toBe('castle');
  });

  it('sends typing_edit_message to everyone who sees the message being edited, the editor included', async () => {
    const sent = await h.api.post('/api/v1/messages').set(h.as(h.realm.member)).type('form').send({ type: 'stream', to: 'Denmark', topic: 'castle', content: 'x' });
    const res = await h.api.post(`/api/v1/messages/${sent.body.id}/typing`).set(h.as(h.realm.member)).type('form').send({ op: 'start' });
    expect(res.status).toBe(200);
    const event = (await outboxEvents(h.env, 'typing_edit_message')).at(-1)!;
    expect(event.event).toEqual({ type: 'typing_edit_message', op: 'start', sender_id: h.realm.member.id, message_id: sent.body.id, recipient: { type: 'channel', channel_id: denmark, topic: 'castle' } });
    expect(event.users.sort()).toEqual([h.realm.owner.id, h.realm.member.id, h.realm.member2.id].sort());
  });

  it('sends direct-message typing_edit_message to the participants who receive typing notifications', async () => {
    const { member, member2, moderator } = h.realm;
    const sent = await h.api.post('/api/v1/messages').set(h.as(member)).type('form').send({ type: 'private', to: JSON.stringify([member2.id, moderator.id]), content: 'x' });
    expect(sent.status).toBe(200);
    const row = await h.env.db.user.findUniqueOrThrow({ where: { id: moderator.id } });
    const settings = (row.settings ?? {}) as Record<string, unknown>;
    await h.env.db.user.update({ where: { id: moderator.id }, data: { settings: { ...settings, receives_typing_notifications: false } } });
    try {
      const res = await h.api.post(`/api/v1/messages/${sent.body.id}/typing`).set(h.as(member)).type('form').send({ op: 'stop' });
      expect(res.status).toBe(200);
      const event = (await outboxEvents(h.env, 'typing_edit_message')).at(-1)!;
      const notified = [member.id, member2.id].sort((a, b) => a - b);
      expect(event.users).toEqual(notified);
      expect(event.event).toEqual({ type: 'typing_edit_message', op: 'stop', sender_id: member.id, message_id: sent.body.id, recipient: { type: 'direct', user_ids: notified } });
    } finally {
      await h.env.db.user.update({ where: { id: moderator.id }, data: { settings: settings as never } });
    }
  });
});

describe('drafts', () => {
  const post = (drafts: unknown, user = h.realm.member) => h.api.post('/api/v1/drafts').set(h.as(user)).type('form').send({ drafts: JSON.stringify(drafts) });

  it('creates, lists, edits and deletes drafts with drafts events', async () => {
    const res = await post([
      { type: 'stream', to: [denmark], topic: 'castle', content: 'half a thought', timestamp: 1700000000 },
      { type: 'private', to: [h.realm.member2.id], topic: '', content: 'psst' },
      { type: '', to: [], topic: '', content: 'nowhere yet' },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.ids).toHaveLength(3);
    const list = await h.api.get('/api/v1/drafts').set(h.as(h.realm.member));
    expect(list.body.count).toBe(3);
    expect(list.body.drafts[0]).toEqual({ id: res.body.ids[0], type: 'stream', to: [denmark], topic: 'castle', content: 'half a thought', timestamp: 1700000000 });
    const add = (await outboxEvents(h.env, 'drafts')).at(-1)!;
    expect(add).toMatchObject({ users: [h.realm.member.id], event: { type: 'drafts', op: 'add' } });

    const edit = await h.api
      .patch(`/api/v1/drafts/${res.body.ids[1]}`)
      .set(h.as(h.realm.member))
      .type('form')
      .send({ draft: JSON.stringify({ type: 'private', to: [h.realm.member2.id], topic: '', content: 'psst, again' }) });
    expect(edit.status).toBe(200);
    expect((await outboxEvents(h.env, 'drafts')).at(-1)!.event).toMatchObject({ op: 'update', draft: { id: res.body.ids[1], content: 'psst, again' } });
    expect((await h.api.delete(`/api/v1/drafts/${res.body.ids[2]}`).set(h.as(h.realm.member))).status).toBe(200);
    expect((await outboxEvents(h.env, 'drafts')).at(-1)!.event).toEqual({ type: 'drafts', op: 'remove', draft_id: res.body.ids[2] });
  });

  it('validates drafts', async () => {
    expect((await post([{ type: 'stream', to: [denmark, denmark + 1], topic: 't', content: 'x' }])).body.msg).toBe('Must specify exactly 1 channel ID for channel messages');
    expect((await post([{ type: 'stream', to: [denmark], topic: 't', content: 'a\u0000b' }])).body.msg).toBe('Message must not contain null bytes');
    // Blank content names the draft as the family's parameter parser does.
    const blank = await post([{ type: '', to: [], topic: '', content: 'fine' }, { type: '', to: [], topic: '', content: ' \n ' }]);
    expect(blank.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'drafts[1]["content"] cannot be blank' });
    // A long topic is cut to the limit with "...", unstripped; content is kept as a message's is.
    const long = await post([{ type: 'stream', to: [denmark], topic: ` ${'t'.repeat(70)}`, content: '\n\nbody  \n' }]);
    const row = await h.env.db.draft.findUniqueOrThrow({ where: { id: long.body.ids[0] } });
    expect([row.topic, [...row.topic].length, row.content]).toEqual([` ${'t'.repeat(56)}...`, LIMITS.maxTopicLength, 'body']);
    const blankEdit = await h.api.patch(`/api/v1/drafts/${row.id}`).set(h.as(h.realm.member)).type('form').send({ draft: JSON.stringify({ type: '', to: [], topic: '', content: '' }) });
    expect(blankEdit.body.msg).toBe('draft["content"] cannot be blank');
    expect((await post([{ type: 'stream', to: [denmark], topic: 'a\u0000', content: 'x' }])).body.msg).toBe('Topic must not contain null bytes');
    const other = await h.api.patch('/api/v1/drafts/999999').set(h.as(h.realm.member)).type('form').send({ draft: JSON.stringify({ type: '', to: [], topic: '', content: 'x' }) });
    expect(other.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Draft does not exist' });
    const mine = await post([{ type: '', to: [], topic: '', content: 'mine' }]);
    const stolen = await h.api.delete(`/api/v1/drafts/${mine.body.ids[0]}`).set(h.as(h.realm.member2));
    expect(stolen.body.msg).toBe('Draft does not exist');
  });

  it('stores nothing for a user who turned synchronisation off', async () => {
    const { member2 } = h.realm;
    const user = await h.env.db.user.findUniqueOrThrow({ where: { id: member2.id } });
    await h.env.db.user.update({ where: { id: member2.id }, data: { settings: { ...(user.settings as object), enable_drafts_synchronization: false } } });
    const res = await post([{ type: '', to: [], topic: '', content: 'secret' }], member2);
    expect(res.body.msg).toBe('User has disabled synchronizing drafts.');
    expect(await h.env.db.draft.count({ where: { userId: member2.id } })).toBe(0);
  });
});
