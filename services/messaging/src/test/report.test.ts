/** POST /messages/{message_id}/report: the notification bot's report in the moderation request channel. */
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let moderation: number;
beforeAll(async () => {
  h = await startHarness();
  const { owner, admin, moderator, member, member2 } = h.realm;
  await h.createStream(owner, { name: 'Denmark' }, [owner, member, member2]);
  moderation = await h.createStream(owner, { name: 'Moderation', inviteOnly: true }, [admin, moderator]);
});
afterAll(() => h?.close());

async function setModerationChannel(id: number) {
  const realm = await h.env.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
  await h.env.db.realm.update({ where: { id: realm.id }, data: { settings: { ...(realm.settings as object), moderation_request_channel_id: id } } });
}

async function send(body: Record<string, string>, user = h.realm.member2) {
  const res = await h.api.post('/api/v1/messages').set(h.as(user)).type('form').send(body);
  expect(res.status).toBe(200);
  return res.body.id as number;
}
const report = (id: number, body: Record<string, string>, user = h.realm.member) =>
  h.api.post(`/api/v1/messages/${id}/report`).set(h.as(user)).type('form').send(body);

it('refuses reports while no moderation request channel is set', async () => {
  const id = await send({ type: 'stream', to: 'Denmark', topic: 'castle', content: 'rude words' });
  const res = await report(id, { report_type: 'spam' });
  expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Moderation request channel must be specified to enable message reporting.' });
});

it('posts a channel message report as the notification bot into the moderation channel', async () => {
  await setModerationChannel(moderation);
  const { member, member2, admin } = h.realm;
  const id = await send({ type: 'stream', to: 'Denmark', topic: 'castle', content: 'rude words' });
  const res = await report(id, { report_type: 'harassment', description: 'Not kind.' });
  expect(res.body).toEqual({ result: 'success', msg: '' });
  const posted = await h.env.db.message.findFirstOrThrow({ where: { streamId: moderation }, orderBy: { id: 'desc' } });
  const sent = await h.env.db.message.findUniqueOrThrow({ where: { id } });
  const time = sent.dateSent.toISOString().replace(/\.\d{3}Z$/, '+00:00');
  const nameOf = async (id: number) => (await h.env.db.user.findUniqueOrThrow({ where: { id } })).fullName;
  expect(posted.topic).toBe(`${await nameOf(member2.id)} moderation`);
  expect(posted.content).toBe(
    `@_**${await nameOf(member.id)}|${member.id}** reported a message sent by ` +
      `@_**${await nameOf(member2.id)}|${member2.id}** at <time:${time}>.\n` +
      '```quote\n**Harassment**. Not kind.\n```\n\n' +
      `\`\`\` spoiler Original message at #**Denmark>castle@${id}**\nrude words\n\`\`\``,
  );
  const bot = await h.env.db.user.findUniqueOrThrow({ where: { id: posted.senderId } });
  expect(bot).toMatchObject({ fullName: 'Notification Bot', isBot: true });
  const event = (await outboxEvents(h.env, 'message')).find((e) => e.event.message.id === posted.id)!;
  expect(event.users).toEqual(expect.arrayContaining([admin.id, h.realm.moderator.id]));
  expect(event.users).not.toContain(member.id);
});

it('names the recipients of a reported direct message', async () => {
  const { member, member2, owner } = h.realm;
  const names = new Map((await h.env.db.user.findMany({ where: { id: { in: [member.id, member2.id, owner.id] } } })).map((u) => [u.id, u.fullName]));
  const m = (id: number) => `@_**${names.get(id)}|${id}**`;
  const dm = await send({ type: 'private', to: JSON.stringify([member.id]), content: 'psst' });
  expect((await report(dm, { report_type: 'spam' })).status).toBe(200);
  let posted = await h.env.db.message.findFirstOrThrow({ where: { streamId: moderation }, orderBy: { id: 'desc' } });
  expect(posted.content.split('\n')[0]).toMatch(new RegExp(`^${escape(m(member.id))} reported a direct message sent by ${escape(m(member2.id))} at <time:`));
  const ids = [member.id, member2.id].sort((a, b) => a - b).join(',');
  expect(posted.content).toContain(`\`\`\` spoiler [Original message](http://`);
  expect(posted.content).toContain(`/#narrow/dm/${ids}/near/${dm}`);
  const group = await send({ type: 'private', to: JSON.stringify([member.id, owner.id]), content: 'psst all' });
  expect((await report(group, { report_type: 'other', description: 'odd' })).status).toBe(200);
  posted = await h.env.db.message.findFirstOrThrow({ where: { streamId: moderation }, orderBy: { id: 'desc' } });
  const others = [m(member.id), m(owner.id)].sort();
  expect(posted.content.split('\n')[0]).toContain(`sent by ${m(member2.id)} to ${others[0]} and ${others[1]} at <time:`);
  expect(posted.content).toContain('**Other reason**. odd');
  expect(posted.content).toContain('-group/near/');
});

it("gives the family's errors for bad input and inaccessible messages", async () => {
  const id = await send({ type: 'stream', to: 'Denmark', topic: 'castle', content: 'more' });
  const cases: Array<[Record<string, string>, string]> = [
    [{ report_type: 'boring' }, 'Invalid report_type'],
    [{ report_type: 'other' }, 'An explanation is required.'],
    [{ report_type: 'spam', description: 'x'.repeat(1001) }, 'description is too long (limit: 1000 characters)'],
  ];
  for (const [body, msg] of cases) expect((await report(id, body)).body.msg).toBe(msg);
  expect((await report(id, {})).body.msg).toBe("Missing 'report_type' argument");
  const dm = await send({ type: 'private', to: JSON.stringify([h.realm.owner.id]), content: 'private' });
  expect((await report(dm, { report_type: 'spam' })).body.msg).toBe('Invalid message(s)');
  expect((await report(999999, { report_type: 'spam' })).body.msg).toBe('Invalid message(s)');
});

function escape(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
