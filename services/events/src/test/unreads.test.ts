/**
 * Register's unread_msgs and starred_messages, over rows stored the way the messaging service
 * stores them: messages, one user_messages row per recipient with its flag bits, subscriptions
 * and topic visibility policies.
 */
import { flagBit, type MessageFlag } from '@chat/contracts';
import { seedRealm, setupTestEnv, type SeededRealm, type TestEnv } from '@chat/testing';
import { start, type EventsHandle } from '../app';
import { unreadMsgs } from '../state/unreads';
import { register } from './support';

let env: TestEnv;
let realm: SeededRealm;
let service: EventsHandle;
const ids: Record<string, number> = {};
let streams: Record<'open' | 'quiet' | 'left', number>;

const bits = (...flags: MessageFlag[]) => flags.reduce((sum, f) => sum | flagBit(f), 0n);

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  service = await start({ ...env.env, STREAM_PARTITIONS: '2' });
  const { db } = env;
  const realmId = realm.realmId;
  const me = realm.member.id;
  const other = realm.member2.id;
  const stream = (name: string) => db.stream.create({ data: { realmId, name, nameKey: name.toLowerCase() } });
  const [open, quiet, left] = await Promise.all([stream('Open'), stream('Quiet'), stream('Left')]);
  streams = { open: open.id, quiet: quiet.id, left: left.id };
  await db.subscription.createMany({
    data: [
      { userId: me, streamId: open.id },
      { userId: me, streamId: quiet.id, isMuted: true },
      { userId: me, streamId: left.id, active: false },
      { userId: other, streamId: open.id },
    ],
  });
  const topic = (streamId: number, topicName: string, visibilityPolicy: number, userId = me) =>
    db.userTopic.create({ data: { realmId, userId, streamId, topicName, topicKey: topicName.toLowerCase(), visibilityPolicy } });
  await topic(open.id, 'Muted here', 1);
  await topic(quiet.id, 'Loud', 3);
  // Another user's policy must not change how the viewer's unreads are counted.
  await topic(open.id, 'Alpha', 1, other);

  const conv = (members: number[]) =>
    db.directConversation.create({ data: { realmId, memberKey: [...members].sort((a, b) => a - b).join(','), memberIds: members } });
  const [pair, self, group] = await Promise.all([conv([me, other]), conv([me]), conv([me, other, realm.admin.id])]);

  /** One message with its user_messages rows, in send order: mine with `mine`, the other's with `theirs`. */
  const send = async (name: string, at: { streamId?: number; topic?: string; conversationId?: number }, mine: bigint | null, theirs: bigint | null = 0n) => {
    const m = await db.message.create({
      data: {
        realmId, senderId: other, recipientType: at.streamId ? 'stream' : 'private', streamId: at.streamId ?? null,
        conversationId: at.conversationId ?? null, topic: at.topic ?? '', content: name, renderedContent: `<p>${name}</p>`,
      },
    });
    ids[name] = m.id;
    const rows = [
      ...(mine === null ? [] : [{ userId: me, messageId: m.id, flags: mine }]),
      ...(theirs === null ? [] : [{ userId: other, messageId: m.id, flags: theirs }]),
    ];
    await db.userMessage.createMany({ data: rows });
  };
  const dm = bits('is_private');
  await send('alpha1', { streamId: open.id, topic: 'Alpha' }, 0n, bits('read'));
  await send('alpha2', { streamId: open.id, topic: 'Alpha' }, bits('mentioned'));
  await send('alphaRead', { streamId: open.id, topic: 'Alpha' }, bits('read', 'starred'));
  await send('alpha3', { streamId: open.id, topic: 'alpha' }, 0n);
  await send('mutedWildcard', { streamId: open.id, topic: 'Muted here' }, bits('stream_wildcard_mentioned'));
  await send('mutedDirect', { streamId: open.id, topic: 'muted HERE' }, bits('mentioned'));
  await send('empty', { streamId: open.id, topic: '' }, bits('topic_wildcard_mentioned'));
  await send('quiet', { streamId: quiet.id, topic: 'quiet' }, 0n, null);
  await send('loud', { streamId: quiet.id, topic: 'loud' }, bits('stream_wildcard_mentioned'), null);
  await send('leftBehind', { streamId: left.id, topic: 'x' }, bits('mentioned'), null);
  await send('pair', { conversationId: pair.id }, dm | bits('starred'));
  await send('pairRead', { conversationId: pair.id }, dm | bits('read'));
  await send('self', { conversationId: self.id }, dm, null);
  await send('group', { conversationId: group.id }, dm | bits('stream_wildcard_mentioned'));
  // The other user's own unread, in a channel the viewer never saw, and a star of theirs.
  await send('notMine', { streamId: open.id, topic: 'Theirs' }, null, bits('mentioned', 'starred'));
});

afterAll(async () => {
  await service?.stop();
  await env?.close();
});

const both = { fetch_event_types: JSON.stringify(['message', 'update_message_flags']) };

