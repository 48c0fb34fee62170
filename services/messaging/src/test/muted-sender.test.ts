/**
 * A message arrives already read for recipients who muted its sender (the muted_users rows are the
 * users service's; they are stored here as it stores them), in channels and direct messages.
 */
import { flagBit } from '@chat/contracts';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2, admin } = h.realm;
  await h.createStream(owner, { name: 'Denmark' }, [owner, member, member2, admin]);
  // member2 and admin muted member; member muted nobody.
  for (const userId of [member2.id, admin.id]) {
    await h.env.db.mutedUser.create({ data: { realmId: h.realm.realmId, userId, mutedUserId: member.id } });
  }
});
afterAll(() => h?.close());

async function send(from: Harness['realm']['member'], body: Record<string, string>): Promise<number> {
  const res = await h.api.post('/api/v1/messages').set(h.as(from)).type('form').send(body);
  expect(res.body.result).toBe('success');
  return res.body.id as number;
}

async function readBy(messageId: number): Promise<number[]> {
  const rows = await h.env.db.userMessage.findMany({ where: { messageId }, orderBy: { userId: 'asc' } });
  return rows.filter((r) => (r.flags & flagBit('read')) !== 0n).map((r) => r.userId);
}

it('marks a channel message read for those who muted the sender, and says so in the event flags', async () => {
  const { owner, member, member2, admin } = h.realm;
  const id = await send(member, { type: 'stream', to: 'Denmark', topic: 'castle', content: `hello @**${member2.fullName}**` });
  expect(await readBy(id)).toEqual([admin.id, member2.id].sort((a, b) => a - b));
  const event = (await outboxEvents(h.env, 'message')).find((e) => e.event.message.id === id)!;
  expect(event.user_flags[member2.id]).toEqual(expect.arrayContaining(['read', 'mentioned']));
  expect(event.user_flags[admin.id]).toContain('read');
  expect(event.user_flags[owner.id]).not.toContain('read');
  expect(event.user_flags[member.id]).not.toContain('read');
});

it('marks a direct message read for a muter, and nothing for others or other senders', async () => {
  const { owner, member, member2 } = h.realm;
  const dm = await send(member, { type: 'private', to: JSON.stringify([member2.id, owner.id]), content: 'psst' });
  expect(await readBy(dm)).toEqual([member2.id]);
  const reply = await send(owner, { type: 'private', to: JSON.stringify([member2.id]), content: 'hi' });
  expect(await readBy(reply)).toEqual([]);
});
