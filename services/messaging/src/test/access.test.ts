// Nobody reads, reacts to, flags, edits or learns the history of a message they may not see.
import { startHarness, type Harness } from './support';

let h: Harness;
let dm: number;
let secretMsg: number;
let publicMsg: number;

beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2, admin } = h.realm;
  await h.createStream(owner, { name: 'Denmark' }, [owner, member]);
  await h.createStream(admin, { name: 'secret', inviteOnly: true }, [admin, member]);
  const send = async (body: Record<string, string>) => (await h.api.post('/api/v1/messages').set(h.as(member)).type('form').send(body)).body.id as number;
  dm = await send({ type: 'direct', to: JSON.stringify([member2.id]), content: 'just us' });
  secretMsg = await send({ type: 'stream', to: 'secret', topic: 't', content: 'hidden' });
  publicMsg = await send({ type: 'stream', to: 'Denmark', topic: 't', content: 'open' });
});
afterAll(() => h?.close());

type U = Parameters<Harness['as']>[0];
const attempts = (user: U, id: number) => [
  h.api.get(`/api/v1/messages/${id}`).set(h.as(user)),
  h.api.get(`/api/v1/messages/${id}/history`).set(h.as(user)),
  h.api.post(`/api/v1/messages/${id}/reactions`).set(h.as(user)).type('form').send({ emoji_name: 'heart' }),
  h.api.post('/api/v1/messages/flags').set(h.as(user)).type('form').send({ messages: JSON.stringify([id]), op: 'add', flag: 'starred' }),
  h.api.patch(`/api/v1/messages/${id}`).set(h.as(user)).type('form').send({ topic: 'moved' }),
  h.api.delete(`/api/v1/messages/${id}`).set(h.as(user)),
  h.api.post(`/api/v1/messages/${id}/typing`).set(h.as(user)).type('form').send({ op: 'start' }),
];

describe('access', () => {
  it.each([
    ['another pair’s direct message', () => dm, () => h.realm.owner],
    ['a private channel message, for a non-subscriber', () => secretMsg, () => h.realm.member2],
    ['a private channel message, for the owner who is not subscribed', () => secretMsg, () => h.realm.owner],
    ['a public channel message, for a guest', () => publicMsg, () => h.realm.guest],
  ])('refuses %s', async (_name, id, user) => {
    for (const res of await Promise.all(attempts(user(), id()))) {
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
    }
    expect(await h.env.db.reaction.count()).toBe(0);
    expect(await h.env.db.message.count({ where: { id: id() } })).toBe(1);
  });

  it('lets a recipient read and react to their direct message', async () => {
    const res = await h.api.get(`/api/v1/messages/${dm}`).set(h.as(h.realm.member2));
    expect(res.body.message.content).toBe('<p>just us</p>');
  });

  it('never lists a channel a user may not see', async () => {
    const guest = await h.api.get('/api/v1/streams').set(h.as(h.realm.guest));
    expect(guest.body.streams).toEqual([]);
    const secret = await h.env.db.stream.findFirstOrThrow({ where: { name: 'secret' } });
    expect((await h.api.get(`/api/v1/streams/${secret.id}`).set(h.as(h.realm.member2))).body.msg).toBe('Invalid channel ID');
    expect((await h.api.get(`/api/v1/streams/${secret.id}/members`).set(h.as(h.realm.member2))).body.msg).toBe('Invalid channel ID');
    expect((await h.api.get(`/api/v1/users/me/${secret.id}/topics`).set(h.as(h.realm.member2))).body.msg).toBe('Invalid channel ID');
    // Administrators see private channels' metadata.
    expect((await h.api.get(`/api/v1/streams/${secret.id}`).set(h.as(h.realm.admin))).body.stream.name).toBe('secret');
  });
});
