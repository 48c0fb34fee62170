/**
 * GET /messages reads its pages with node-postgres and one statement of facts
 * (actions/fetch-wire.ts). Every message object it returns must be the object
 * buildWireMessages makes from the Prisma row (as sends and single fetches do), key for key and
 * in the same order, whatever the options, narrow and realm settings; one object is also
 * spelled out in full.
 */
import { apiFlagNames, flagBit, type MessageFlag } from '@chat/contracts';
import { createDb, withShortQuerySettings } from '@chat/db';
import { TEST_REALM_URL, type SeededUser } from '@chat/testing';
import { buildWireMessages } from '../lib/wire';
import { startHarness, type Harness } from './support';

let h: Harness;
let verona: number;
const ids: Record<string, number> = {};

async function send(user: SeededUser, body: Record<string, string>): Promise<number> {
  const res = await h.api.post('/api/v1/messages').set(h.as(user)).type('form').send(body);
  expect(res.status).toBe(200);
  return res.body.id as number;
}

beforeAll(async () => {
  h = await startHarness();
  const { db } = h.env;
  const { owner, admin, member, member2, bot } = h.realm;
  await db.realm.update({ where: { id: h.realm.realmId }, data: { stringId: 'verona-co' } });
  await db.linkifier.create({ data: { realmId: h.realm.realmId, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://tracker.example/{id}' } });
  verona = await h.createStream(owner, { name: 'Verona' }, [owner, admin, member, bot]);
  const channel = (topic: string, content: string) => ({ type: 'stream', to: 'Verona', topic, content });
  ids.linked = await send(owner, channel('deploy #42 https://example.com/x', '**bold** words'));
  ids.bot = await send(bot, channel('deploy #42 https://example.com/x', 'from a bot'));
  ids.me = await send(member, channel('chat', '/me waves'));
  ids.hidden = await send(admin, channel('chat', 'hidden address'));
  ids.edited = await send(owner, channel('renamed', 'edited text'));
  ids.empty = await send(admin, channel('chat', 'no topic later'));
  ids.historical = await send(owner, channel('chat', 'before the viewer had a copy'));
  ids.dm = await send(owner, { type: 'private', to: JSON.stringify([member2.id, member.id]), content: 'a group DM' });
  // What sends do not make: an uploaded avatar, a hidden address, an edit and a move, an empty
  // topic, a message the viewer has no copy of (read through the channel's history).
  await db.user.update({ where: { id: owner.id }, data: { avatarSource: 'U', avatarVersion: 3 } });
  await db.user.update({ where: { id: admin.id }, data: { settings: { email_address_visibility: 3 } } });
  const edit = { timestamp: 1700000000, user_id: owner.id, prev_topic: '', topic: 'renamed', prev_content: 'text', prev_rendered_content: '<p>text</p>' };
  await db.message.update({
    where: { id: ids.edited },
    data: { editHistory: [edit], lastEditTime: new Date('2026-01-02T03:04:05.678Z'), lastMovedTime: new Date('2026-01-02T03:04:05.999Z') },
  });
  await db.message.update({ where: { id: ids.empty }, data: { topic: '' } });
  await db.userMessage.delete({ where: { userId_messageId: { userId: member.id, messageId: ids.historical } } });
  const flag = (id: number, ...flags: MessageFlag[]) =>
    db.userMessage.update({ where: { userId_messageId: { userId: member.id, messageId: id } }, data: { flags: flags.reduce((a, f) => a | flagBit(f), 0n) } });
  await flag(ids.linked, 'read', 'starred', 'stream_wildcard_mentioned', 'is_private');
  await flag(ids.bot, 'mentioned', 'has_alert_word');
  const react = (user: SeededUser, id: number, emoji: string) =>
    h.api.post(`/api/v1/messages/${id}/reactions`).set(h.as(user)).type('form').send({ emoji_name: emoji });
  expect((await react(member2, ids.linked, 'octopus')).status).toBe(200); // not a sender
  expect((await react(admin, ids.linked, 'heart')).status).toBe(200);
  expect((await react(member, ids.dm, 'heart')).status).toBe(200);
  await db.submessage.create({ data: { messageId: ids.linked, senderId: member.id, msgType: 'widget', content: '{"type":"vote"}' } });
  await db.submessage.create({ data: { messageId: ids.linked, senderId: owner.id, msgType: 'widget', content: '{"type":"x"}' } });
});
afterAll(() => h?.close());

async function fetchMessages(query: Record<string, string>): Promise<Array<Record<string, unknown>>> {
  const res = await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ anchor: 'newest', num_before: '100', num_after: '0', ...query });
  expect(res.status).toBe(200);
  return res.body.messages;
}

/** The objects of these messages as buildWireMessages makes them, with the viewer's flags. */
async function expected(messageIds: number[], opts: { applyMarkdown?: boolean; clientGravatar?: boolean; allowEmptyTopicName?: boolean } = {}) {
  const { db } = h.env;
  const messages = await db.message.findMany({ where: { id: { in: messageIds } }, orderBy: { id: 'asc' } });
  const realm = await db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
  const wire = await buildWireMessages(db, messages, {
    applyMarkdown: opts.applyMarkdown ?? true,
    clientGravatar: opts.clientGravatar ?? true,
    allowEmptyTopicName: opts.allowEmptyTopicName ?? false,
    realmUrl: TEST_REALM_URL,
    allowEditHistory: realm.allowEditHistory,
  });
  const copies = await db.userMessage.findMany({ where: { userId: h.realm.member.id, messageId: { in: messageIds } } });
  const flags = new Map(copies.map((c) => [c.messageId, c.flags]));
  for (const w of wire) w.flags = apiFlagNames(flags.get(w.id) ?? flagBit('read') | flagBit('historical'));
  return wire;
}

const idsOf = (messages: Array<Record<string, unknown>>) => messages.map((m) => m.id as number);

describe('fetched message objects', () => {
  it('spell out every key of a message with reactions, submessages, topic links and flags', async () => {
    const [m] = (await fetchMessages({ narrow: JSON.stringify([{ operator: 'channel', operand: verona }]) })).filter((x) => x.id === ids.linked);
    const { owner, admin, member, member2 } = h.realm;
    const user = (u: SeededUser) => ({ id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false });
    const submessageIds = (await h.env.db.submessage.findMany({ where: { messageId: ids.linked }, orderBy: { id: 'asc' } })).map((s) => s.id);
    expect(JSON.stringify(m)).toBe(JSON.stringify({
      id: ids.linked,
      sender_id: owner.id,
      sender_full_name: owner.fullName,
      sender_email: owner.email,
      sender_realm_str: 'verona-co',
      avatar_url: `${TEST_REALM_URL}/avatar/${owner.id}?version=3`,
      client: m!.client,
      content: '<p><strong>bold</strong> words</p>',
      content_type: 'text/html',
      display_recipient: 'Verona',
      is_me_message: false,
      reactions: [
        { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: member2.id, user: user(member2) },
        { emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji', user_id: admin.id, user: user(admin) },
      ],
      recipient_id: verona * 2,
      subject: 'deploy #42 https://example.com/x',
      topic_links: [{ text: '#42', url: 'https://tracker.example/42' }, { text: 'https://example.com/x', url: 'https://example.com/x' }],
      submessages: [
        { msg_type: 'widget', content: '{"type":"vote"}', message_id: ids.linked, sender_id: member.id, id: submessageIds[0] },
        { msg_type: 'widget', content: '{"type":"x"}', message_id: ids.linked, sender_id: owner.id, id: submessageIds[1] },
      ],
      timestamp: m!.timestamp,
      type: 'stream',
      stream_id: verona,
      flags: ['read', 'starred', 'stream_wildcard_mentioned', 'wildcard_mentioned'],
    }));
    expect(typeof m!.client).toBe('string');
    expect(typeof m!.timestamp).toBe('number');
  });

  it('spell out edits, moves and a group conversation', async () => {
    const all = await fetchMessages({});
    const edited = all.find((x) => x.id === ids.edited)!;
    expect(edited).toMatchObject({ subject: 'renamed', last_edit_timestamp: 1767323045, last_moved_timestamp: 1767323045 });
    expect(edited.edit_history).toEqual([{ timestamp: 1700000000, user_id: h.realm.owner.id, prev_topic: 'general chat', topic: 'renamed', prev_content: 'text', prev_rendered_content: '<p>text</p>' }]);
    expect(Object.keys(edited).slice(-4)).toEqual(['last_edit_timestamp', 'last_moved_timestamp', 'edit_history', 'flags']);
    const dm = all.find((x) => x.id === ids.dm)!;
    const { owner, member, member2 } = h.realm;
    const user = (u: SeededUser) => ({ id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false });
    expect(dm).toMatchObject({ type: 'private', subject: '', topic_links: [], recipient_id: expect.any(Number), display_recipient: [owner, member, member2].sort((a, b) => a.id - b.id).map(user) });
    expect(dm).not.toHaveProperty('stream_id');
    expect(all.find((x) => x.id === ids.me)).toMatchObject({ is_me_message: true });
    expect(all.find((x) => x.id === ids.hidden)!.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
    // A Gravatar bot's under client_gravatar: null, the client computes it (as the family answers).
    expect(all.find((x) => x.id === ids.bot)!.avatar_url).toBeNull();
    expect(all.find((x) => x.id === ids.empty)).toMatchObject({ subject: 'general chat' });
  });

  const cases: Array<[string, Record<string, string>, Parameters<typeof expected>[1]]> = [
    ['the defaults', {}, {}],
    ['apply_markdown=false', { apply_markdown: 'false' }, { applyMarkdown: false }],
    ['client_gravatar=false', { client_gravatar: 'false' }, { clientGravatar: false }],
    ['allow_empty_topic_name=true', { allow_empty_topic_name: 'true' }, { allowEmptyTopicName: true }],
  ];
  const narrows: Array<[string, () => unknown[]]> = [
    ['no narrow', () => []],
    ['a channel (its history)', () => [{ operator: 'channel', operand: verona }]],
    ['a channel and topic', () => [{ operator: 'channel', operand: verona }, { operator: 'topic', operand: 'chat' }]],
    ['is:starred', () => [{ operator: 'is', operand: 'starred' }]],
  ];
  for (const [name, query, opts] of cases) {
    for (const [narrowName, narrow] of narrows) {
      it(`are those buildWireMessages makes: ${name}, ${narrowName}`, async () => {
        const got = await fetchMessages({ ...query, narrow: JSON.stringify(narrow()) });
        expect(got.length).toBeGreaterThan(0);
        expect(JSON.stringify(got)).toBe(JSON.stringify(await expected(idsOf(got), opts)));
      });
    }
  }

  it('are the same by id list, and around an anchor in the middle', async () => {
    const byIds = await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ message_ids: JSON.stringify([ids.dm, ids.linked, ids.historical]) });
    expect(idsOf(byIds.body.messages)).toEqual([ids.linked, ids.historical, ids.dm]);
    expect(JSON.stringify(byIds.body.messages)).toBe(JSON.stringify(await expected([ids.linked, ids.historical, ids.dm])));
    const around = await h.api.get('/api/v1/messages').set(h.as(h.realm.member))
      .query({ anchor: String(ids.hidden), num_before: '2', num_after: '2', narrow: JSON.stringify([{ operator: 'channel', operand: verona }]) });
    expect(around.body).toMatchObject({ found_anchor: true, found_oldest: false, found_newest: false });
    expect(idsOf(around.body.messages)).toEqual([ids.bot, ids.me, ids.hidden, ids.edited, ids.empty]);
    expect(JSON.stringify(around.body.messages)).toBe(JSON.stringify(await expected(idsOf(around.body.messages))));
  });

  it('leave edit history out when the realm hides it', async () => {
    await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { allowEditHistory: false } });
    try {
      const got = await fetchMessages({});
      expect(got.find((x) => x.id === ids.edited)).not.toHaveProperty('edit_history');
      expect(JSON.stringify(got)).toBe(JSON.stringify(await expected(idsOf(got))));
    } finally {
      await h.env.db.realm.update({ where: { id: h.realm.realmId }, data: { allowEditHistory: true } });
    }
  });
});

describe("messaging's database sessions", () => {
  it('run without parallel workers or JIT, keeping options the URL already has', async () => {
    const url = new URL(h.env.databaseUrl);
    url.searchParams.set('options', '-c statement_timeout=12345');
    const db = createDb(withShortQuerySettings(url.toString()), { poolSize: 1 });
    try {
      const show = async (name: string) => (await db.$queryRawUnsafe<Array<Record<string, string>>>(`SHOW ${name}`))[0]![name];
      expect([await show('max_parallel_workers_per_gather'), await show('jit'), await show('statement_timeout')]).toEqual(['0', 'off', '12345ms']);
    } finally {
      await db.$disconnect();
    }
  });
});
