import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let denmark: number;
let secret: number;
const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

beforeAll(async () => {
  // Nothing here falls due; delivery has its own test file.
  h = await startHarness({ SCHEDULED_DELIVERY: 'false' });
  const { owner, member, member2 } = h.realm;
  denmark = await h.createStream(owner, { name: 'Denmark' }, [owner, member, member2]);
  secret = await h.createStream(owner, { name: 'Secret', inviteOnly: true }, [owner]);
});
afterAll(() => h?.close());

const schedule = (params: Record<string, string>, user = h.realm.member) =>
  h.api.post('/api/v1/scheduled_messages').set(h.as(user)).type('form').send(params);
const edit = (id: number, params: Record<string, string>, user = h.realm.member) =>
  h.api.patch(`/api/v1/scheduled_messages/${id}`).set(h.as(user)).type('form').send(params);
const list = (user = h.realm.member) => h.api.get('/api/v1/scheduled_messages').set(h.as(user));
const lastEvent = async () => (await outboxEvents(h.env, 'scheduled_messages')).at(-1)!;

describe('scheduling', () => {
  it('schedules channel and direct messages, lists them soonest first, and tells only the sender', async () => {
    const { member, member2 } = h.realm;
    const later = inSeconds(7200);
    const sooner = inSeconds(3600);
    const channel = await schedule({ type: 'channel', to: String(denmark), topic: 'castle', content: 'Hello **later**', scheduled_delivery_timestamp: String(later) });
    expect(channel.status).toBe(200);
    expect(channel.body).toMatchObject({ result: 'success', scheduled_message_id: expect.any(Number) });
    const channelObject = {
      scheduled_message_id: channel.body.scheduled_message_id,
      type: 'stream',
      to: denmark,
      topic: 'castle',
      content: 'Hello **later**',
      rendered_content: '<p>Hello <strong>later</strong></p>',
      scheduled_delivery_timestamp: later,
      failed: false,
    };
    expect(await lastEvent()).toEqual({ users: [member.id], event: { type: 'scheduled_messages', op: 'add', scheduled_messages: [channelObject] } });

    const direct = await schedule({ type: 'direct', to: JSON.stringify([member2.id]), content: 'psst', scheduled_delivery_timestamp: String(sooner) });
    expect(direct.status).toBe(200);
    const directObject = {
      scheduled_message_id: direct.body.scheduled_message_id,
      type: 'private',
      to: [member2.id],
      content: 'psst',
      rendered_content: '<p>psst</p>',
      scheduled_delivery_timestamp: sooner,
      failed: false,
    };
    expect((await lastEvent()).event.scheduled_messages).toEqual([directObject]);

    const mine = await list();
    expect(mine.status).toBe(200);
    expect(mine.body.scheduled_messages).toEqual([directObject, channelObject]);
    expect((await list(member2)).body.scheduled_messages).toEqual([]);
  });

  it('accepts "stream" and "private", a message to oneself, and keeps read_by_sender', async () => {
    const { member } = h.realm;
    const res = await schedule({ type: 'private', to: JSON.stringify([member.id]), content: 'note to self', scheduled_delivery_timestamp: String(inSeconds(60)) });
    expect(res.status).toBe(200);
    const row = await h.env.db.scheduledMessage.findUniqueOrThrow({ where: { id: res.body.scheduled_message_id } });
    expect(row).toMatchObject({ recipientType: 'private', toUserIds: [member.id], readBySender: false });
    const stream = await schedule({ type: 'stream', to: String(denmark), topic: 't', content: 'x', scheduled_delivery_timestamp: String(inSeconds(60)), read_by_sender: 'true' });
    expect((await h.env.db.scheduledMessage.findUniqueOrThrow({ where: { id: stream.body.scheduled_message_id } })).readBySender).toBe(true);
  });

  it('truncates content past the message length limit as a send does', async () => {
    const res = await schedule({ type: 'channel', to: String(denmark), topic: 'long', content: 'y'.repeat(10_050), scheduled_delivery_timestamp: String(inSeconds(60)) });
    expect(res.status).toBe(200);
    const row = await h.env.db.scheduledMessage.findUniqueOrThrow({ where: { id: res.body.scheduled_message_id } });
    expect(row.content).toHaveLength(10_000);
    expect(row.content.endsWith('\n[message truncated]')).toBe(true);
  });
});

