import { recordEvent } from '@chat/bus';
import { flagBit } from '@chat/contracts';
import { QueueStore } from '@chat/queues';
import { createChannel, markRead, seedRealm, sendMessage, setupTestEnv, userFlags, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import type { PushHandle } from '../app';
import { TestRelay } from './relay-server';
import { clientDecrypt, clientDevice, fullRegistration, post, startPush, waitFor, type ClientDevice } from './support';

let env: TestEnv;
let realm: SeededRealm;
let relay: TestRelay;
let push: PushHandle;
const devices = new Map<number, ClientDevice>();

const overrides = () => ({ PUSH_RELAY_URL: relay.url, EXTERNAL_HOST: 'chat.example.com', EXTERNAL_SCHEME: 'https', PUSH_ACTIVE_USER_DELAY_MS: '3000' });

async function registerDevice(user: SeededUser, deviceId: number, kind: 'fcm' | 'apns' = 'fcm') {
  const d = clientDevice(deviceId, kind);
  devices.set(user.id, d);
  expect((await post(push, realm.realmId, user, '/mobile_push/register', fullRegistration(d))).body.result).toBe('success');
  await waitFor('relay registration', async () => {
    const row = await env.db.pushDevice.findUnique({ where: { userId_deviceId: { userId: user.id, deviceId: BigInt(deviceId) } } });
    return row?.pushTokenId != null;
  });
}

/** Decrypted payloads the relay received for a user's device. */
function pushesTo(user: SeededUser): Array<Record<string, any>> {
  const d = devices.get(user.id)!;
  const out: Array<Record<string, any>> = [];
  for (const r of relay.requestsTo('/remotes/push/e2ee/notify')) {
    for (const req of r.body.push_requests as Array<Record<string, any>>) {
      if (req.token_id !== d.tokenId) continue;
      expect(req.payload.push_key_id).toBe(d.pushKeyId);
      out.push(clientDecrypt(d.keyBytes, req.payload.encrypted_data) as Record<string, any>);
    }
  }
  return out;
}

const messagePushes = (user: SeededUser, messageId: number) => pushesTo(user).filter((p) => p.type === 'message' && p.message_id === messageId);

async function setSettings(user: SeededUser, changes: Record<string, unknown>) {
  const row = await env.db.user.findUniqueOrThrow({ where: { id: user.id } });
  await env.db.user.update({ where: { id: user.id }, data: { settings: { ...(row.settings as Record<string, string | number | boolean>), ...(changes as Record<string, boolean>) } } });
}

/** Waits long enough for the consumer and worker to have acted on whatever was sent. */
async function settle(ms = 800) {
  await new Promise((r) => setTimeout(r, ms));
}

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  relay = await TestRelay.start();
  push = await startPush(env, overrides());
  await registerDevice(realm.member, 1, 'apns');
  await registerDevice(realm.member2, 2);
  await registerDevice(realm.admin, 3);
});

afterAll(async () => {
  await push?.stop();
  await relay?.close();
  await env?.close();
});

