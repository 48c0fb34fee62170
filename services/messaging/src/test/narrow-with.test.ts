/** The `with` narrow operator of GET /messages: the conversation a message is in now. */
import { startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2 } = h.realm;
  await h.createStream(owner, { name: 'Denmark' }, [owner, member, member2]);
});
afterAll(() => h?.close());

async function send(body: Record<string, string>, user = h.realm.member) {
  const res = await h.api.post('/api/v1/messages').set(h.as(user)).type('form').send(body);
  expect(res.status).toBe(200);
  return res.body.id as number;
}
const fetchIds = async (narrow: unknown[], user = h.realm.member) => {
  const res = await h.api.get('/api/v1/messages').set(h.as(user)).query({ anchor: 'newest', num_before: '50', num_after: '0', narrow: JSON.stringify(narrow) });
  return res;
};

it('follows a message to the topic it was moved to', async () => {
  const a = await send({ type: 'stream', to: 'Denmark', topic: 'castle', content: 'one' });
  const b = await send({ type: 'stream', to: 'Denmark', topic: 'castle', content: 'two' });
  const other = await send({ type: 'stream', to: 'Denmark', topic: 'moat', content: 'elsewhere' });
  const moved = await h.api.patch(`/api/v1/messages/${a}`).set(h.as(h.realm.member)).type('form').send({ topic: 'keep', propagate_mode: 'change_all' });
  expect(moved.status).toBe(200);
  // The old channel/topic terms are replaced by where the message is now.
  const res = await fetchIds([{ operator: 'channel', operand: 'Denmark' }, { operator: 'topic', operand: 'castle' }, { operator: 'with', operand: a }]);
  expect(res.status).toBe(200);
  // The two moved messages and the notification bot's notice of the move.
  const ids = res.body.messages.map((m: { id: number }) => m.id);
  expect(ids).toEqual(expect.arrayContaining([a, b]));
  expect(ids).not.toContain(other);
  expect(ids).toHaveLength(3);
  expect(res.body.messages.every((m: { subject: string }) => m.subject === 'keep')).toBe(true);
  // Other terms still apply.
  const mine = await fetchIds([{ operator: 'with', operand: String(b) }, { operator: 'sender', operand: h.realm.member2.id }]);
  expect(mine.body.messages).toEqual([]);
});

it('finds the direct conversation of a direct message', async () => {
  const { member, member2, owner } = h.realm;
  const dm = await send({ type: 'private', to: JSON.stringify([member2.id]), content: 'psst' });
  const reply = await send({ type: 'private', to: JSON.stringify([member.id]), content: 'yes?' }, member2);
  await send({ type: 'private', to: JSON.stringify([member2.id, owner.id]), content: 'group' });
  const res = await fetchIds([{ operator: 'with', operand: dm }], member2);
  expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([dm, reply]);
});

it('falls back to the other terms, or refuses, when the message cannot be read', async () => {
  const { member, member2, owner } = h.realm;
  const hidden = await send({ type: 'private', to: JSON.stringify([owner.id]), content: 'secret' }, member);
  const visible = await send({ type: 'stream', to: 'Denmark', topic: 'moat', content: 'again' });
  const fallback = await fetchIds([{ operator: 'channel', operand: 'Denmark' }, { operator: 'topic', operand: 'moat' }, { operator: 'with', operand: hidden }], member2);
  expect(fallback.body.messages.map((m: { id: number }) => m.id)).toContain(visible);
  for (const operand of [hidden, 999999, '3.2']) {
    const res = await fetchIds([{ operator: 'with', operand }], member2);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_NARROW', msg: "Invalid narrow operator: Invalid 'with' operator" });
  }
  const twice = await fetchIds([{ operator: 'with', operand: visible }, { operator: 'with', operand: visible }]);
  expect(twice.body).toMatchObject({ code: 'BAD_NARROW', msg: "Invalid narrow operator combination: Duplicate 'with' operators." });
});
