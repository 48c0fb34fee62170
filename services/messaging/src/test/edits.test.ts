import { flagNames } from '@chat/contracts';
import { TEST_REALM_URL, type SeededUser } from '@chat/testing';
import { checkEditMessage, doEditMessage } from '../actions/edit';
import { loadActor } from '../lib/caller';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let denmark: number;
let verona: number;
let secret: number;

beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2, admin } = h.realm;
  denmark = await h.createStream(owner, { name: 'Denmark' }, [owner, member, member2]);
  verona = await h.createStream(owner, { name: 'Verona' }, [owner, member]);
  secret = await h.createStream(admin, { name: 'secret', inviteOnly: true }, [admin, member]);
});
afterAll(() => h?.close());

async function send(user = h.realm.member, topic = 'castle', content = 'original **text**', to = 'Denmark') {
  const res = await h.api.post('/api/v1/messages').set(h.as(user)).type('form').send({ type: 'stream', to, topic, content });
  expect(res.status).toBe(200);
  return res.body.id as number;
}

const patch = (id: number, body: Record<string, string>, user = h.realm.member) =>
  h.api.patch(`/api/v1/messages/${id}`).set(h.as(user)).type('form').send(body);

describe('content edits', () => {
  it("gives each recipient's flags without the server's internal ones", async () => {
    const res = await h.api.post('/api/v1/messages').set(h.as(h.realm.member)).type('form')
      .send({ type: 'direct', to: JSON.stringify([h.realm.member2.id]), content: 'hi @**Othello**' });
    expect(res.status).toBe(200);
    const id = res.body.id as number;
    const copy = await h.env.db.userMessage.findFirstOrThrow({ where: { messageId: id, userId: h.realm.member2.id } });
    // The direct-message bit is set in the row, and must not reach clients.
    expect(flagNames(BigInt(copy.flags))).toContain('is_private');
    const sent = (await outboxEvents(h.env, 'message')).find((e) => e.event.message.id === id)!;
    expect(sent.user_flags[String(h.realm.member2.id)]).toEqual(['mentioned']);
    expect((await patch(id, { content: 'hello again' })).status).toBe(200);
    const event = (await outboxEvents(h.env, 'update_message')).find((e) => e.event.message_id === id)!;
    expect(event.event).toMatchObject({ rendering_only: false, message_ids: [id], edit_timestamp: expect.any(Number) });
    expect(event.user_flags[String(h.realm.member2.id)]).toEqual([]);
    for (const flags of Object.values(event.user_flags as Record<string, string[]>)) {
      expect(flags.filter((f) => ['is_private', 'active_mobile_push_notification'].includes(f))).toEqual([]);
    }
    const fetched = await h.api.get(`/api/v1/messages/${id}`).set(h.as(h.realm.member2));
    expect(fetched.body.message.flags).toEqual([]);
  });

  it('edits content, keeps history with a diff, and tells everyone who sees the message', async () => {
    const id = await send();
    const res = await patch(id, { content: 'edited **text** now' });
    expect(res.status).toBe(200);
    const event = (await outboxEvents(h.env, 'update_message')).find((e) => e.event.message_id === id)!;
    expect(event.event).toMatchObject({
      orig_content: 'original **text**',
      content: 'edited **text** now',
      rendered_content: '<p>edited <strong>text</strong> now</p>',
      message_ids: [id],
      user_id: h.realm.member.id,
    });
    expect(event.users.sort()).toEqual([h.realm.owner.id, h.realm.member.id, h.realm.member2.id].sort());

    const fetched = await h.api.get(`/api/v1/messages/${id}`).set(h.as(h.realm.member2));
    expect(fetched.body.message.edit_history).toEqual([
      expect.objectContaining({ user_id: h.realm.member.id, prev_content: 'original **text**', prev_rendered_content: '<p>original <strong>text</strong></p>' }),
    ]);
    expect(fetched.body.message.last_edit_timestamp).toEqual(expect.any(Number));
    expect(fetched.body.message.last_moved_timestamp).toBeUndefined();
    expect(fetched.body.raw_content).toBe('edited **text** now');

    const history = await h.api.get(`/api/v1/messages/${id}/history`).set(h.as(h.realm.member2));
    expect(history.status).toBe(200);
    const [first, second] = history.body.message_history;
    expect(Object.keys(first).sort()).toEqual(['content', 'rendered_content', 'timestamp', 'topic', 'user_id']);
    expect(first).toMatchObject({ content: 'original **text**', topic: 'castle', user_id: h.realm.member.id });
    expect(second).toMatchObject({
      content: 'edited **text** now',
      prev_content: 'original **text**',
      topic: 'castle',
      content_html_diff: '<p><span class="highlight_text_deleted">original</span><span class="highlight_text_inserted">edited</span> <strong>text</strong><span class="highlight_text_inserted"> now</span></p>',
    });
  });

  it("refuses someone else's message, an unknown one, and history of one the user cannot see", async () => {
    const id = await send();
    expect((await patch(id, { content: 'x' }, h.realm.member2)).body.msg).toBe("You don't have permission to edit this message");
    expect((await patch(999999, { content: 'x' })).body.msg).toBe('Invalid message(s)');
    const hidden = await send(h.realm.member, 't', 'psst', 'secret');
    const res = await h.api.get(`/api/v1/messages/${hidden}/history`).set(h.as(h.realm.member2));
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    expect((await patch(id, {})).body.msg).toBe('Nothing to change');
  });

  it('re-checks alert words on a content edit and sends each recipient its new flags', async () => {
    const { member, member2, owner } = h.realm;
    await h.env.db.alertWord.create({ data: { realmId: h.realm.realmId, userId: member2.id, word: 'dragon' } });
    await h.env.db.alertWord.create({ data: { realmId: h.realm.realmId, userId: member.id, word: 'dragon' } });
    const id = await send(member, 'lair', 'nothing to see');
    const alerted = async () =>
      (await h.env.db.userMessage.findMany({ where: { messageId: id } }))
        .filter((r) => flagNames(BigInt(r.flags)).includes('has_alert_word'))
        .map((r) => r.userId);
    expect(await alerted()).toEqual([]);

    expect((await patch(id, { content: 'here be a Dragon' })).status).toBe(200);
    // The sender's own alert word does not flag their message, as on sending.
    expect(await alerted()).toEqual([member2.id]);
    let event = (await outboxEvents(h.env, 'update_message')).filter((e) => e.event.message_id === id).at(-1)!;
    expect(event.user_flags[String(member2.id)]).toContain('has_alert_word');
    expect(event.user_flags[String(owner.id)]).not.toContain('has_alert_word');
    expect(event.user_flags[String(member.id)]).not.toContain('has_alert_word');

    expect((await patch(id, { content: 'here be dragonflies' })).status).toBe(200);
    expect(await alerted()).toEqual([]);
    event = (await outboxEvents(h.env, 'update_message')).filter((e) => e.event.message_id === id).at(-1)!;
    expect(event.user_flags[String(member2.id)]).not.toContain('has_alert_word');
  });

  it('enforces the edit time limit', async () => {
    const id = await send();
    await h.env.db.message.update({ where: { id }, data: { dateSent: new Date(Date.now() - 3600 * 1000) } });
    expect((await patch(id, { content: 'late' })).body.msg).toBe('The time limit for editing this message has passed');
  });
});

