/**
 * Muting users: POST and DELETE /users/me/muted_users/{id}, their errors, the muted_users event
 * to the muter alone, and the muted user's unread messages marked read when muting.
 */
import { flagBit, ROLE } from '@chat/contracts';
import { seedRealm } from '@chat/testing';
import { makeUser, startHarness, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const mute = (muter: Harness['realm']['member'], id: number | string) => h.as(muter).post(`/users/me/muted_users/${id}`);
const unmute = (muter: Harness['realm']['member'], id: number | string) => h.as(muter).delete(`/users/me/muted_users/${id}`);

/** A direct message from `senderId` to `recipientId`, stored as the send path stores one, unread for the recipient. */
async function directMessage(senderId: number, recipientId: number, read = false): Promise<number> {
  const ids = [senderId, recipientId].sort((a, b) => a - b);
  const conversation = await h.db.directConversation.upsert({
    where: { realmId_memberKey: { realmId: h.realm.realmId, memberKey: ids.join(',') } },
    create: { realmId: h.realm.realmId, memberKey: ids.join(','), memberIds: ids },
    update: {},
  });
  const message = await h.db.message.create({
    data: { realmId: h.realm.realmId, senderId, recipientType: 'private', conversationId: conversation.id, content: 'hi', renderedContent: '<p>hi</p>' },
  });
  const priv = flagBit('is_private');
  await h.db.userMessage.createMany({
    data: [
      { userId: senderId, messageId: message.id, flags: priv | flagBit('read') },
      { userId: recipientId, messageId: message.id, flags: read ? priv | flagBit('read') : priv },
    ],
  });
  return message.id;
}

async function isRead(userId: number, messageId: number): Promise<boolean> {
  const row = await h.db.userMessage.findUniqueOrThrow({ where: { userId_messageId: { userId, messageId } } });
  return (row.flags & flagBit('read')) !== 0n;
}

describe('muting a user', () => {
  it('mutes, tells only the muter the whole list, and marks what the muted user sent them read', async () => {
    const muter = await makeUser(h, ROLE.MEMBER);
    const loud = await makeUser(h, ROLE.MEMBER);
    const other = await makeUser(h, ROLE.MEMBER);
    const fromLoud = [await directMessage(loud.id, muter.id), await directMessage(loud.id, muter.id)];
    const alreadyRead = await directMessage(loud.id, muter.id, true);
    const fromOther = await directMessage(other.id, muter.id);
    const toOther = await directMessage(loud.id, other.id);

    const before = await h.lastEventId();
    const started = Math.floor(Date.now() / 1000);
    const res = await mute(muter, loud.id);
    expect(res.body).toEqual({ result: 'success', msg: '' });

    for (const id of fromLoud) expect(await isRead(muter.id, id)).toBe(true);
    expect(await isRead(muter.id, fromOther)).toBe(false);
    expect(await isRead(other.id, toOther)).toBe(false);

    const events = await h.eventsSince(before);
    expect(events.map((e) => e.type)).toEqual(['update_message_flags', 'muted_users']);
    expect(events[0]!.users).toEqual([muter.id]);
    expect(events[0]!.event).toEqual({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: fromLoud, all: false });
    expect(events[0]!.event.messages).not.toContain(alreadyRead);
    expect(events[1]!.users).toEqual([muter.id]);
    const list = events[1]!.event.muted_users as Array<{ id: number; timestamp: number }>;
    expect(list).toEqual([{ id: loud.id, timestamp: expect.any(Number) }]);
    expect(list[0]!.timestamp).toBeGreaterThanOrEqual(started - 1);
    expect(list[0]!.timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);

    // A second mute lists both, oldest first; with nothing unread, no flag event.
    const before2 = await h.lastEventId();
    await mute(muter, other.id).expect(200);
    expect(await isRead(muter.id, fromOther)).toBe(true);
    const second = await h.eventsSince(before2);
    expect(second.map((e) => e.type)).toEqual(['update_message_flags', 'muted_users']);
    expect((second[1]!.event.muted_users as Array<{ id: number }>).map((m) => m.id)).toEqual([loud.id, other.id]);
    const quiet = await makeUser(h, ROLE.MEMBER);
    const before4 = await h.lastEventId();
    await mute(muter, quiet.id).expect(200);
    expect((await h.eventsSince(before4)).map((e) => e.type)).toEqual(['muted_users']);
  });

  it('refuses oneself, unknown users, users of other realms, and a second mute, with the reference texts', async () => {
    const { member, member2 } = h.realm;
    expect((await mute(member, member.id)).body).toEqual({ result: 'error', msg: 'Cannot mute self', code: 'BAD_REQUEST' });
    expect((await mute(member, 999999)).body).toMatchObject({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    const elsewhere = await seedRealm(h.db, 'elsewhere');
    expect((await mute(member, elsewhere.member.id)).body.msg).toBe('No such user');
    await mute(member, member2.id).expect(200);
    const before = await h.lastEventId();
    const again = await mute(member, member2.id);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ result: 'error', msg: 'User already muted', code: 'BAD_REQUEST' });
    expect(await h.eventsSince(before)).toEqual([]);
    expect(await h.db.mutedUser.count({ where: { userId: member.id, mutedUserId: member2.id } })).toBe(1);
  });

  it('allows muting bots and deactivated users, as the reference does', async () => {
    const muter = await makeUser(h, ROLE.MEMBER);
    await mute(muter, h.realm.bot.id).expect(200);
    const gone = await makeUser(h, ROLE.MEMBER);
    await h.as(h.realm.admin).delete(`/users/${gone.id}`).expect(200);
    await mute(muter, gone.id).expect(200);
    expect((await h.db.mutedUser.findMany({ where: { userId: muter.id }, orderBy: { id: 'asc' } })).map((m) => m.mutedUserId)).toEqual([h.realm.bot.id, gone.id]);
  });

  it('keeps a restricted guest from muting someone hidden from them', async () => {
    const everyone = await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:members' } });
    const hidden = await makeUser(h, ROLE.MEMBER);
    await h.as(h.realm.owner).patch('/realm').send({ can_access_all_users_group: JSON.stringify(everyone.id) }).expect(200);
    try {
      expect((await mute(h.realm.guest, hidden.id)).body).toMatchObject({ result: 'error', msg: 'Insufficient permission' });
      await mute(h.realm.guest, h.realm.bot.id).expect(200);
    } finally {
      const all = await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:everyone' } });
      await h.as(h.realm.owner).patch('/realm').send({ can_access_all_users_group: JSON.stringify(all.id) }).expect(200);
    }
  });
});

describe('unmuting a user', () => {
  it('unmutes, tells the muter the remaining list, and leaves read messages read', async () => {
    const muter = await makeUser(h, ROLE.MEMBER);
    const a = await makeUser(h, ROLE.MEMBER);
    const b = await makeUser(h, ROLE.MEMBER);
    const fromA = await directMessage(a.id, muter.id);
    await mute(muter, a.id).expect(200);
    await mute(muter, b.id).expect(200);
    const before = await h.lastEventId();
    expect((await unmute(muter, a.id)).body).toEqual({ result: 'success', msg: '' });
    const events = await h.eventsSince(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'muted_users', users: [muter.id] });
    expect((events[0]!.event.muted_users as Array<{ id: number }>).map((m) => m.id)).toEqual([b.id]);
    expect(await isRead(muter.id, fromA)).toBe(true);
    expect(await h.db.mutedUser.count({ where: { userId: muter.id } })).toBe(1);
  });

  it('refuses users not muted (oneself included) and unknown users', async () => {
    const { member, owner } = h.realm;
    expect((await unmute(owner, member.id)).body).toMatchObject({ result: 'error', msg: 'User is not muted', code: 'BAD_REQUEST' });
    expect((await unmute(owner, owner.id)).body.msg).toBe('User is not muted');
    expect((await unmute(owner, 999999)).body.msg).toBe('No such user');
  });
});