describe('validation', () => {
  const send = (params: Record<string, string>, user = h.realm.member) =>
    h.api.post('/api/v1/messages').set(h.as(user)).type('form').send(params);

  it('refuses bad requests with the reference errors and writes nothing', async () => {
    const before = await h.env.db.scheduledMessage.count();
    const outboxBefore = (await outboxEvents(h.env, 'scheduled_messages')).length;
    const ts = String(inSeconds(600));
    const cases: Array<[Record<string, string>, string]> = [
      [{ type: 'channel', to: String(denmark), topic: 't', content: 'x', scheduled_delivery_timestamp: String(inSeconds(-60)) }, 'Scheduled delivery time must be in the future.'],
      [{ type: 'channel', to: String(denmark), topic: 't', content: 'x', scheduled_delivery_timestamp: String(inSeconds(0) - 1) }, 'Scheduled delivery time must be in the future.'],
      [{ type: 'channel', to: String(denmark), topic: 't', content: 'x' }, "Missing 'scheduled_delivery_timestamp' argument"],
      [{ type: 'channel', to: String(denmark), topic: 't', content: 'x', scheduled_delivery_timestamp: 'soon' }, 'scheduled_delivery_timestamp is not an integer'],
      [{ type: 'channel', to: String(denmark), topic: 't', scheduled_delivery_timestamp: ts }, "Missing 'content' argument"],
      [{ type: 'channel', topic: 't', content: 'x', scheduled_delivery_timestamp: ts }, "Missing 'to' argument"],
      [{ type: 'letter', to: String(denmark), topic: 't', content: 'x', scheduled_delivery_timestamp: ts }, 'Invalid type'],
      [{ type: 'channel', to: JSON.stringify([denmark]), topic: 't', content: 'x', scheduled_delivery_timestamp: ts }, 'Invalid data type for channel ID'],
      [{ type: 'direct', to: String(h.realm.member2.id), content: 'x', scheduled_delivery_timestamp: ts }, 'Invalid data type for recipients'],
      [{ type: 'direct', to: JSON.stringify([h.realm.member2.email]), content: 'x', scheduled_delivery_timestamp: ts }, 'to["int"] is not an integer'],
      [{ type: 'channel', to: 'Denmark', topic: 't', content: 'x', scheduled_delivery_timestamp: ts }, 'Argument "to" is not valid JSON.'],
      [{ type: 'direct', to: JSON.stringify([999_999]), content: 'x', scheduled_delivery_timestamp: ts }, 'Invalid user ID 999999'],
      [{ type: 'channel', to: String(denmark), topic: 't', content: '   ', scheduled_delivery_timestamp: ts }, 'Message must not be empty'],
    ];
    for (const [params, msg] of cases) {
      const res = await schedule(params);
      expect({ params, status: res.status, msg: res.body.msg, result: res.body.result }).toEqual({ params, status: 400, msg, result: 'error' });
    }
    expect(await h.env.db.scheduledMessage.count()).toBe(before);
    expect((await outboxEvents(h.env, 'scheduled_messages')).length).toBe(outboxBefore);
  });

  it('answers recipient and permission errors exactly as sending now would', async () => {
    const ts = String(inSeconds(600));
    const cases: Array<Record<string, string>> = [
      { type: 'channel', to: '987654', topic: 't', content: 'x' },
      { type: 'channel', to: String(denmark), content: 'no topic' },
      { type: 'channel', to: String(secret), topic: 't', content: 'x' },
      { type: 'direct', to: JSON.stringify([]), content: 'x' },
    ];
    for (const params of cases) {
      const now = await send(params);
      const later = await schedule({ ...params, scheduled_delivery_timestamp: ts });
      expect(now.status).toBe(400);
      expect({ params, code: later.body.code, msg: later.body.msg }).toEqual({ params, code: now.body.code, msg: now.body.msg });
    }
  });
});

