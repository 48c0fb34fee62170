import { flagNames } from '@chat/contracts';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let denmark: number;
let verona: number;

beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2 } = h.realm;
  denmark = await h.createStream(owner, { name: 'Denmark' }, [owner, member, member2]);
  verona = await h.createStream(owner, { name: 'Verona' }, [owner, member]);
});
afterAll(() => h?.close());

async function send(topic: string, content = 'hello', to = 'Denmark', user = h.realm.member) {
  const res = await h.api.post('/api/v1/messages').set(h.as(user)).type('form').send({ type: 'stream', to, topic, content });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

const patch = (id: number, body: Record<string, string>, user = h.realm.member) =>
  h.api.patch(`/api/v1/messages/${id}`).set(h.as(user)).type('form').send(body);

/** Messages of a topic as stored, oldest first, with their sender. */
async function topicMessages(streamId: number, topic: string) {
  return h.env.db.message.findMany({ where: { streamId, topic }, orderBy: { id: 'asc' }, include: { sender: true } });
}

const by = () => `@_**${h.realm.member.fullName}|${h.realm.member.id}**`;

describe('move notices', () => {
  it('tells the new topic where a whole topic came from, sent by the notification bot like any message', async () => {
    const a = await send('old place');
    await send('old place');
    expect((await patch(a, { topic: 'new place', propagate_mode: 'change_all' })).status).toBe(200);

    const moved = await topicMessages(denmark, 'new place');
    expect(moved).toHaveLength(3);
    const notice = moved[2];
    expect(notice.content).toBe(`This topic was moved here from #**Denmark>old place** by ${by()}.`);
    expect(notice.sender).toMatchObject({ fullName: 'Notification Bot', isBot: true, isActive: true, realmId: h.realm.realmId });
    expect(notice.renderedContent).toContain('class="stream-topic"');
    // Nothing is posted to the old topic unless asked.
    expect(await topicMessages(denmark, 'old place')).toHaveLength(0);

    // Subscribers get copies and a message event; the mover's copy starts read.
    const copies = await h.env.db.userMessage.findMany({ where: { messageId: notice.id } });
    const { owner, member, member2 } = h.realm;
    expect(copies.map((c) => c.userId).sort()).toEqual([owner.id, member.id, member2.id, notice.senderId].sort());
    const flags = Object.fromEntries(copies.map((c) => [c.userId, flagNames(BigInt(c.flags))]));
    expect(flags[member.id]).toContain('read');
    expect(flags[member2.id]).not.toContain('read');
    const event = (await outboxEvents(h.env, 'message')).find((e) => e.event.message.id === notice.id)!;
    expect(event.event.message).toMatchObject({ sender_full_name: 'Notification Bot', subject: 'new place', stream_id: denmark });
    expect(event.users.sort()).toEqual(copies.map((c) => c.userId).sort());
    expect(event.user_flags[member.id]).toContain('read');

    // The bot was created once and announced; a later move reuses it.
    const b = await send('again');
    await patch(b, { topic: 'again 2' });
    const [second] = await topicMessages(denmark, 'again 2').then((ms) => ms.filter((m) => m.sender.isBot));
    expect(second.senderId).toBe(notice.senderId);
    expect(await h.env.db.user.count({ where: { realmId: h.realm.realmId, fullName: 'Notification Bot' } })).toBe(1);
    expect((await outboxEvents(h.env, 'realm_user')).some((e) => e.event.person?.user_id === notice.senderId)).toBe(true);
  });

  it('uses the singular and plural texts when only part of a topic moves, and notifies the old topic on request', async () => {
    const a = await send('split');
    const b = await send('split');
    const c = await send('split');
    expect((await patch(c, { topic: 'one', send_notification_to_old_thread: 'true' })).status).toBe(200);
    const one = await topicMessages(denmark, 'one');
    expect(one[1].content).toMatch(
      new RegExp(`^\\[A message\\]\\(http[^)]+/#narrow/channel/${denmark}-Denmark/topic/one/near/${c}\\) was moved here from #\\*\\*Denmark>split\\*\\* by `),
    );
    let old = await topicMessages(denmark, 'split');
    expect(old.at(-1)!.content).toBe(`A message was moved from this topic to #**Denmark>one** by ${by()}.`);

    expect((await patch(a, { topic: 'two', propagate_mode: 'change_later', send_notification_to_old_thread: 'true', send_notification_to_new_thread: 'false' })).status).toBe(200);
    // a, b and the earlier notice moved (three messages); no notice in the new topic.
    const two = await topicMessages(denmark, 'two');
    expect(two.map((m) => m.id).slice(0, 2)).toEqual([a, b]);
    expect(two).toHaveLength(3);
    expect(two[2].content).toMatch(/^A message was moved from this topic/);
    old = await topicMessages(denmark, 'split');
    expect(old.at(-1)!.content).toBe(`This topic was moved to #**Denmark>two** by ${by()}.`);
  });

  it('counts moved messages when they join a topic that already has messages', async () => {
    await send('target');
    const a = await send('source');
    await send('source');
    expect((await patch(a, { topic: 'target', propagate_mode: 'change_all', send_notification_to_old_thread: 'true' })).status).toBe(200);
    const target = await topicMessages(denmark, 'target');
    expect(target.at(-1)!.content).toBe(`2 messages were moved here from #**Denmark>source** by ${by()}.`);
    // change_all moved everything visible, so the old topic hears the whole topic went.
    expect((await topicMessages(denmark, 'source')).map((m) => m.content)).toEqual([`This topic was moved to #**Denmark>target** by ${by()}.`]);
  });

  it('leaves notices in both channels on a channel move', async () => {
    const a = await send('trip');
    await send('trip');
    await send('trip');
    const res = await patch(a, { stream_id: String(verona), propagate_mode: 'change_later', send_notification_to_old_thread: 'true' });
    expect(res.status).toBe(200);
    expect((await topicMessages(verona, 'trip')).at(-1)!.content).toBe(`This topic was moved here from #**Denmark>trip** by ${by()}.`);
    expect((await topicMessages(denmark, 'trip')).at(-1)!.content).toBe(`This topic was moved to #**Verona>trip** by ${by()}.`);
  });

  it('announces resolving and unresolving instead of a move notice', async () => {
    const a = await send('bug');
    expect((await patch(a, { topic: '✔ bug', propagate_mode: 'change_all' })).status).toBe(200);
    const resolved = await topicMessages(denmark, '✔ bug');
    expect(resolved.map((m) => m.content)).toEqual(['hello', `${by()} has marked this topic as resolved.`]);
    // Default auto-read policy (except_followed): read for non-followers.
    const copy = await h.env.db.userMessage.findUniqueOrThrow({ where: { userId_messageId: { userId: h.realm.member2.id, messageId: resolved[1].id } } });
    expect(flagNames(BigInt(copy.flags))).toContain('read');

    // A minute later, unresolving is news of its own.
    await h.env.db.message.update({ where: { id: resolved[1].id }, data: { dateSent: new Date(Date.now() - 61_000) } });
    expect((await patch(a, { topic: 'bug', propagate_mode: 'change_all' })).status).toBe(200);
    const back = await topicMessages(denmark, 'bug');
    expect(back.map((m) => m.content)).toEqual(['hello', `${by()} has marked this topic as resolved.`, `${by()} has marked this topic as unresolved.`]);
  });

  it('takes a resolve notice back when the resolve is undone within a minute', async () => {
    const a = await send('typo');
    await patch(a, { topic: '✔ typo', propagate_mode: 'change_all' });
    const [, notice] = await topicMessages(denmark, '✔ typo');
    expect((await patch(a, { topic: 'typo', propagate_mode: 'change_all' })).status).toBe(200);
    expect((await topicMessages(denmark, 'typo')).map((m) => m.content)).toEqual(['hello']);
    expect(await h.env.db.message.findUnique({ where: { id: notice.id } })).toBeNull();
    // Someone else's message after the notice: the notice stays and the unresolve is announced.
    await patch(a, { topic: '✔ typo', propagate_mode: 'change_all' });
    await send('✔ typo');
    await patch(a, { topic: 'typo', propagate_mode: 'change_all' });
    expect((await topicMessages(denmark, 'typo')).map((m) => m.content)).toEqual([
      'hello', `${by()} has marked this topic as resolved.`, 'hello', `${by()} has marked this topic as unresolved.`,
    ]);
  });

  it('leaves resolve notices unread for subscribers whose policy says never', async () => {
    const { member2 } = h.realm;
    const u = await h.env.db.user.findUniqueOrThrow({ where: { id: member2.id } });
    await h.env.db.user.update({ where: { id: member2.id }, data: { settings: { ...(u.settings as object), resolved_topic_notice_auto_read_policy: 'never' } } });
    const a = await send('crash');
    await patch(a, { topic: '✔ crash', propagate_mode: 'change_all' });
    const [, notice] = await topicMessages(denmark, '✔ crash');
    const copy = await h.env.db.userMessage.findUniqueOrThrow({ where: { userId_messageId: { userId: member2.id, messageId: notice.id } } });
    expect(flagNames(BigInt(copy.flags))).not.toContain('read');
  });
});
