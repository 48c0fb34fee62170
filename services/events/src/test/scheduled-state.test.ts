import { recordEvent } from '@chat/bus';
import type { ScheduledMessage } from '@chat/db';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { DELIVERY_TYPE, reminderObject, scheduledMessageObject } from '@chat/wire';
import type { QueueStore } from '@chat/queues';
import type Redis from 'ioredis';
import { start, type EventsHandle } from '../app';
import { outboxDrained, register, storeFor, waitForEvents } from './support';

let env: TestEnv;
let realm: SeededRealm;
let service: EventsHandle;
let store: QueueStore;
let redis: Redis;
const rows: Record<string, ScheduledMessage> = {};

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  service = await start({ ...env.env, STREAM_PARTITIONS: '2' });
  ({ store, redis } = storeFor(env));
  const { member, member2 } = realm;
  const stream = await env.db.stream.create({ data: { realmId: realm.realmId, name: 'Denmark', nameKey: 'denmark' } });
  // Rows as the messaging service stores them.
  const base = {
    realmId: realm.realmId, senderId: member.id, content: 'x', renderedContent: '<p>x</p>', sendingClient: 'website', realmUrl: 'http://chat.test',
  };
  const at = (s: number) => new Date((Math.floor(Date.now() / 1000) + s) * 1000);
  rows.later = await env.db.scheduledMessage.create({ data: { ...base, deliveryType: DELIVERY_TYPE.SEND_LATER, recipientType: 'stream', streamId: stream.id, topic: 'castle', scheduledTimestamp: at(7200) } });
  rows.sooner = await env.db.scheduledMessage.create({ data: { ...base, deliveryType: DELIVERY_TYPE.SEND_LATER, recipientType: 'private', toUserIds: [member2.id], scheduledTimestamp: at(3600), failed: true, failureMessage: 'Message could not be sent at the scheduled time.' } });
  rows.sent = await env.db.scheduledMessage.create({ data: { ...base, deliveryType: DELIVERY_TYPE.SEND_LATER, recipientType: 'private', toUserIds: [member2.id], scheduledTimestamp: at(-60), delivered: true } });
  rows.reminder = await env.db.scheduledMessage.create({ data: { ...base, deliveryType: DELIVERY_TYPE.REMIND, recipientType: 'private', toUserIds: [member.id], scheduledTimestamp: at(600), reminderTargetMessageId: 42 } });
  rows.notMine = await env.db.scheduledMessage.create({ data: { ...base, senderId: member2.id, deliveryType: DELIVERY_TYPE.SEND_LATER, recipientType: 'private', toUserIds: [member.id], scheduledTimestamp: at(60) } });
  await outboxDrained(env.db);
});

afterAll(async () => {
  await service?.stop();
  redis?.disconnect();
  await env?.close();
});

it('gives the viewer\'s undelivered scheduled messages and reminders, failed ones included, soonest first', async () => {
  const res = await register(service.url, realm.realmId, realm.member, { fetch_event_types: JSON.stringify(['scheduled_messages', 'reminders']) });
  expect(res.status).toBe(200);
  expect(res.body.scheduled_messages).toEqual([scheduledMessageObject(rows.sooner), scheduledMessageObject(rows.later)]);
  expect(res.body.scheduled_messages[0]).toMatchObject({ type: 'private', to: [realm.member2.id], failed: true });
  expect(res.body.reminders).toEqual([reminderObject(rows.reminder)]);
  expect(res.body.max_reminder_note_length).toBe(1000);
});

it('leaves the sections out when their event types are not wanted', async () => {
  const res = await register(service.url, realm.realmId, realm.member, { fetch_event_types: JSON.stringify(['alert_words']) });
  expect(res.body).not.toHaveProperty('scheduled_messages');
  expect(res.body).not.toHaveProperty('reminders');
  const all = await register(service.url, realm.realmId, realm.member2);
  expect(all.body.scheduled_messages).toEqual([scheduledMessageObject(rows.notMine)]);
  expect(all.body.reminders).toEqual([]);
});

it('passes scheduled_messages and reminders events to the owner\'s queues unchanged', async () => {
  const mine = (await register(service.url, realm.realmId, realm.member, { event_types: JSON.stringify(['scheduled_messages', 'reminders']) })).body.queue_id as string;
  const theirs = (await register(service.url, realm.realmId, realm.member2)).body.queue_id as string;
  const update = { type: 'scheduled_messages', op: 'update', scheduled_message: { ...scheduledMessageObject(rows.later), topic: '' } };
  const removal = { type: 'reminders', op: 'remove', reminder_id: rows.reminder.id };
  await env.db.$transaction(async (tx) => {
    await recordEvent(tx, { realmId: realm.realmId, type: 'scheduled_messages', users: [realm.member.id], event: update });
    await recordEvent(tx, { realmId: realm.realmId, type: 'reminders', users: [realm.member.id], event: removal });
  });
  const events = await waitForEvents(store, mine, realm.member.id, 2);
  expect(events.map(({ id: _id, ...e }) => e)).toEqual([update, removal]);
  // Recipients are exact: the other user's queue hears nothing.
  await new Promise((r) => setTimeout(r, 300));
  expect((await store.fetch(theirs, realm.member2.id)) ?? []).toEqual([]);
});
