/** Shared by the events component tests: a running service, registration, queue reads. */
import type { MessageObject } from '@chat/contracts';
import request from 'supertest';
import Redis from 'ioredis';
import { recordEvent } from '@chat/bus';
import type { Db } from '@chat/db';
import { QueueStore, type QueuedEvent } from '@chat/queues';
import { identityHeaders, type SeededUser, type TestEnv } from '@chat/testing';

export async function register(url: string, realmId: number, user: SeededUser | undefined, params: Record<string, string> = {}) {
  return request(url)
    .post('/api/v1/register')
    .set(identityHeaders(realmId, user))
    .type('form')
    .send(params);
}

/** Records a message event the way the messaging service does: in a transaction, through the outbox. */
export async function recordMessage(
  db: Db,
  realmId: number,
  opts: {
    id: number;
    sender: SeededUser;
    users: number[];
    streamId?: number;
    streamName?: string;
    topic?: string;
    publicStream?: boolean;
    senderQueueId?: string;
    localId?: string;
    userFlags?: Record<string, string[]>;
    senderGravatar?: boolean;
  },
): Promise<void> {
  const isStream = opts.streamId !== undefined;
  const message = {
    id: opts.id,
    sender_id: opts.sender.id,
    sender_email: opts.sender.email,
    sender_full_name: opts.sender.fullName,
    avatar_url: 'https://example.test/avatar.png',
    content: `<p>message ${opts.id}</p>`,
    content_type: 'text/html',
    display_recipient: isStream ? opts.streamName : opts.users.map((id) => ({ id, email: `${id}@x`, full_name: '', is_mirror_dummy: false })),
    subject: isStream ? (opts.topic ?? 'general chat') : '',
    timestamp: Math.floor(Date.now() / 1000),
    type: isStream ? 'stream' : 'private',
    ...(isStream ? { stream_id: opts.streamId } : {}),
  };
  await db.$transaction(async (tx) => {
    await recordEvent(tx, {
      realmId,
      type: 'message',
      users: opts.users,
      // The fields the fan-out reads; the rest of the message object does not matter here.
      event: { type: 'message', message: message as MessageObject },
      routing: {
        stream_id: opts.streamId ?? null,
        public_stream: opts.publicStream ?? false,
        sender_id: opts.sender.id,
        ...(opts.senderQueueId ? { sender_queue_id: opts.senderQueueId, local_id: opts.localId } : {}),
        user_flags: opts.userFlags ?? {},
        raw_content: `message ${opts.id}`,
        topic: isStream ? (opts.topic ?? '') : '',
        sender_gravatar: opts.senderGravatar ?? false,
      },
    });
  });
}

/** Polls a queue (without blocking) until `count` events are there or the deadline passes. */
export async function waitForEvents(store: QueueStore, queueId: string, userId: number, count: number, timeoutMs = 10000): Promise<QueuedEvent[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = (await store.fetch(queueId, userId)) ?? [];
    if (events.length >= count || Date.now() > deadline) return events;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function storeFor(env: TestEnv): { store: QueueStore; redis: Redis } {
  const redis = new Redis(env.redisUrl);
  return { store: new QueueStore(redis, env.prefix), redis };
}

/**
 * Waits until the relay has moved every outbox row to the streams. A queue receives every event
 * relayed after its creation, including ones committed just before it (they are in its initial
 * state too); tests that count events register after the seeding's events are through.
 */
export async function outboxDrained(db: Db, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ n }] = await db.$queryRawUnsafe<Array<{ n: number }>>('SELECT count(*)::int AS n FROM outbox');
    if (n === 0) return;
    if (Date.now() > deadline) throw new Error(`outbox still holds ${n} rows`);
    await new Promise((r) => setTimeout(r, 30));
  }
}
