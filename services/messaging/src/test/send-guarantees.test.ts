import { startHarness, type Harness } from './support';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2 } = h.realm;
  await h.createStream(owner, { name: 'Elsinore' }, [owner, member, member2]);
});
afterAll(() => h?.close());

const send = (body: Record<string, string>, headers: Record<string, string> = {}, user = h.realm.member) =>
  h.api.post('/api/v1/messages').set(h.as(user)).set(headers).type('form').send(body);
const stored = (content: string) => h.env.db.message.count({ where: { content } });

describe('idempotent sends', () => {
  it('answers a send retried with the same Idempotency-Key with the first message, stored once', async () => {
    const body = { type: 'stream', to: 'Elsinore', topic: 'ramparts', content: 'who is there?' };
    const first = await send(body, { 'Idempotency-Key': 'k-1' });
    const again = await send(body, { 'Idempotency-Key': 'k-1' });
    expect(first.body).toMatchObject({ result: 'success', id: expect.any(Number) });
    expect(again.body.id).toBe(first.body.id);
    expect(await stored('who is there?')).toBe(1);
    // Another key, or no key, is another message.
    expect((await send(body, { 'Idempotency-Key': 'k-2' })).body.id).not.toBe(first.body.id);
    expect((await send(body)).body.id).not.toBe(first.body.id);
    expect(await stored('who is there?')).toBe(3);
  });

  it("keys the family's clients' queue_id and local_id the same way, per sender", async () => {
    const body = { type: 'stream', to: 'Elsinore', topic: 'ramparts', content: 'stand, ho!', queue_id: 'q-1', local_id: '7.01' };
    const first = await send(body);
    expect((await send(body)).body.id).toBe(first.body.id);
    // The same key from someone else is their own send.
    const theirs = await send(body, {}, h.realm.member2);
    expect(theirs.body.id).not.toBe(first.body.id);
    expect(await stored('stand, ho!')).toBe(2);
  });

  it('stores one message when the same keyed send arrives many times at once', async () => {
    const body = { type: 'stream', to: 'Elsinore', topic: 'ramparts', content: 'at once' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(body, { 'Idempotency-Key': 'burst' })));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(answers.every((a) => a.body.result === 'success')).toBe(true);
    expect(ids.size).toBe(1);
    expect(await stored('at once')).toBe(1);
  });

  it('does not remember a send that failed', async () => {
    const refused = await send({ type: 'stream', to: 'Nowhere', topic: 't', content: 'lost' }, { 'Idempotency-Key': 'k-3' });
    expect(refused.body.result).toBe('error');
    const ok = await send({ type: 'stream', to: 'Elsinore', topic: 't', content: 'found' }, { 'Idempotency-Key': 'k-3' });
    expect(ok.body.result).toBe('success');
  });
});

describe('uploads shared in a message', () => {
  it("claims the sender's own upload in the send's transaction", async () => {
    const { member } = h.realm;
    const pathId = `${h.realm.realmId}/ab/${'x'.repeat(24)}/letter.txt`;
    const attachment = await h.env.db.attachment.create({
      data: { realmId: h.realm.realmId, ownerId: member.id, pathId, fileName: 'letter.txt', size: 5n, contentType: 'text/plain' },
    });
    const res = await send({ type: 'stream', to: 'Elsinore', topic: 'letters', content: `[letter](/user_uploads/${pathId})` });
    // Committed with the message: no consumer runs in this test.
    expect(await h.env.db.attachmentMessage.findMany({ where: { attachmentId: attachment.id } })).toEqual([{ attachmentId: attachment.id, messageId: res.body.id }]);
  });

  it("leaves other people's uploads to the uploads service's access check", async () => {
    const pathId = `${h.realm.realmId}/cd/${'y'.repeat(24)}/other.txt`;
    const attachment = await h.env.db.attachment.create({
      data: { realmId: h.realm.realmId, ownerId: h.realm.member2.id, pathId, fileName: 'other.txt', size: 5n, contentType: 'text/plain' },
    });
    await send({ type: 'stream', to: 'Elsinore', topic: 'letters', content: `[theirs](/user_uploads/${pathId})` });
    expect(await h.env.db.attachmentMessage.count({ where: { attachmentId: attachment.id } })).toBe(0);
  });
});
