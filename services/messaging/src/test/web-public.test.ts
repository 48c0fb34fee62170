/** Guests and web-public channels: guests see them, read their history and hear of their changes. */
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let globe = 0;
let plain = 0;
beforeAll(async () => {
  h = await startHarness();
  globe = await h.createStream(h.realm.owner, { name: 'Globe', isWebPublic: true }, [h.realm.owner, h.realm.member]);
  plain = await h.createStream(h.realm.owner, { name: 'Plain' }, [h.realm.owner, h.realm.member]);
});
afterAll(() => h?.close());

const send = async (to: string) => {
  const res = await h.api.post('/api/v1/messages').set(h.as(h.realm.member)).type('form').send({ type: 'stream', to, topic: 'stage', content: `in ${to}` });
  expect(res.status).toBe(200);
  return res.body.id as number;
};

it('announces a web-public channel to guests too, and an ordinary public one to non-guests only', async () => {
  const created = (await outboxEvents(h.env, 'stream')).filter((e) => e.event.op === 'create');
  const to = (id: number) => created.find((e) => e.event.streams[0].stream_id === id)!.users as number[];
  expect(to(globe)).toContain(h.realm.guest.id);
  expect(to(plain)).not.toContain(h.realm.guest.id);
  expect(to(globe).sort()).toEqual([...to(plain), h.realm.guest.id].sort());
});

it('lets a guest read a web-public channel\'s history, react, and see its members, but not an ordinary channel\'s', async () => {
  const inGlobe = await send('Globe');
  const inPlain = await send('Plain');
  const guest = h.as(h.realm.guest);
  const narrow = (name: string) => JSON.stringify([{ operator: 'channel', operand: name }]);
  const read = await h.api.get('/api/v1/messages').set(guest).query({ anchor: 'newest', num_before: 10, num_after: 0, narrow: narrow('Globe') });
  expect(read.status).toBe(200);
  expect(read.body.messages.map((m: { id: number }) => m.id)).toEqual([inGlobe]);
  expect(read.body.messages[0].flags).toEqual(['read', 'historical']);
  expect((await h.api.get(`/api/v1/messages/${inGlobe}`).set(guest)).status).toBe(200);
  expect((await h.api.get(`/api/v1/messages/${inPlain}`).set(guest)).body.msg).toBe('Invalid message(s)');
  expect((await h.api.post(`/api/v1/messages/${inGlobe}/reactions`).set(guest).type('form').send({ emoji_name: 'smile' })).status).toBe(200);
  const members = await h.api.get(`/api/v1/streams/${globe}/members`).set(guest);
  expect(members.body.subscribers).toEqual([h.realm.owner.id, h.realm.member.id].sort((a, b) => a - b));
  expect((await h.api.get(`/api/v1/streams/${plain}/members`).set(guest)).body.msg).toBe('Invalid channel ID');
  expect((await h.api.get('/api/v1/get_stream_id').set(guest).query({ stream: 'Globe' })).body.stream_id).toBe(globe);
});

it('tells guests of new subscribers and lets a guest join a web-public channel', async () => {
  const joined = await h.api.post('/api/v1/users/me/subscriptions').set(h.as(h.realm.member2)).type('form').send({ subscriptions: JSON.stringify([{ name: 'Globe' }]) });
  expect(joined.status).toBe(200);
  const peer = (await outboxEvents(h.env, 'subscription')).filter((e) => e.event.op === 'peer_add' && e.event.stream_ids.includes(globe)).at(-1)!;
  expect(peer.users).toContain(h.realm.guest.id);
  const guestJoins = await h.api.post('/api/v1/users/me/subscriptions').set(h.as(h.realm.guest)).type('form').send({ subscriptions: JSON.stringify([{ name: 'Globe' }]) });
  expect(guestJoins.status).toBe(200);
  expect(guestJoins.body.subscribed).toEqual({ [h.realm.guest.id]: ['Globe'] });
  const refused = await h.api.post('/api/v1/users/me/subscriptions').set(h.as(h.realm.guest)).type('form').send({ subscriptions: JSON.stringify([{ name: 'Plain' }]) });
  expect(refused.body.result).toBe('error');
});