it('groups the viewer\'s unread messages by conversation in the API family\'s shape', async () => {
  const body = (await register(service.url, realm.realmId, realm.member, both)).body;
  const me = realm.member.id;
  const other = realm.member2.id;
  expect(body.unread_msgs).toEqual({
    pms: [
      { other_user_id: me, sender_id: me, unread_message_ids: [ids.self] },
      { other_user_id: other, sender_id: other, unread_message_ids: [ids.pair] },
    ].sort((a, b) => a.other_user_id - b.other_user_id),
    streams: [
      // Topics are one conversation whatever their case; the oldest unread names it.
      { stream_id: streams.open, topic: 'Alpha', unread_message_ids: [ids.alpha1, ids.alpha2, ids.alpha3] },
      { stream_id: streams.open, topic: 'general chat', unread_message_ids: [ids.empty] },
      { stream_id: streams.open, topic: 'Muted here', unread_message_ids: [ids.mutedWildcard, ids.mutedDirect] },
      { stream_id: streams.quiet, topic: 'loud', unread_message_ids: [ids.loud] },
      { stream_id: streams.quiet, topic: 'quiet', unread_message_ids: [ids.quiet] },
    ],
    huddles: [{ user_ids_string: [me, other, realm.admin.id].sort((a, b) => a - b).join(','), unread_message_ids: [ids.group] }],
    // Direct mentions always; wildcard mentions only outside muted conversations.
    mentions: [ids.alpha2, ids.mutedDirect, ids.empty, ids.loud, ids.group].sort((a, b) => a - b),
    // Muted channel and topic messages are listed but not counted: a followed topic in a muted
    // channel is counted, a muted topic in an unmuted one is not.
    count: [ids.alpha1, ids.alpha2, ids.alpha3, ids.empty, ids.loud, ids.pair, ids.self, ids.group].length,
    old_unreads_missing: false,
  });
});

it('keeps the empty topic for clients that declared empty_topic_name', async () => {
  const body = (await register(service.url, realm.realmId, realm.member, {
    ...both,
    client_capabilities: JSON.stringify({ empty_topic_name: true }),
  })).body;
  const topics = (body.unread_msgs.streams as Array<{ topic: string }>).map((s) => s.topic);
  expect(topics).toEqual(['', 'Alpha', 'Muted here', 'loud', 'quiet']);
});

it('shows one user nothing of another\'s unread or starred messages', async () => {
  const body = (await register(service.url, realm.realmId, realm.member2, {
    fetch_event_types: JSON.stringify(['message', 'update_message_flags', 'starred_messages']),
  })).body;
  const all = [
    ...body.unread_msgs.streams.flatMap((s: { unread_message_ids: number[] }) => s.unread_message_ids),
    ...body.unread_msgs.pms.flatMap((s: { unread_message_ids: number[] }) => s.unread_message_ids),
    ...body.unread_msgs.huddles.flatMap((s: { unread_message_ids: number[] }) => s.unread_message_ids),
  ].sort((a, b) => a - b);
  // member2's own rows: everything they received unread (alpha1 they read), and their star.
  const theirs = ['alpha2', 'alphaRead', 'alpha3', 'mutedWildcard', 'mutedDirect', 'empty', 'pair', 'pairRead', 'group', 'notMine'];
  expect(all).toEqual(theirs.map((n) => ids[n]).sort((a, b) => a - b));
  // Their muted "Alpha" topic is muted for them, not for the viewer above.
  expect(body.unread_msgs.count).toBe(theirs.length - 3);
  expect(body.unread_msgs.mentions).toEqual([ids.notMine]);
  expect(body.starred_messages).toEqual([ids.notMine]);
});

it('lists the viewer\'s starred messages, read or not, oldest first', async () => {
  const body = (await register(service.url, realm.realmId, realm.member, { fetch_event_types: JSON.stringify(['starred_messages']) })).body;
  expect(body.starred_messages).toEqual([ids.alphaRead, ids.pair]);
  expect(body).not.toHaveProperty('unread_msgs');
});

it('sends unread_msgs only when both message and update_message_flags are fetched', async () => {
  for (const types of [['message'], ['update_message_flags'], ['realm']]) {
    const body = (await register(service.url, realm.realmId, realm.member, { fetch_event_types: JSON.stringify(types) })).body;
    expect(body).not.toHaveProperty('unread_msgs');
    expect(body).not.toHaveProperty('starred_messages');
  }
  const everything = (await register(service.url, realm.realmId, realm.member)).body;
  expect(everything.unread_msgs.count).toBe(8);
  expect(everything.starred_messages).toEqual([ids.alphaRead, ids.pair]);
});

it('keeps the most recent unread messages when there are more than the limit, and says so', async () => {
  const cut = await unreadMsgs(env.db, realm.member.id, false, 3);
  // Newest first: the group, self and pair conversations; the channel left behind is skipped.
  expect(cut.old_unreads_missing).toBe(true);
  expect(cut.streams).toEqual([]);
  expect([...cut.pms, ...cut.huddles].flatMap((c) => c.unread_message_ids).sort((a, b) => a - b)).toEqual([ids.pair, ids.self, ids.group]);
  // Eleven unread in all: a limit above that loses nothing.
  const whole = await unreadMsgs(env.db, realm.member.id, false, 12);
  expect(whole.old_unreads_missing).toBe(false);
  expect(whole.count).toBe(8);
});

it('gives spectators the empty shape', async () => {
  const r = await env.db.realm.findUniqueOrThrow({ where: { id: realm.realmId } });
  await env.db.realm.update({ where: { id: r.id }, data: { settings: { ...(r.settings as object), enable_spectator_access: true } } });
  await env.db.stream.update({ where: { id: streams.open }, data: { isWebPublic: true } });
  try {
    const body = (await register(service.url, realm.realmId, undefined, { client_gravatar: 'false' })).body;
    expect(body.unread_msgs).toEqual({ pms: [], streams: [], huddles: [], mentions: [], count: 0, old_unreads_missing: false });
    expect(body.starred_messages).toEqual([]);
  } finally {
    await env.db.stream.update({ where: { id: streams.open }, data: { isWebPublic: false } });
    await env.db.realm.update({ where: { id: r.id }, data: { settings: r.settings as object } });
  }
});
