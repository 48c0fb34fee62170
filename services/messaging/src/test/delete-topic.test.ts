/** POST /streams/{stream_id}/delete_topic: administrators delete a topic in batches, newest first. */
import { TEST_REALM_URL } from '@chat/testing';
import { doDeleteTopic } from '../actions/delete-topic';
import { loadActor } from '../lib/caller';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let denmark: number;
let secret: number;
beforeAll(async () => {
  h = await startHarness();
  const { owner, admin, member, member2 } = h.realm;
  denmark = await h.createStream(owner, { name: 'Denmark' }, [owner, admin, member, member2]);
  secret = await h.createStream(owner, { name: 'Secret', inviteOnly: true, historyPublicToSubscribers: false }, [owner, member]);
});
afterAll(() => h?.close());

async function send(topic: string, to = 'Denmark', user = h.realm.member) {
  const res = await h.api.post('/api/v1/messages').set(h.as(user)).type('form').send({ type: 'stream', to, topic, content: 'words' });
  expect(res.status).toBe(200);
  return res.body.id as number;
}
const deleteTopic = (streamId: number, topic: string, user = h.realm.admin) =>
  h.api.post(`/api/v1/streams/${streamId}/delete_topic`).set(h.as(user)).type('form').send({ topic_name: topic });

it('deletes every message of the topic (any case) in batches of 100, newest first, with delete_message events', async () => {
  const ids: number[] = [];
  for (let i = 0; i < 103; i++) ids.push(await send(i % 2 ? 'Ghosts' : 'ghosts'));
  const kept = await send('castle');
  await h.api.post('/api/v1/user_topics').set(h.as(h.realm.member2)).type('form').send({ stream_id: String(denmark), topic: 'ghosts', visibility_policy: '1' });
  const before = (await outboxEvents(h.env, 'delete_message')).length;
  const res = await deleteTopic(denmark, 'GHOSTS');
  expect(res.body).toEqual({ result: 'success', msg: '', complete: true });
  expect(await h.env.db.message.count({ where: { id: { in: ids } } })).toBe(0);
  expect(await h.env.db.message.count({ where: { id: kept } })).toBe(1);
  const events = (await outboxEvents(h.env, 'delete_message')).slice(before);
  expect(events.map((e) => e.event.message_ids.length)).toEqual([100, 3]);
  expect(events[0]!.event.message_ids).toEqual(ids.slice(3));
  expect(events[1]!.event).toMatchObject({ message_ids: ids.slice(0, 3), message_type: 'stream', stream_id: denmark });
  expect(events[0]!.users).toEqual(expect.arrayContaining([h.realm.member.id, h.realm.member2.id, h.realm.admin.id]));
  // The muted topic is gone, and so is its visibility setting.
  expect(await h.env.db.userTopic.count({ where: { streamId: denmark, topicKey: 'ghosts' } })).toBe(0);
  expect((await outboxEvents(h.env, 'user_topic')).at(-1)).toMatchObject({ users: [h.realm.member2.id], event: { topic_name: 'ghosts', visibility_policy: 0 } });
});

it('deletes only what the administrator can reach in a channel with protected history', async () => {
  const before = await send('plans', 'Secret');
  // Not subscribed, the administrator has no access to the channel's content.
  expect((await deleteTopic(secret, 'plans')).body.msg).toBe('Invalid channel ID');
  await h.api.post('/api/v1/users/me/subscriptions').set(h.as(h.realm.admin)).type('form').send({ subscriptions: JSON.stringify([{ name: 'Secret' }]) });
  const after = await send('plans', 'Secret');
  expect((await deleteTopic(secret, 'plans')).body.complete).toBe(true);
  expect(await h.env.db.message.count({ where: { id: before } })).toBe(1);
  expect(await h.env.db.message.count({ where: { id: after } })).toBe(0);
});

it('answers complete: false when the time budget runs out before the topic is gone', async () => {
  const id = await send('slow');
  const admin = h.realm.admin;
  const actor = await loadActor(h.env.db, { realmId: h.realm.realmId, realmUrl: TEST_REALM_URL, userId: admin.id, email: admin.email, role: admin.role, isBot: false });
  const services = { db: h.env.db, log: console, config: {} } as unknown as Parameters<typeof doDeleteTopic>[0];
  expect(await doDeleteTopic(services, actor, denmark, 'slow', 0)).toEqual({ complete: false });
  expect(await h.env.db.message.count({ where: { id } })).toBe(1);
  expect((await deleteTopic(denmark, 'slow')).body.complete).toBe(true);
});

it('refuses non-administrators and channels the administrator cannot see', async () => {
  const id = await send('kept');
  const res = await deleteTopic(denmark, 'kept', h.realm.moderator);
  expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
  expect((await deleteTopic(999999, 'kept')).body.msg).toBe('Invalid channel ID');
  expect((await h.api.post(`/api/v1/streams/${denmark}/delete_topic`).set(h.as(h.realm.admin))).body.msg).toBe("Missing 'topic_name' argument");
  expect(await h.env.db.message.count({ where: { id } })).toBe(1);
});
