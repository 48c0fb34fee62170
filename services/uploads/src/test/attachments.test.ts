import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { recordEvent } from '@chat/bus';
import { deleteUnclaimedAttachments } from '../actions/cleanup';
import { createChannel, eventually, sendChannelMessage, sendDirectMessage, startHarness, streamEvents, type Harness } from './support';

// Attachments with the background parts running: the outbox relay and the consumer of message
// events, as in production.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const api = () => request(h.uploads.url);

async function upload(name: string, body = `content of ${name}`) {
  const res = await api().post('/api/v1/user_uploads').set(h.as(h.realm.member)).attach('file', Buffer.from(body), name).expect(200);
  const pathId: string = res.body.url.slice('/user_uploads/'.length);
  const row = await h.env.db.attachment.findUniqueOrThrow({ where: { pathId } });
  return { url: res.body.url as string, pathId, id: row.id };
}

async function announce(type: string, event: Record<string, unknown>, users: number[]) {
  await h.env.db.$transaction((tx) => recordEvent(tx, { realmId: h.realm.realmId, type, users, event: { type, ...event } }));
}

it('announces a new upload to its owner only', async () => {
  const a = await upload('announced.txt', 'twelve bytes');
  const added = await eventually(async () =>
    (await streamEvents(h, 'attachment')).find((e) => e.event.op === 'add' && (e.event.attachment as { id: number }).id === a.id),
  );
  expect(added.users).toEqual([h.realm.member.id]);
  expect(added.event.attachment).toEqual({
    id: a.id,
    name: 'announced.txt',
    path_id: a.pathId,
    size: 12,
    create_time: expect.any(Number),
    messages: [],
  });
  expect(added.event.upload_space_used).toBeGreaterThanOrEqual(12);
});

it('links a sent message to the files it mentions, from the message event alone', async () => {
  const a = await upload('linked.txt');
  const channel = await createChannel(h.env.db, h.realm.realmId, 'general', { subscribers: [h.realm.member] });
  const m = await sendChannelMessage(h.env.db, h.realm.realmId, h.realm.member, channel.id, `[linked](${a.url})`, { announce: true });
  await eventually(() => h.env.db.attachmentMessage.findUnique({ where: { attachmentId_messageId: { attachmentId: a.id, messageId: m.id } } }));
  const update = await eventually(async () =>
    (await streamEvents(h, 'attachment')).find((e) => e.event.op === 'update' && (e.event.attachment as { id: number }).id === a.id),
  );
  expect(update.users).toEqual([h.realm.member.id]);
  expect((update.event.attachment as { messages: unknown[] }).messages).toEqual([{ id: m.id, date_sent: m.dateSent.getTime() }]);

  const list = await api().get('/api/v1/attachments').set(h.as(h.realm.member)).expect(200);
  const entry = list.body.attachments.find((x: { id: number }) => x.id === a.id);
  expect(entry).toEqual({ id: a.id, name: 'linked.txt', path_id: a.pathId, size: 21, create_time: expect.any(Number), messages: [{ id: m.id, date_sent: m.dateSent.getTime() }] });
  expect(list.body.upload_space_used).toBe(
    Number((await h.env.db.attachment.aggregate({ where: { realmId: h.realm.realmId }, _sum: { size: true } }))._sum.size),
  );
});

it('drops the link when an edit removes it, and when the message is deleted', async () => {
  const a = await upload('edited.txt');
  const b = await upload('deleted.txt');
  const m1 = await sendDirectMessage(h.env.db, h.realm.realmId, h.realm.member, [h.realm.member2], `${a.url} and ${b.url}`, { announce: true });
  await eventually(async () => (await h.env.db.attachmentMessage.count({ where: { messageId: m1.id } })) === 2);
  expect((await api().get(a.url).set(h.as(h.realm.member2))).status).toBe(200);

  await h.env.db.message.update({ where: { id: m1.id }, data: { content: `only ${b.url} now` } });
  await announce('update_message', { message_id: m1.id, message_ids: [m1.id], content: 'edited' }, [h.realm.member.id, h.realm.member2.id]);
  await eventually(async () => (await h.env.db.attachmentMessage.count({ where: { attachmentId: a.id } })) === 0);
  // The edit removed the only link that shared the file.
  expect((await api().get(a.url).set(h.as(h.realm.member2))).status).toBe(403);
  expect((await api().get(b.url).set(h.as(h.realm.member2))).status).toBe(200);

  await h.env.db.message.delete({ where: { id: m1.id } });
  await announce('delete_message', { message_ids: [m1.id], message_type: 'private' }, [h.realm.member.id, h.realm.member2.id]);
  await eventually(async () => (await h.env.db.attachmentMessage.count({ where: { attachmentId: b.id } })) === 0);
  const list = await api().get('/api/v1/attachments').set(h.as(h.realm.member)).expect(200);
  expect(list.body.attachments.find((x: { id: number }) => x.id === b.id).messages).toEqual([]);
});