describe('moves', () => {
  it('renames a topic for later messages only with change_later', async () => {
    const a = await send(h.realm.member, 'old topic', 'a');
    const b = await send(h.realm.member2, 'old topic', 'b');
    const c = await send(h.realm.member, 'old topic', 'c');
    const res = await patch(b, { topic: 'new topic', propagate_mode: 'change_later' });
    expect(res.status).toBe(200);
    const topics = await h.env.db.message.findMany({ where: { id: { in: [a, b, c] } }, orderBy: { id: 'asc' }, select: { topic: true, lastMovedTime: true } });
    expect(topics.map((t) => t.topic)).toEqual(['old topic', 'new topic', 'new topic']);
    const event = (await outboxEvents(h.env, 'update_message')).find((e) => e.event.message_id === b)!;
    expect(event.event).toMatchObject({ orig_subject: 'old topic', subject: 'new topic', propagate_mode: 'change_later', message_ids: [b, c], stream_id: denmark });
    const fetched = await h.api.get(`/api/v1/messages/${c}`).set(h.as(h.realm.member));
    expect(fetched.body.message.edit_history[0]).toMatchObject({ prev_topic: 'old topic', topic: 'new topic' });
    expect(fetched.body.message.last_moved_timestamp).toEqual(expect.any(Number));
    expect(fetched.body.message.last_edit_timestamp).toBeUndefined();
  });

  it('resolving a topic is not a move', async () => {
    const id = await send(h.realm.member, 'question');
    expect((await patch(id, { topic: '✔ question', propagate_mode: 'change_all' })).status).toBe(200);
    const m = await h.env.db.message.findUniqueOrThrow({ where: { id } });
    expect(m.topic).toBe('✔ question');
    expect(m.lastMovedTime).toBeNull();
    const resolved = await h.api
      .get('/api/v1/messages')
      .set(h.as(h.realm.member))
      .query({ anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'resolved' }]) });
    // The message and the notification bot's "marked this topic as resolved" notice.
    const [first, notice] = resolved.body.messages;
    expect(resolved.body.messages).toHaveLength(2);
    expect(first.id).toBe(id);
    expect(notice.content).toContain('has marked this topic as resolved.');
  });

  it('moves a whole topic to another channel, recording both channels in history', async () => {
    const id = await send(h.realm.member, 'travel');
    const res = await patch(id, { stream_id: String(verona), propagate_mode: 'change_all' }, h.realm.member);
    expect(res.status).toBe(200);
    const m = await h.env.db.message.findUniqueOrThrow({ where: { id } });
    expect(m.streamId).toBe(verona);
    const event = (await outboxEvents(h.env, 'update_message')).find((e) => e.event.message_id === id && e.event.new_stream_id)!;
    // Every field the family's clients read to follow a move; the topic did not change.
    expect(event.event).toMatchObject({
      stream_id: denmark,
      new_stream_id: verona,
      orig_subject: 'travel',
      propagate_mode: 'change_all',
      rendering_only: false,
      message_ids: [id],
      edit_timestamp: expect.any(Number),
    });
    expect(event.event).not.toHaveProperty('subject');
    const history = await h.api.get(`/api/v1/messages/${id}/history`).set(h.as(h.realm.member));
    expect(history.body.message_history[1]).toMatchObject({ prev_stream: denmark, stream: verona });
    // member2 is not in Verona but it is public: still readable, so no deletion for them.
    expect((await outboxEvents(h.env, 'delete_message')).some((e) => e.event.message_ids.includes(id))).toBe(false);
  });

  it('moving into a private channel takes the messages from those who cannot read it', async () => {
    const id = await send(h.realm.member, 'leak');
    const res = await patch(id, { stream_id: String(secret) });
    expect(res.status).toBe(200);
    const gone = (await outboxEvents(h.env, 'delete_message')).find((e) => e.event.message_ids.includes(id))!;
    expect(gone.users.sort()).toEqual([h.realm.owner.id, h.realm.member2.id].sort());
    const fetch = await h.api.get(`/api/v1/messages/${id}`).set(h.as(h.realm.member2));
    expect(fetch.body.msg).toBe('Invalid message(s)');
    // Subscribers of the private channel (protected history) got copies.
    expect(await h.env.db.userMessage.count({ where: { messageId: id, userId: h.realm.admin.id } })).toBe(1);
  });

  it('refuses topics on direct messages', async () => {
    const dm = await h.api.post('/api/v1/messages').set(h.as(h.realm.member)).type('form').send({ type: 'direct', to: JSON.stringify([h.realm.member2.id]), content: 'hi' });
    expect((await patch(dm.body.id, { topic: 'x' })).body.msg).toBe('Direct messages cannot have topics.');
    expect((await patch(dm.body.id, { content: 'x', propagate_mode: 'bogus' })).body.msg).toBe('Invalid propagate_mode');
  });
});

