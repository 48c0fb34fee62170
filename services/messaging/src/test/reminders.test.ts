import { TEST_REALM_URL } from '@chat/testing';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let verona: number;
let secret: number;
const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

beforeAll(async () => {
  h = await startHarness({ SCHEDULED_DELIVERY: 'false' });
  const { owner, member, member2 } = h.realm;
  verona = await h.createStream(owner, { name: 'Verona' }, [owner, member, member2]);
  secret = await h.createStream(owner, { name: 'Secret', inviteOnly: true }, [owner]);
});
afterAll(() => h?.close());

const send = async (params: Record<string, string>, user = h.realm.member): Promise<number> => {
  const res = await h.api.post('/api/v1/messages').set(h.as(user)).type('form').send(params);
  expect(res.status).toBe(200);
  return res.body.id;
};
const remind = (params: Record<string, string>, user = h.realm.member) =>
  h.api.post('/api/v1/reminders').set(h.as(user)).type('form').send(params);
const list = (user = h.realm.member) => h.api.get('/api/v1/reminders').set(h.as(user));
const lastEvent = async () => (await outboxEvents(h.env, 'reminders')).at(-1)!;

describe('creating reminders', () => {
  it('quotes a channel message under a link to it, and tells only the user', async () => {
    const { member } = h.realm;
    const id = await send({ type: 'stream', to: 'Verona', topic: 'test', content: 'Test message' });
    const at = inSeconds(86_400);
    const res = await remind({ message_id: String(id), scheduled_delivery_timestamp: String(at) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', reminder_id: expect.any(Number) });
    const content =
      `You requested a reminder for #**Verona>test@${id}**.\n\n` +
      `@_**King Hamlet|${member.id}** [said](${TEST_REALM_URL}/#narrow/channel/${verona}-Verona/topic/test/near/${id}):\n` +
      '```quote\nTest message\n```';
    const row = await h.env.db.scheduledMessage.findUniqueOrThrow({ where: { id: res.body.reminder_id } });
    expect(row).toMatchObject({ content, toUserIds: [member.id], recipientType: 'private', reminderTargetMessageId: id, senderId: member.id });
    const reminder = {
      reminder_id: res.body.reminder_id,
      type: 'private',
      to: [member.id],
      content,
      rendered_content: row.renderedContent,
      scheduled_delivery_timestamp: at,
      failed: false,
      reminder_target_message_id: id,
    };
    expect(row.renderedContent).toContain('<blockquote>');
    expect(await lastEvent()).toEqual({ users: [member.id], event: { type: 'reminders', op: 'add', reminders: [reminder] } });
    expect((await list()).body.reminders).toContainEqual(reminder);
    expect((await list(h.realm.member2)).body.reminders).toEqual([]);
  });

  it('recalls a direct message with its participants, with the note quoted', async () => {
    const { member, member2 } = h.realm;
    const id = await send({ type: 'private', to: JSON.stringify([member2.id]), content: 'Meet at **noon**' });
    const res = await remind({ message_id: String(id), scheduled_delivery_timestamp: String(inSeconds(600)), note: '\n\nBring the map.  \n' });
    expect(res.status).toBe(200);
    const row = await h.env.db.scheduledMessage.findUniqueOrThrow({ where: { id: res.body.reminder_id } });
    const dm = [member.id, member2.id].sort((a, b) => a - b).join(',');
    expect(row.content).toBe(
      'You requested a reminder for the following direct message. Note:\n > Bring the map.\n\n' +
        `@_**King Hamlet|${member.id}** [said](${TEST_REALM_URL}/#narrow/dm/${dm}/near/${id}):\n` +
        '```quote\nMeet at **noon**\n```',
    );
    expect(row.reminderNote).toBe('Bring the map.');
  });

  it('names polls instead of quoting them, and fences around fences in the message', async () => {
    const { member, member2 } = h.realm;
    const poll = await send({ type: 'private', to: JSON.stringify([member.id]), content: '/poll Lunch?' }, member2);
    const res = await remind({ message_id: String(poll), scheduled_delivery_timestamp: String(inSeconds(600)) });
    expect(res.status).toBe(200);
    const dm = [member.id, member2.id].sort((a, b) => a - b).join(',');
    expect((await h.env.db.scheduledMessage.findUniqueOrThrow({ where: { id: res.body.reminder_id } })).content).toBe(
      `You requested a reminder for the following direct message.\n\n@_**Othello|${member2.id}** [sent](${TEST_REALM_URL}/#narrow/dm/${dm}/near/${poll}) a poll.`,
    );
    const code = await send({ type: 'stream', to: 'Verona', topic: 'code', content: '```\nx = 1\n```' });
    const withCode = await remind({ message_id: String(code), scheduled_delivery_timestamp: String(inSeconds(600)) });
    expect((await h.env.db.scheduledMessage.findUniqueOrThrow({ where: { id: withCode.body.reminder_id } })).content).toMatch(/````quote\n```\nx = 1\n```\n````$/);
  });

  it('cuts a long message so that the reminder fits the message length limit', async () => {
    const id = await send({ type: 'stream', to: 'Verona', topic: 'long', content: 'z'.repeat(10_000) });
    const res = await remind({ message_id: String(id), scheduled_delivery_timestamp: String(inSeconds(600)) });
    const row = await h.env.db.scheduledMessage.findUniqueOrThrow({ where: { id: res.body.reminder_id } });
    expect(row.content).toHaveLength(10_000);
    expect(row.content.endsWith('z\n[message truncated]\n```')).toBe(true);
  });

  it('refuses bad requests with the reference errors and writes nothing', async () => {
    const id = await send({ type: 'stream', to: 'Verona', topic: 'test', content: 'x' });
    const hidden = await send({ type: 'stream', to: String(secret), topic: 'test', content: 'x' }, h.realm.owner);
    const before = await h.env.db.scheduledMessage.count();
    const ts = String(inSeconds(600));
    const cases: Array<[Record<string, string>, string]> = [
      [{ message_id: String(id), scheduled_delivery_timestamp: String(inSeconds(-60)) }, 'Scheduled delivery time must be in the future.'],
      [{ message_id: String(id) }, "Missing 'scheduled_delivery_timestamp' argument"],
      [{ scheduled_delivery_timestamp: ts }, "Missing 'message_id' argument"],
      [{ message_id: '123456789', scheduled_delivery_timestamp: ts }, 'Invalid message(s)'],
      [{ message_id: String(hidden), scheduled_delivery_timestamp: ts }, 'Invalid message(s)'],
      [{ message_id: String(id), scheduled_delivery_timestamp: ts, note: 'n'.repeat(1001) }, 'Maximum reminder note length: 1000 characters'],
    ];
    for (const [params, msg] of cases) {
      const res = await remind(params);
      expect({ params, status: res.status, msg: res.body.msg }).toEqual({ params, status: 400, msg });
    }
    expect(await h.env.db.scheduledMessage.count()).toBe(before);
    // A note of exactly the limit is fine.
    expect((await remind({ message_id: String(id), scheduled_delivery_timestamp: ts, note: 'n'.repeat(1000) })).status).toBe(200);
  });
});

describe('listing and deleting reminders', () => {
  it('lists soonest first and deletes for the user only, with a remove event', async () => {
    const { member, member2 } = h.realm;
    const id = await send({ type: 'stream', to: 'Verona', topic: 'order', content: 'x' });
    const late = await remind({ message_id: String(id), scheduled_delivery_timestamp: String(inSeconds(900_000)) });
    const early = await remind({ message_id: String(id), scheduled_delivery_timestamp: String(inSeconds(1)) });
    const ids = (await list()).body.reminders.map((r: { reminder_id: number }) => r.reminder_id);
    expect(ids.indexOf(early.body.reminder_id)).toBeLessThan(ids.indexOf(late.body.reminder_id));
    expect(ids.at(-1)).toBe(late.body.reminder_id);

    const del = (user = member) => h.api.delete(`/api/v1/reminders/${late.body.reminder_id}`).set(h.as(user));
    const other = await del(member2);
    expect([other.status, other.body.code, other.body.msg]).toEqual([404, 'NOT_FOUND', 'Reminder does not exist']);
    expect((await del()).status).toBe(200);
    expect(await lastEvent()).toEqual({ users: [member.id], event: { type: 'reminders', op: 'remove', reminder_id: late.body.reminder_id } });
    const again = await del();
    expect([again.status, again.body.msg]).toEqual([404, 'Reminder does not exist']);
    expect((await list()).body.reminders.map((r: { reminder_id: number }) => r.reminder_id)).not.toContain(late.body.reminder_id);
  });

  it('does not let the reminder endpoints touch scheduled messages', async () => {
    const sm = await h.api.post('/api/v1/scheduled_messages').set(h.as(h.realm.member)).type('form')
      .send({ type: 'channel', to: String(verona), topic: 't', content: 'x', scheduled_delivery_timestamp: String(inSeconds(600)) });
    const res = await h.api.delete(`/api/v1/reminders/${sm.body.scheduled_message_id}`).set(h.as(h.realm.member));
    expect([res.status, res.body.msg]).toEqual([404, 'Reminder does not exist']);
    expect((await list()).body.reminders.map((r: { reminder_id: number }) => r.reminder_id)).not.toContain(sm.body.scheduled_message_id);
  });
});