it('lists only the caller’s own files', async () => {
  await api().post('/api/v1/user_uploads').set(h.as(h.realm.member2)).attach('file', Buffer.from('m2'), 'theirs.txt').expect(200);
  const mine = await api().get('/api/v1/attachments').set(h.as(h.realm.member)).expect(200);
  expect(mine.body.attachments.map((x: { name: string }) => x.name)).not.toContain('theirs.txt');
  const theirs = await api().get('/api/v1/attachments').set(h.as(h.realm.member2)).expect(200);
  expect(theirs.body.attachments.map((x: { name: string }) => x.name)).toEqual(['theirs.txt']);
  const guest = await api().get('/api/v1/attachments').set(h.as(h.realm.guest)).expect(200);
  expect(guest.body.attachments).toEqual([]);
});

describe('DELETE /attachments/{id}', () => {
  it('refuses files of others, whatever the role, and ids that do not exist', async () => {
    const a = await upload('keep.txt');
    for (const user of [h.realm.owner, h.realm.admin, h.realm.member2, h.realm.guest]) {
      const res = await api().delete(`/api/v1/attachments/${a.id}`).set(h.as(user)).expect(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid attachment' });
    }
    await api().delete('/api/v1/attachments/999999').set(h.as(h.realm.member)).expect(400);
    await api().delete('/api/v1/attachments/abc').set(h.as(h.realm.member)).expect(400);
    expect(fs.existsSync(path.join(h.dir, a.pathId))).toBe(true);
  });

  it('deletes the owner’s file, its bytes and its links, and says so', async () => {
    const a = await upload('gone.txt');
    await sendDirectMessage(h.env.db, h.realm.realmId, h.realm.member, [h.realm.member2], a.url, { announce: true });
    await eventually(() => h.env.db.attachmentMessage.findFirst({ where: { attachmentId: a.id } }));
    await api().delete(`/api/v1/attachments/${a.id}`).set(h.as(h.realm.member)).expect(200, { result: 'success', msg: '' });
    expect(fs.existsSync(path.join(h.dir, a.pathId))).toBe(false);
    expect(await h.env.db.attachmentMessage.count({ where: { attachmentId: a.id } })).toBe(0);
    await api().get(a.url).set(h.as(h.realm.member)).expect(404);
    await api().get(a.url).set(h.as(h.realm.member2)).expect(404);
    const removed = await eventually(async () =>
      (await streamEvents(h, 'attachment')).find((e) => e.event.op === 'remove' && (e.event.attachment as { id: number }).id === a.id),
    );
    expect(removed.users).toEqual([h.realm.member.id]);
    expect(removed.event).toEqual({ type: 'attachment', op: 'remove', attachment: { id: a.id }, upload_space_used: expect.any(Number) });
    await api().delete(`/api/v1/attachments/${a.id}`).set(h.as(h.realm.member)).expect(400);
  });
});

it('the cleanup job deletes old files no message links to, and only those', async () => {
  const old = await upload('old-unlinked.txt');
  const linked = await upload('old-linked.txt');
  const fresh = await upload('fresh-unlinked.txt');
  const orphaned = await upload('old-orphaned.txt');
  await sendDirectMessage(h.env.db, h.realm.realmId, h.realm.member, [h.realm.member2], linked.url, { announce: true });
  const gone = await sendDirectMessage(h.env.db, h.realm.realmId, h.realm.member, [h.realm.member2], orphaned.url, { announce: true });
  await eventually(async () => (await h.env.db.attachmentMessage.count({ where: { attachmentId: { in: [linked.id, orphaned.id] } } })) === 2);
  // The message linking `orphaned` is deleted without its event ever arriving.
  await h.env.db.message.delete({ where: { id: gone.id } });
  const monthAgo = new Date(Date.now() - 30 * 24 * 3600 * 1000);
  await h.env.db.attachment.updateMany({ where: { id: { in: [old.id, linked.id, orphaned.id] } }, data: { createTime: monthAgo } });

  const deleted = await deleteUnclaimedAttachments(h.uploads.services, 21);
  expect(deleted).toBeGreaterThanOrEqual(2);
  const left = (await h.env.db.attachment.findMany({ where: { id: { in: [old.id, linked.id, fresh.id, orphaned.id] } } })).map((a) => a.id);
  expect(left.sort()).toEqual([linked.id, fresh.id].sort());
  expect(fs.existsSync(path.join(h.dir, old.pathId))).toBe(false);
  expect(fs.existsSync(path.join(h.dir, orphaned.pathId))).toBe(false);
  expect(fs.existsSync(path.join(h.dir, linked.pathId))).toBe(true);
});