describe('direct messages', () => {
  it('reach the recipient end-to-end encrypted, and never the sender', async () => {
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.member, realm.admin], content: 'Lunch at noon?' });
    const [payload] = await waitFor('notification', async () => messagePushes(realm.member, msg.id).length > 0 && messagePushes(realm.member, msg.id));
    expect(payload).toEqual({
      type: 'message',
      message_id: msg.id,
      recipient_type: 'direct',
      recipient_user_ids: [realm.member.id, realm.member2.id, realm.admin.id].sort((a, b) => a - b),
      sender_id: realm.member2.id,
      sender_full_name: 'Othello',
      sender_avatar_url: `https://secure.gravatar.com/avatar/${realm.member2.id}?d=identicon`,
      content: 'Lunch at noon?',
      time: expect.any(Number),
      realm_name: 'Test Organization',
      realm_url: 'https://chat.example.com',
      user_id: realm.member.id,
    });
    await waitFor('admin notification', async () => messagePushes(realm.admin, msg.id).length === 1);
    await settle();
    expect(messagePushes(realm.member2, msg.id)).toEqual([]);
    expect(messagePushes(realm.member, msg.id)).toHaveLength(1);
    // Remembered as shown, so that reading it can withdraw it.
    expect(await userFlags(env.db, realm.member, msg.id) & flagBit('active_mobile_push_notification')).toBeTruthy();
  });

  it('respect enable_offline_push_notifications', async () => {
    await setSettings(realm.admin, { enable_offline_push_notifications: false });
    try {
      const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.admin, realm.member], content: 'quiet' });
      await waitFor('member notification', async () => messagePushes(realm.member, msg.id).length === 1);
      await settle();
      expect(messagePushes(realm.admin, msg.id)).toEqual([]);
    } finally {
      await setSettings(realm.admin, { enable_offline_push_notifications: true });
    }
  });

  it('are not pushed when already read', async () => {
    const msg = await sendMessage(env.db, realm.realmId, {
      sender: realm.member2,
      recipients: [realm.member],
      content: 'seen',
      flags: { [realm.member.id]: ['read'] },
    });
    await settle();
    expect(messagePushes(realm.member, msg.id)).toEqual([]);
  });
});

describe('channel messages', () => {
  let channel: { id: number; name: string; topic: string };

  beforeAll(async () => {
    const stream = await createChannel(env.db, realm.realmId, 'Denmark', [realm.member, realm.member2, realm.admin], {
      [realm.admin.id]: { pushNotifications: true },
    });
    channel = { id: stream.id, name: stream.name, topic: 'castle' };
  });

  it('notify those with channel push on, and those mentioned', async () => {
    const msg = await sendMessage(env.db, realm.realmId, {
      sender: realm.member2,
      recipients: [realm.member, realm.admin],
      content: '@**King Hamlet** the ghost is back',
      channel,
      flags: { [realm.member.id]: ['mentioned'] },
    });
    const [mention] = await waitFor('mention push', async () => messagePushes(realm.member, msg.id).length > 0 && messagePushes(realm.member, msg.id));
    expect(mention).toMatchObject({
      recipient_type: 'channel',
      channel_id: channel.id,
      channel_name: 'Denmark',
      topic: 'castle',
      content: '@**King Hamlet** the ghost is back',
    });
    await waitFor('channel push', async () => messagePushes(realm.admin, msg.id).length === 1);
  });

  it('stay silent for subscribers without channel push or a mention', async () => {
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.admin, recipients: [realm.member, realm.member2], content: 'chatter', channel });
    await settle();
    expect(messagePushes(realm.member, msg.id)).toEqual([]);
    expect(messagePushes(realm.member2, msg.id)).toEqual([]);
  });

  it('follow enable_stream_push_notifications when the subscription inherits it', async () => {
    await setSettings(realm.member2, { enable_stream_push_notifications: true });
    try {
      const msg = await sendMessage(env.db, realm.realmId, { sender: realm.admin, recipients: [realm.member, realm.member2], content: 'news', channel });
      await waitFor('inherited channel push', async () => messagePushes(realm.member2, msg.id).length === 1);
      await settle(300);
      expect(messagePushes(realm.member, msg.id)).toEqual([]);
    } finally {
      await setSettings(realm.member2, { enable_stream_push_notifications: false });
    }
  });

  it('honour wildcard_mentions_notify', async () => {
    await setSettings(realm.member, { wildcard_mentions_notify: false });
    try {
      const msg = await sendMessage(env.db, realm.realmId, {
        sender: realm.admin,
        recipients: [realm.member, realm.member2],
        content: '@**all** meeting',
        channel,
        flags: { [realm.member.id]: ['stream_wildcard_mentioned'], [realm.member2.id]: ['stream_wildcard_mentioned'] },
      });
      await waitFor('wildcard push', async () => messagePushes(realm.member2, msg.id).length === 1);
      await settle(300);
      expect(messagePushes(realm.member, msg.id)).toEqual([]);
    } finally {
      await setSettings(realm.member, { wildcard_mentions_notify: true });
    }
  });
  it('follow topic visibility: followed topics notify, muted topics do not', async () => {
    const policy = (user: SeededUser, value: number) =>
      env.db.$executeRawUnsafe(
        `INSERT INTO user_topics (realm_id, user_id, stream_id, topic_name, topic_key, visibility_policy)
         VALUES ($1, $2, $3, 'Castle', 'castle', $4)`,
        realm.realmId,
        user.id,
        channel.id,
        value,
      );
    await policy(realm.member, 3); // followed
    await policy(realm.admin, 1); // muted, although the admin has channel push on
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.member, realm.admin], content: 'to the ramparts', channel });
    const [pushed] = await waitFor('followed topic push', async () => messagePushes(realm.member, msg.id).length > 0 && messagePushes(realm.member, msg.id));
    expect(pushed!.topic).toBe('castle');
    await settle(300);
    expect(messagePushes(realm.admin, msg.id)).toEqual([]);
    await env.db.$executeRawUnsafe('DELETE FROM user_topics');
  });
});