describe('delete', () => {
  it('lets the sender delete their message, and tells its readers', async () => {
    const id = await send();
    expect((await h.api.delete(`/api/v1/messages/${id}`).set(h.as(h.realm.member2))).body.msg).toBe("You don't have permission to delete this message");
    const res = await h.api.delete(`/api/v1/messages/${id}`).set(h.as(h.realm.member));
    expect(res.status).toBe(200);
    expect(await h.env.db.message.count({ where: { id } })).toBe(0);
    const event = (await outboxEvents(h.env, 'delete_message')).find((e) => e.event.message_ids.includes(id))!;
    expect(event.event).toEqual({ type: 'delete_message', message_ids: [id], message_type: 'stream', stream_id: denmark, topic: 'castle' });
  });

  it('lets administrators delete any message', async () => {
    const id = await send();
    expect((await h.api.delete(`/api/v1/messages/${id}`).set(h.as(h.realm.admin))).status).toBe(200);
  });
});

describe('per-recipient flags of update_message', () => {
  it('carries each recipient\'s flags after the edit, and read for readers without a copy', async () => {
    const { member, member2, moderator } = h.realm;
    await h.createStream(member, { name: 'Flags' }, [member, member2]);
    const id = await send(member, 'flags', 'plain', 'Flags');
    // The moderator joins later: no copy, reads the message through the channel's history.
    const joined = await h.api.post('/api/v1/users/me/subscriptions').set(h.as(moderator)).type('form').send({ subscriptions: JSON.stringify([{ name: 'Flags' }]) });
    expect(joined.status).toBe(200);
    expect((await patch(id, { content: `now for @**${member2.fullName}**` })).status).toBe(200);
    const event = (await outboxEvents(h.env, 'update_message')).find((e) => e.event.message_id === id)!;
    expect(event.users.sort()).toEqual([member.id, member2.id, moderator.id].sort());
    expect(event.user_flags[member2.id]).toEqual(['mentioned']);
    expect(event.user_flags[moderator.id]).toEqual(['read']);
    const own = await h.env.db.userMessage.findUniqueOrThrow({ where: { userId_messageId: { userId: member.id, messageId: id } } });
    expect(event.user_flags[member.id]).toEqual(flagNames(BigInt(own.flags)));
    expect(event.event).not.toHaveProperty('flags');

    // Editing the mention away clears it from the mentioned user's flags.
    expect((await patch(id, { content: 'plain again' })).status).toBe(200);
    const again = (await outboxEvents(h.env, 'update_message')).filter((e) => e.event.message_id === id).at(-1)!;
    expect(again.user_flags[member2.id]).toEqual([]);
  });
});

