/** Submessages: widget state on messages, POST /submessage, and /poll and /todo widgets at send time. */
import { outboxEvents, startHarness, type Harness } from './support';
import { pyJsonDumps, widgetContentOf } from '../lib/widget';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2 } = h.realm;
  await h.createStream(owner, { name: 'Denmark' }, [owner, member, member2]);
});
afterAll(() => h?.close());

async function send(content: string, user = h.realm.member) {
  const res = await h.api.post('/api/v1/messages').set(h.as(user)).type('form').send({ type: 'stream', to: 'Denmark', topic: 'votes', content });
  expect(res.status).toBe(200);
  return res.body.id as number;
}
const submessage = (body: Record<string, string>, user = h.realm.member) =>
  h.api.post('/api/v1/submessage').set(h.as(user)).type('form').send(body);

describe('widgets at send time', () => {
  it("parses /poll and /todo as the family's server does", () => {
    expect(widgetContentOf('/poll Lunch?\n- Pizza\n* Soup\n\n  Salad  ')).toEqual({ widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['Pizza', 'Soup', 'Salad'] } });
    expect(widgetContentOf('/poll\nA\nB')).toEqual({ widget_type: 'poll', extra_data: { question: '', options: ['A', 'B'] } });
    expect(widgetContentOf('/todo Chores\n- dishes: before noon\nlaundry')).toEqual({
      widget_type: 'todo',
      extra_data: { task_list_title: 'Chores', tasks: [{ task: 'dishes', desc: 'before noon' }, { task: 'laundry', desc: '' }] },
    });
    expect(widgetContentOf('/polls are open')).toBeNull();
    expect(widgetContentOf('about /poll')).toBeNull();
    expect(pyJsonDumps({ widget_type: 'poll', extra_data: { question: 'Café?', options: ['ja'] } })).toBe(
      '{"widget_type": "poll", "extra_data": {"question": "Caf\\u00e9?", "options": ["ja"]}}',
    );
  });

  it('stores the widget submessage and carries it in the message event and in fetched messages', async () => {
    const id = await send('/poll Lunch?\nPizza\nSoup');
    const content = '{"widget_type": "poll", "extra_data": {"question": "Lunch?", "options": ["Pizza", "Soup"]}}';
    const expected = [{ msg_type: 'widget', content, message_id: id, sender_id: h.realm.member.id, id: expect.any(Number) }];
    const event = (await outboxEvents(h.env, 'message')).find((e) => e.event.message.id === id)!;
    expect(event.event.message.submessages).toEqual(expected);
    const one = await h.api.get(`/api/v1/messages/${id}`).set(h.as(h.realm.member2));
    expect(one.body.message.submessages).toEqual(expected);
    const many = await h.api.get('/api/v1/messages').set(h.as(h.realm.member2)).query({ anchor: 'newest', num_before: '5', num_after: '0' });
    expect(many.body.messages.find((m: { id: number }) => m.id === id).submessages).toEqual(expected);
    const plain = await send('no widget here');
    expect((await h.api.get(`/api/v1/messages/${plain}`).set(h.as(h.realm.member))).body.message.submessages).toEqual([]);
  });
});

