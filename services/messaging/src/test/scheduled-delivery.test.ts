import { createDb, type Db } from '@chat/db';
import { createLogger, type ServiceHandle } from '@chat/kit';
import { start } from '../app';
import { readConfig } from '../config';
import { deliverOneDue, LATE_CUTOFF_MS } from '../workers/scheduled';
import type { Services } from '../context';
import { outboxEvents, startHarness, type Harness } from './support';

let h: Harness;
let denmark: number;
let secret: number;
/** Delivery driven by hand, on connections of its own (as another replica would have). */
let services: Services;
const replicas: ServiceHandle[] = [];

beforeAll(async () => {
  // The harness replica serves the API only; each test decides who delivers.
  h = await startHarness({ SCHEDULED_DELIVERY: 'false' });
  const { owner, member, member2 } = h.realm;
  denmark = await h.createStream(owner, { name: 'Denmark' }, [owner, member, member2]);
  secret = await h.createStream(owner, { name: 'Secret', inviteOnly: true }, [owner, member]);
  services = { db: createDb(h.env.databaseUrl), log: createLogger('messaging', 'silent'), config: readConfig(h.env.env) };
});
afterAll(async () => {
  await stopReplicas();
  await services?.db.$disconnect();
  await h?.close();
});

async function startReplica(): Promise<ServiceHandle> {
  const replica = await start({ ...h.env.env, PORT: '0', LOG_LEVEL: 'silent', SCHEDULED_DELIVERY_POLL_MS: '20' });
  replicas.push(replica);
  return replica;
}
async function stopReplicas(): Promise<void> {
  while (replicas.length) await replicas.pop()!.stop();
}

const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;
const schedule = async (params: Record<string, string>, user = h.realm.member): Promise<number> => {
  const res = await h.api.post('/api/v1/scheduled_messages').set(h.as(user)).type('form').send(params);
  expect(res.body).toMatchObject({ result: 'success' });
  return res.body.scheduled_message_id;
};
const channelMessage = (content: string, at = inSeconds(3600)) => ({ type: 'channel', to: String(denmark), topic: 'plans', content, scheduled_delivery_timestamp: String(at) });
const row = (id: number) => h.env.db.scheduledMessage.findUniqueOrThrow({ where: { id } });