describe('checkEditMessage and doEditMessage', () => {
  const actorOf = (user: SeededUser) =>
    loadActor(h.env.db, { realmId: h.realm.realmId, realmUrl: TEST_REALM_URL, userId: user.id, email: user.email, role: user.role, isBot: user.isBot });
  const deps = () => ({ db: h.env.db });

  it('checks and renders without writing anything', async () => {
    const id = await send();
    const before = await h.env.db.message.findUniqueOrThrow({ where: { id } });
    const events = await h.env.db.outboxEvent.count();
    const plan = await checkEditMessage(h.env.db, await actorOf(h.realm.member), id, { content: 'checked **only**', topic: 'elsewhere', propagateMode: 'change_one' });
    expect(plan.content?.rendered.html).toBe('<p>checked <strong>only</strong></p>');
    expect(plan.move).toMatchObject({ newTopic: 'elsewhere', target: null });
    expect(await h.env.db.message.findUniqueOrThrow({ where: { id } })).toEqual(before);
    expect(await h.env.db.outboxEvent.count()).toBe(events);
  });

  it('follows an edit that committed between the check and the write', async () => {
    const actor = await actorOf(h.realm.member);
    const id = await send();
    const plan = await checkEditMessage(h.env.db, actor, id, { content: 'last word', propagateMode: 'change_one' });
    expect((await patch(id, { content: 'in between' })).status).toBe(200);
    await doEditMessage(deps(), actor, plan);
    const message = await h.env.db.message.findUniqueOrThrow({ where: { id } });
    expect(message.content).toBe('last word');
    const history = message.editHistory as Array<Record<string, unknown>>;
    expect(history.map((e) => e.prev_content)).toEqual(['in between', 'original **text**']);
    const last = (await outboxEvents(h.env, 'update_message')).filter((e) => e.event.message_id === id).at(-1)!;
    expect(last.event).toMatchObject({ orig_content: 'in between', content: 'last word' });
  });

  it('refuses the write when the message went away after the check', async () => {
    const actor = await actorOf(h.realm.member);
    const id = await send();
    const plan = await checkEditMessage(h.env.db, actor, id, { content: 'too late', propagateMode: 'change_one' });
    expect((await h.api.delete(`/api/v1/messages/${id}`).set(h.as(h.realm.admin))).status).toBe(200);
    await expect(doEditMessage(deps(), actor, plan)).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Invalid message(s)' });
  });
});