describe('active clients', () => {
  async function activeQueue(user: SeededUser) {
    const store = new QueueStore(env.redis, env.prefix);
    return store.create({
      userId: user.id,
      realmId: realm.realmId,
      eventTypes: null,
      narrow: [],
      allPublicStreams: false,
      clientCapabilities: {},
      applyMarkdown: true,
      clientGravatar: false,
      idleTimeoutSecs: 600,
      clientName: 'test',
    });
  }

  it('get a moment to read the message, and then no push', async () => {
    const queueId = await activeQueue(realm.member);
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.member], content: 'are you there?' });
    const job = await waitFor('delayed job', async () => {
      const j = await push.services.queue.getJob(`notify-${realm.realmId}-${realm.member.id}-${msg.id}`);
      return j && (await j.getState()) === 'delayed' && j;
    });
    expect(job.data.trigger).toBe('direct_message');
    await markRead(env.db, realm.realmId, realm.member, [msg.id]);
    await waitFor('delayed job withdrawn', async () => !(await push.services.queue.getJob(job.id!)));
    await settle(3500); // past the delay
    expect(messagePushes(realm.member, msg.id)).toEqual([]);
    await new QueueStore(env.redis, env.prefix).delete(queueId, realm.member.id);
  });

  it('still get the push after the delay if they did not read it', async () => {
    const queueId = await activeQueue(realm.member);
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.member], content: 'hello?' });
    const started = Date.now();
    await waitFor('delayed push', async () => messagePushes(realm.member, msg.id).length === 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    await new QueueStore(env.redis, env.prefix).delete(queueId, realm.member.id);
  });

  it('get nothing with enable_online_push_notifications off', async () => {
    const queueId = await activeQueue(realm.admin);
    await setSettings(realm.admin, { enable_online_push_notifications: false });
    try {
      const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.admin], content: 'online' });
      await settle(2200);
      expect(messagePushes(realm.admin, msg.id)).toEqual([]);
    } finally {
      await setSettings(realm.admin, { enable_online_push_notifications: true });
      await new QueueStore(env.redis, env.prefix).delete(queueId, realm.admin.id);
    }
  });
});