/** Moves rows' time to a moment ago (or `agoMs` ago): time passing, without waiting for it. */
async function makeDue(db: Db, ids: number[], agoMs = 1000): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE scheduled_messages SET scheduled_timestamp = (now() AT TIME ZONE 'UTC') - make_interval(secs => $2) WHERE id = ANY($1::int[])`,
    ids,
    agoMs / 1000,
  );
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Delivers by hand until nothing is due. */
async function drain(): Promise<number> {
  let n = 0;
  while (await deliverOneDue(services)) n++;
  return n;
}

const notices = (userId: number, since: number) =>
  h.env.db.message.findMany({
    where: { id: { gt: since }, sender: { email: 'notification-bot@chat.test' }, userMessages: { some: { userId } } },
    orderBy: { id: 'asc' },
  });
const lastMessageId = async () => (await h.env.db.message.findFirst({ orderBy: { id: 'desc' } }))?.id ?? 0;

describe('delivery at the scheduled time', () => {
  afterEach(stopReplicas);

  it('sends a scheduled channel message as its sender when it falls due, once', async () => {
    const { member } = h.realm;
    await startReplica();
    const at = inSeconds(2);
    const id = await schedule({ ...channelMessage('See you **soon**', at), client: 'website' });
    expect((await row(id)).delivered).toBe(false);
    const delivered = await waitFor('delivery', async () => {
      const r = await row(id);
      return r.delivered && r;
    });
    const message = await h.env.db.message.findUniqueOrThrow({ where: { id: delivered.deliveredMessageId! } });
    expect(message).toMatchObject({ senderId: member.id, streamId: denmark, topic: 'plans', content: 'See you **soon**', sendingClient: 'website' });
    expect(message.renderedContent).toBe('<p>See you <strong>soon</strong></p>');
    expect(message.dateSent.getTime()).toBeGreaterThanOrEqual(at * 1000);
    // Scheduled from an interactive client: the sender's own copy starts read.
    const own = await h.env.db.userMessage.findUniqueOrThrow({ where: { userId_messageId: { userId: member.id, messageId: message.id } } });
    expect(own.flags & 1n).toBe(1n);

    const messageEvent = (await outboxEvents(h.env, 'message')).find((e) => e.event.message.id === message.id)!;
    expect(messageEvent.users.sort()).toEqual([h.realm.owner.id, member.id, h.realm.member2.id].sort());
    const removals = (await outboxEvents(h.env, 'scheduled_messages')).filter((e) => e.event.op === 'remove' && e.event.scheduled_message_id === id);
    expect(removals).toEqual([{ users: [member.id], event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id } }]);
    const listed = await h.api.get('/api/v1/scheduled_messages').set(h.as(member));
    expect(listed.body.scheduled_messages.map((s: { scheduled_message_id: number }) => s.scheduled_message_id)).not.toContain(id);
    expect(await h.env.db.message.count({ where: { content: 'See you **soon**' } })).toBe(1);
    // Once sent, it can no longer be edited.
    const late = await h.api.patch(`/api/v1/scheduled_messages/${id}`).set(h.as(member)).type('form').send({ content: 'too late' });
    expect(late.body.msg).toBe('Scheduled message was already sent');
  });

  it('sends a reminder as a direct message from the notification bot, once', async () => {
    const { member } = h.realm;
    const sent = await h.api.post('/api/v1/messages').set(h.as(h.realm.member2)).type('form').send({ type: 'stream', to: 'Denmark', topic: 'plans', content: 'Bring snacks' });
    const since = await lastMessageId();
    await startReplica();
    const res = await h.api.post('/api/v1/reminders').set(h.as(member)).type('form').send({ message_id: String(sent.body.id), scheduled_delivery_timestamp: String(inSeconds(2)), note: 'buy them' });
    const id = res.body.reminder_id as number;
    const delivered = await waitFor('reminder', async () => {
      const r = await row(id);
      return r.delivered && r;
    });
    const [notice] = await notices(member.id, since);
    expect(notice.id).toBe(delivered.deliveredMessageId);
    expect(notice.content).toBe(delivered.content);
    expect(notice.content).toMatch(/^You requested a reminder for #\*\*Denmark>plans@\d+\*\*\. Note:\n > buy them\n\n/);
    expect(notice.recipientType).toBe('private');
    const copies = await h.env.db.userMessage.findMany({ where: { messageId: notice.id } });
    expect(copies.map((c) => c.userId).sort((a, b) => a - b)).toEqual([member.id, notice.senderId].sort((a, b) => a - b));
    // The user has not read it yet.
    expect(copies.find((c) => c.userId === member.id)!.flags & 1n).toBe(0n);
    const events = (await outboxEvents(h.env, 'reminders')).filter((e) => e.event.op === 'remove' && e.event.reminder_id === id);
    expect(events).toEqual([{ users: [member.id], event: { type: 'reminders', op: 'remove', reminder_id: id } }]);
    expect((await h.api.get('/api/v1/reminders').set(h.as(member))).body.reminders).toEqual([]);
  });

  it('keeps a message due while no replica runs, and sends it when one starts', async () => {
    // A few seconds ahead, so that the request still arrives before it on a slow machine; then
    // past it, with no replica to deliver.
    const due = inSeconds(3);
    const id = await schedule(channelMessage('while nobody was looking', due));
    await new Promise((r) => setTimeout(r, Math.max(0, due * 1000 - Date.now()) + 500));
    expect((await row(id)).delivered).toBe(false);
    await startReplica();
    await waitFor('delivery after start', async () => (await row(id)).delivered);
    expect(await h.env.db.message.count({ where: { content: 'while nobody was looking' } })).toBe(1);
  });
});

describe('exactly once', () => {
  afterEach(stopReplicas);

  it('sends each of a burst once with two replicas polling', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push(await schedule(channelMessage(`burst ${i}`)));
    await startReplica();
    await startReplica();
    await makeDue(h.env.db, ids);
    await waitFor('the burst', async () => (await h.env.db.scheduledMessage.count({ where: { id: { in: ids }, delivered: true } })) === ids.length);
    const rows = await h.env.db.scheduledMessage.findMany({ where: { id: { in: ids } } });
    expect(new Set(rows.map((r) => r.deliveredMessageId)).size).toBe(ids.length);
    const sent = await h.env.db.message.findMany({ where: { content: { startsWith: 'burst ' } } });
    expect(sent.map((m) => m.content).sort()).toEqual(ids.map((_, i) => `burst ${i}`).sort());
    const removals = (await outboxEvents(h.env, 'scheduled_messages')).filter((e) => e.event.op === 'remove' && ids.includes(e.event.scheduled_message_id));
    expect(removals).toHaveLength(ids.length);
  });

  it('sends each once when many deliveries race on separate connections', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push(await schedule(channelMessage(`race ${i}`)));
    await makeDue(h.env.db, ids);
    const other: Services = { ...services, db: createDb(h.env.databaseUrl) };
    try {
      const worker = async (d: Services) => {
        let n = 0;
        while (await deliverOneDue(d)) n++;
        return n;
      };
      const counts = await Promise.all([services, other, services, other, services, other].map(worker));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(ids.length);
    } finally {
      await other.db.$disconnect();
    }
    expect(await h.env.db.message.count({ where: { content: { startsWith: 'race ' } } })).toBe(ids.length);
    expect(await h.env.db.scheduledMessage.count({ where: { id: { in: ids }, delivered: true } })).toBe(ids.length);
  });

  it('skips a row another replica is delivering, and sends it after that replica dies mid-send', async () => {
    const id = await schedule(channelMessage('survivor'));
    await makeDue(h.env.db, [id]);
    const crash = new Error('replica died');
    await expect(
      h.env.db.$transaction(async (tx) => {
        await tx.$queryRawUnsafe('SELECT id FROM scheduled_messages WHERE id = $1 FOR UPDATE', id);
        // While it is held, nobody else may take it.
        expect(await deliverOneDue(services)).toBe(false);
        throw crash;
      }),
    ).rejects.toBe(crash);
    expect(await deliverOneDue(services)).toBe(true);
    expect(await deliverOneDue(services)).toBe(false);
    expect((await row(id)).delivered).toBe(true);
    expect(await h.env.db.message.count({ where: { content: 'survivor' } })).toBe(1);
  });
});

describe('failures at delivery time', () => {
  const updates = async (id: number) =>
    (await outboxEvents(h.env, 'scheduled_messages')).filter((e) => e.event.op === 'update' && e.event.scheduled_message.scheduled_message_id === id);

  it('marks a message too late to send as failed, tells the sender, and lets them reschedule it', async () => {
    const { member } = h.realm;
    const id = await schedule(channelMessage('stale news'));
    await makeDue(h.env.db, [id], LATE_CUTOFF_MS + 60_000);
    const since = await lastMessageId();
    expect(await drain()).toBe(1);
    const failed = await row(id);
    expect(failed).toMatchObject({ delivered: false, failed: true, failureMessage: 'Message could not be sent at the scheduled time.' });
    expect(await h.env.db.message.count({ where: { content: 'stale news' } })).toBe(0);
    expect(await updates(id)).toEqual([{ users: [member.id], event: { type: 'scheduled_messages', op: 'update', scheduled_message: expect.objectContaining({ scheduled_message_id: id, failed: true }) } }]);
    const [notice] = await notices(member.id, since);
    const when = failed.scheduledTimestamp.toISOString().slice(0, 19);
    expect(notice.content).toBe(
      `The message you scheduled for <time:${when}+00:00> was not sent because of the following error:\n\n` +
        '> Message could not be sent at the scheduled time.\n\n[View scheduled messages](#scheduled)',
    );
    // Not tried again, but still listed, marked failed.
    expect(await drain()).toBe(0);
    const listed = (await h.api.get('/api/v1/scheduled_messages').set(h.as(member))).body.scheduled_messages;
    expect(listed.find((s: { scheduled_message_id: number }) => s.scheduled_message_id === id)).toMatchObject({ failed: true });

    const edit = (params: Record<string, string>) => h.api.patch(`/api/v1/scheduled_messages/${id}`).set(h.as(member)).type('form').send(params);
    expect((await edit({ content: 'fresh news' })).body.msg).toBe('Scheduled delivery time must be in the future.');
    expect((await edit({ content: 'fresh news', scheduled_delivery_timestamp: String(inSeconds(600)) })).status).toBe(200);
    expect(await row(id)).toMatchObject({ failed: false, failureMessage: null, content: 'fresh news' });
    expect((await updates(id)).at(-1)!.event.scheduled_message).toMatchObject({ failed: false, content: 'fresh news' });
    await makeDue(h.env.db, [id]);
    expect(await drain()).toBe(1);
    expect(await h.env.db.message.count({ where: { content: 'fresh news' } })).toBe(1);
  });

  it('fails with the error sending now would give when the sender lost the right to post', async () => {
    const { member } = h.realm;
    const id = await schedule({ type: 'channel', to: String(secret), topic: 'hush', content: 'secret plans', scheduled_delivery_timestamp: String(inSeconds(3600)) });
    const left = await h.api.delete('/api/v1/users/me/subscriptions').set(h.as(member)).type('form').send({ subscriptions: JSON.stringify(['Secret']) });
    expect(left.status).toBe(200);
    const now = await h.api.post('/api/v1/messages').set(h.as(member)).type('form').send({ type: 'stream', to: String(secret), topic: 'hush', content: 'secret plans' });
    expect(now.status).toBe(400);
    await makeDue(h.env.db, [id]);
    expect(await drain()).toBe(1);
    expect(await row(id)).toMatchObject({ failed: true, failureMessage: now.body.msg });
    expect(await updates(id)).toHaveLength(1);
    expect(await h.env.db.message.count({ where: { content: 'secret plans' } })).toBe(0);
  });

  it('fails silently when the sender was deactivated', async () => {
    const { member2 } = h.realm;
    const id = await schedule(channelMessage('from beyond'), member2);
    await h.env.db.user.update({ where: { id: member2.id }, data: { isActive: false } });
    try {
      await makeDue(h.env.db, [id]);
      const since = await lastMessageId();
      expect(await drain()).toBe(1);
      expect(await row(id)).toMatchObject({ failed: true, failureMessage: 'Account is deactivated' });
      expect(await updates(id)).toEqual([]);
      expect(await h.env.db.message.count({ where: { id: { gt: since } } })).toBe(0);
    } finally {
      await h.env.db.user.update({ where: { id: member2.id }, data: { isActive: true } });
    }
  });

  it('recalls a message deleted since the reminder was set as it was', async () => {
    const { member, owner } = h.realm;
    const sent = await h.api.post('/api/v1/messages').set(h.as(member)).type('form').send({ type: 'stream', to: 'Denmark', topic: 'plans', content: 'soon gone' });
    const res = await h.api.post('/api/v1/reminders').set(h.as(member)).type('form').send({ message_id: String(sent.body.id), scheduled_delivery_timestamp: String(inSeconds(600)) });
    const stored = await row(res.body.reminder_id);
    expect((await h.api.delete(`/api/v1/messages/${sent.body.id}`).set(h.as(owner))).status).toBe(200);
    await makeDue(h.env.db, [stored.id]);
    const since = await lastMessageId();
    expect(await drain()).toBe(1);
    const [notice] = await notices(member.id, since);
    expect(notice.content).toBe(stored.content);
    expect(await row(stored.id)).toMatchObject({ delivered: true, failed: false, deliveredMessageId: notice.id });
  });
});