describe('editing and deleting', () => {
  it('edits content, topic, time and recipients, with update events', async () => {
    const { member, member2 } = h.realm;
    const first = inSeconds(3000);
    const created = await schedule({ type: 'channel', to: String(denmark), topic: 'castle', content: 'draft one', scheduled_delivery_timestamp: String(first) });
    const id = created.body.scheduled_message_id as number;

    expect((await edit(id, { content: 'draft *two*' })).status).toBe(200);
    expect(await lastEvent()).toEqual({
      users: [member.id],
      event: {
        type: 'scheduled_messages',
        op: 'update',
        scheduled_message: {
          scheduled_message_id: id, type: 'stream', to: denmark, topic: 'castle', content: 'draft *two*',
          rendered_content: '<p>draft <em>two</em></p>', scheduled_delivery_timestamp: first, failed: false,
        },
      },
    });

    const second = inSeconds(4000);
    expect((await edit(id, { topic: 'moat', scheduled_delivery_timestamp: String(second) })).status).toBe(200);
    expect((await lastEvent()).event.scheduled_message).toMatchObject({ topic: 'moat', content: 'draft *two*', scheduled_delivery_timestamp: second });

    // To a direct message: the topic goes, and a topic sent later is ignored.
    expect((await edit(id, { type: 'direct', to: JSON.stringify([member2.id]) })).status).toBe(200);
    expect((await lastEvent()).event.scheduled_message).toEqual({
      scheduled_message_id: id, type: 'private', to: [member2.id], content: 'draft *two*',
      rendered_content: '<p>draft <em>two</em></p>', scheduled_delivery_timestamp: second, failed: false,
    });
    expect((await edit(id, { topic: 'ignored' })).status).toBe(200);
    expect((await h.env.db.scheduledMessage.findUniqueOrThrow({ where: { id } })).topic).toBe('');

    // And back to the channel, which needs a topic.
    expect((await edit(id, { type: 'channel', to: String(denmark), topic: 'back' })).status).toBe(200);
    expect((await lastEvent()).event.scheduled_message).toMatchObject({ type: 'stream', to: denmark, topic: 'back' });
    expect((await list()).body.scheduled_messages.find((s: { scheduled_message_id: number }) => s.scheduled_message_id === id)).toMatchObject({ topic: 'back', to: denmark });
  });

  it('refuses edits with the reference errors and changes nothing', async () => {
    const created = await schedule({ type: 'channel', to: String(denmark), topic: 'castle', content: 'keep me', scheduled_delivery_timestamp: String(inSeconds(3000)) });
    const id = created.body.scheduled_message_id as number;
    const before = await h.env.db.scheduledMessage.findUniqueOrThrow({ where: { id } });
    const cases: Array<[Record<string, string>, string, number?]> = [
      [{}, 'Nothing to change'],
      [{ type: 'direct' }, 'Recipient required when updating type of scheduled message.'],
      [{ type: 'channel', to: String(denmark) }, 'Topic required when updating scheduled message type to channel.'],
      [{ scheduled_delivery_timestamp: String(inSeconds(-10)) }, 'Scheduled delivery time must be in the future.'],
      [{ to: JSON.stringify([denmark]) }, 'Invalid data type for channel ID'],
      [{ type: 'direct', to: JSON.stringify([999_999]) }, 'Invalid user ID 999999'],
      [{ content: '' }, 'Message must not be empty'],
    ];
    for (const [params, msg] of cases) {
      const res = await edit(id, params);
      expect({ params, status: res.status, msg: res.body.msg }).toEqual({ params, status: 400, msg });
    }
    const other = await edit(id, { content: 'mine now' }, h.realm.member2);
    expect([other.status, other.body.code, other.body.msg]).toEqual([404, 'NOT_FOUND', 'Scheduled message does not exist']);
    expect(await h.env.db.scheduledMessage.findUniqueOrThrow({ where: { id } })).toEqual(before);
  });

  it('deletes a scheduled message for its sender only, with a remove event', async () => {
    const created = await schedule({ type: 'channel', to: String(denmark), topic: 'castle', content: 'never mind', scheduled_delivery_timestamp: String(inSeconds(3000)) });
    const id = created.body.scheduled_message_id as number;
    const del = (user = h.realm.member) => h.api.delete(`/api/v1/scheduled_messages/${id}`).set(h.as(user));
    const other = await del(h.realm.member2);
    expect([other.status, other.body.msg]).toEqual([404, 'Scheduled message does not exist']);
    expect((await del()).status).toBe(200);
    expect(await lastEvent()).toEqual({ users: [h.realm.member.id], event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id } });
    const again = await del();
    expect([again.status, again.body.msg]).toEqual([404, 'Scheduled message does not exist']);
    expect((await list()).body.scheduled_messages.some((s: { scheduled_message_id: number }) => s.scheduled_message_id === id)).toBe(false);
  });

  it('keeps reminders out of reach of the scheduled message endpoints', async () => {
    const sent = await h.api.post('/api/v1/messages').set(h.as(h.realm.member)).type('form').send({ type: 'stream', to: 'Denmark', topic: 'castle', content: 'remember me' });
    const reminder = await h.api.post('/api/v1/reminders').set(h.as(h.realm.member)).type('form').send({ message_id: String(sent.body.id), scheduled_delivery_timestamp: String(inSeconds(600)) });
    expect(reminder.status).toBe(200);
    const res = await h.api.delete(`/api/v1/scheduled_messages/${reminder.body.reminder_id}`).set(h.as(h.realm.member));
    expect([res.status, res.body.msg]).toEqual([404, 'Scheduled message does not exist']);
    expect((await list()).body.scheduled_messages.some((s: { scheduled_message_id: number }) => s.scheduled_message_id === reminder.body.reminder_id)).toBe(false);
  });
});