describe('withdrawal', () => {
  it('removes a shown notification once the message is read', async () => {
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.member], content: 'read me' });
    await waitFor('notification', async () => messagePushes(realm.member, msg.id).length === 1);
    await markRead(env.db, realm.realmId, realm.member, [msg.id]);
    const removal = await waitFor('removal', async () =>
      pushesTo(realm.member).find((p) => p.type === 'remove' && (p.message_ids as number[]).includes(msg.id)),
    );
    expect(removal).toEqual({
      type: 'remove',
      message_ids: [msg.id],
      realm_name: 'Test Organization',
      realm_url: 'https://chat.example.com',
      user_id: realm.member.id,
    });
    await waitFor('flag cleared', async () => !(await userFlags(env.db, realm.member, msg.id) & flagBit('active_mobile_push_notification')));

    // To APNs, as the relay passes them on: the message as an alert, its removal as a silent background push.
    const d = devices.get(realm.member.id)!;
    const delivered = relay.e2eeDeliveries
      .filter((x) => x.tokenId === d.tokenId)
      .map((x) => ({ request: x.request, plain: clientDecrypt(d.keyBytes, x.request.payload.encrypted_data)! }))
      .filter((x) => x.plain.message_id === msg.id || (x.plain.message_ids as number[] | undefined)?.includes(msg.id));
    const shapes = delivered.map((x) => JSON.stringify([x.plain.type, x.request.http_headers, x.request.payload.aps]));
    expect([...new Set(shapes)].map((x) => JSON.parse(x))).toEqual([
      ['message', { apns_priority: 10, apns_push_type: 'alert' }, { 'mutable-content': 1, alert: { title: 'New notification' } }],
      ['remove', { apns_priority: 5, apns_push_type: 'background' }, { 'content-available': 1 }],
    ]);
  });
  it('removes the notification of a deleted message', async () => {
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.member], content: 'oops' });
    await waitFor('notification', async () => messagePushes(realm.member, msg.id).length === 1);
    await env.db.$transaction(async (tx) => {
      await tx.message.delete({ where: { id: msg.id } });
      await recordEvent(tx, {
        realmId: realm.realmId,
        type: 'delete_message',
        users: [realm.member.id, realm.member2.id],
        event: { type: 'delete_message', message_type: 'private', message_ids: [msg.id] },
      });
    });
    const removal = await waitFor('removal', async () =>
      pushesTo(realm.member).find((p) => p.type === 'remove' && (p.message_ids as number[]).includes(msg.id)),
    );
    expect(removal.message_ids).toEqual([msg.id]);
  });
});

describe('relay failures', () => {
  it('are retried with backoff until the relay takes the notification', async () => {
    relay.script.push({ kind: 'status', status: 503 }, { kind: 'status', status: 500 });
    const before = relay.requestsTo('/notify').length;
    const msg = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.member], content: 'persist' });
    await waitFor('delivery after retries', async () => messagePushes(realm.member, msg.id).length === 3);
    const job = await push.services.queue.getJob(`notify-${realm.realmId}-${realm.member.id}-${msg.id}`);
    await waitFor('job completed', async () => (await job!.getState()) === 'completed');
    const attempts = relay.requestsTo('/notify').slice(before);
    expect(attempts).toHaveLength(3);
    // PUSH_RETRY_BASE_MS is 50: the retries wait about 50 ms, then about 100 ms.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(45);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(95);
  });

  it('survive a restart of the push service: jobs and unread events wait in Redis', async () => {
    // First attempt fails; the retry is far enough out that the service is gone by then.
    await push.stop();
    push = await startPush(env, { ...overrides(), PUSH_RETRY_BASE_MS: '1500' });
    relay.mode = { kind: 'status', status: 502 };
    const first = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.member], content: 'before restart' });
    await waitFor('first attempt', async () => messagePushes(realm.member, first.id).length === 1);
    await push.stop();

    // While no push service runs, another message arrives.
    const second = await sendMessage(env.db, realm.realmId, { sender: realm.member2, recipients: [realm.member], content: 'while down' });
    relay.mode = { kind: 'ok' };
    push = await startPush(env, overrides());
    await waitFor('retried job delivered', async () => messagePushes(realm.member, first.id).length === 2, 15_000);
    const [late] = await waitFor('queued event delivered', async () => messagePushes(realm.member, second.id).length === 1 && messagePushes(realm.member, second.id));
    expect(late!.content).toBe('while down');
  });
});