describe('POST /submessage', () => {
  it('adds a vote and tells everyone who can see the message', async () => {
    const id = await send('/poll Tea?\nGreen');
    const vote = JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 });
    const res = await submessage({ message_id: String(id), msg_type: 'widget', content: vote }, h.realm.member2);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const event = (await outboxEvents(h.env, 'submessage')).at(-1)!;
    const row = await h.env.db.submessage.findFirstOrThrow({ where: { messageId: id }, orderBy: { id: 'desc' } });
    expect(event.event).toEqual({ type: 'submessage', msg_type: 'widget', message_id: id, submessage_id: row.id, sender_id: h.realm.member2.id, content: vote });
    expect(event.users).toEqual(expect.arrayContaining([h.realm.owner.id, h.realm.member.id, h.realm.member2.id]));
    const fetched = await h.api.get(`/api/v1/messages/${id}`).set(h.as(h.realm.member));
    expect(fetched.body.message.submessages.map((s: { sender_id: number }) => s.sender_id)).toEqual([h.realm.member.id, h.realm.member2.id]);
  });

  it('makes a participant follow the topic when their policy says "on participation"', async () => {
    const { member2, owner } = h.realm;
    const id = await send('/poll Coffee?\nYes');
    const vote = JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 });
    // owner keeps the default policy (on initiation): voting changes nothing for them.
    expect((await submessage({ message_id: String(id), msg_type: 'widget', content: vote }, owner)).status).toBe(200);
    expect(await h.env.db.userTopic.count({ where: { userId: owner.id } })).toBe(0);
    const user = await h.env.db.user.findUniqueOrThrow({ where: { id: member2.id } });
    await h.env.db.user.update({ where: { id: member2.id }, data: { settings: { ...(user.settings as object), automatically_follow_topics_policy: 1 } } });
    expect((await submessage({ message_id: String(id), msg_type: 'widget', content: vote }, member2)).status).toBe(200);
    const row = await h.env.db.userTopic.findFirstOrThrow({ where: { userId: member2.id, topicKey: 'votes' } });
    expect(row.visibilityPolicy).toBe(3);
    expect((await outboxEvents(h.env, 'user_topic')).at(-1)).toMatchObject({ users: [member2.id], event: { topic_name: 'votes', visibility_policy: 3 } });
  });

  it('lets only the sender start the submessages of a message', async () => {
    const id = await send('plain words');
    const body = { message_id: String(id), msg_type: 'widget', content: '{"type": "x"}' };
    expect((await submessage(body, h.realm.member2)).body.msg).toBe('You cannot attach a submessage to this message.');
    expect((await submessage(body)).status).toBe(200);
    expect((await submessage(body, h.realm.member2)).status).toBe(200);
  });

  it("checks poll and to-do data with the family's messages", async () => {
    const poll = await send('/poll Q?');
    const todo = await send('/todo List');
    const cases: Array<[number, unknown, string, typeof h.realm.member]> = [
      [poll, { type: 'vote', key: 'k', vote: 2 }, 'Invalid poll data["vote"]', h.realm.member],
      [poll, { type: 'vote', key: 'k' }, 'vote key is missing from poll data', h.realm.member],
      [poll, { type: 'vote', key: 'k', vote: 1, extra: 1 }, 'Unexpected arguments: extra', h.realm.member],
      [poll, { type: 'question', question: 'Q2?' }, "You can't edit a question unless you are the author.", h.realm.member2],
      [poll, { type: 'new_option', option: 'o', idx: 1001 }, 'poll data["idx"] is too large', h.realm.member],
      [poll, { type: 'shout' }, 'Unknown type for poll data: shout', h.realm.member],
      [todo, { type: 'new_task_list_title', title: 'T' }, "You can't edit the task list title unless you are the author.", h.realm.member2],
      [todo, { type: 'new_task', key: 1, task: 't', desc: '', completed: 'no' }, 'todo data["completed"] is not a boolean', h.realm.member],
    ];
    for (const [id, data, msg, user] of cases) {
      const res = await submessage({ message_id: String(id), msg_type: 'widget', content: JSON.stringify(data) }, user);
      expect({ status: res.status, msg: res.body.msg }).toEqual({ status: 400, msg });
    }
    expect((await submessage({ message_id: String(poll), msg_type: 'widget', content: '{oops' })).body.msg).toBe('Invalid json for submessage');
    expect((await submessage({ message_id: String(poll), msg_type: 'widget', content: '{"type": "question", "question": "Q2?"}' })).status).toBe(200);
    expect(await h.env.db.submessage.count({ where: { messageId: poll } })).toBe(2);
  });

  it('refuses messages the user cannot read', async () => {
    const dm = await h.api.post('/api/v1/messages').set(h.as(h.realm.member)).type('form').send({ type: 'private', to: JSON.stringify([h.realm.owner.id]), content: 'hi' });
    const res = await submessage({ message_id: String(dm.body.id), msg_type: 'widget', content: '{}' }, h.realm.member2);
    expect(res.body.msg).toBe('Invalid message(s)');
    expect((await submessage({ message_id: '999999', msg_type: 'widget', content: '{}' })).body.msg).toBe('Invalid message(s)');
    expect((await submessage({ message_id: '1', content: '{}' })).body.msg).toBe("Missing 'msg_type' argument");
  });
});
