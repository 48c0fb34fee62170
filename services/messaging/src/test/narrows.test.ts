import { startHarness, type Harness } from './support';

let h: Harness;
const ids: Record<string, number> = {};

beforeAll(async () => {
  h = await startHarness();
  const { owner, member, member2, admin } = h.realm;
  await h.createStream(owner, { name: 'Denmark' }, [owner, member, member2]);
  await h.createStream(owner, { name: 'Verona' }, [owner, member]);
  await h.createStream(admin, { name: 'secret', inviteOnly: true }, [admin, member]);
  const send = async (key: string, user: typeof member, body: Record<string, string>) => {
    const res = await h.api.post('/api/v1/messages').set(h.as(user)).type('form').send(body);
    expect(res.status).toBe(200);
    ids[key] = res.body.id;
  };
  await send('castle1', member, { type: 'stream', to: 'Denmark', topic: 'Castle', content: 'The ghost walks at midnight' });
  await send('castle2', owner, { type: 'stream', to: 'Denmark', topic: 'castle', content: 'See https://example.com for the plan' });
  await send('garden', member2, { type: 'stream', to: 'Denmark', topic: 'garden', content: 'Flowers for @**King Hamlet**' });
  await send('verona', owner, { type: 'stream', to: 'Verona', topic: 'balcony', content: 'wherefore art thou' });
  await send('secret', admin, { type: 'stream', to: 'secret', topic: 'plot', content: 'ghost of a chance' });
  await send('dm', member2, { type: 'direct', to: JSON.stringify([member.id]), content: 'a private ghost story' });
  await send('group', owner, { type: 'direct', to: JSON.stringify([member.id, member2.id]), content: 'group chat' });
  await send('general', member, { type: 'stream', to: 'Verona', topic: '', content: 'in the general chat' });
});
afterAll(() => h?.close());

async function narrow(n: unknown, extra: Record<string, string> = {}, user = h.realm.member): Promise<number[]> {
  const res = await h.api
    .get('/api/v1/messages')
    .set(h.as(user))
    .query({ anchor: 'newest', num_before: '100', num_after: '0', narrow: JSON.stringify(n), ...extra });
  expect(res.body).toMatchObject({ result: 'success' });
  return res.body.messages.map((m: { id: number }) => m.id);
}

describe('narrows', () => {
  it('reads both wire forms, case-insensitive topics, and negation', async () => {
    expect(await narrow([{ operator: 'stream', operand: 'Denmark' }, { operator: 'topic', operand: 'CASTLE' }])).toEqual([ids.castle1, ids.castle2]);
    expect(await narrow([['channel', 'denmark'], ['subject', 'castle']])).toEqual([ids.castle1, ids.castle2]);
    expect(await narrow([['channel', 'Denmark'], { operator: 'topic', operand: 'castle', negated: true }])).toEqual([ids.garden]);
    expect(await narrow([['channel', 'Denmark'], ['-topic', 'castle']])).toEqual([ids.garden]);
  });

  it('filters by sender, direct conversations and is:dm', async () => {
    const { owner, member2 } = h.realm;
    expect(await narrow([['sender', owner.email]])).toEqual([ids.castle2, ids.verona, ids.group]);
    expect(await narrow([['sender', owner.id]])).toEqual([ids.castle2, ids.verona, ids.group]);
    expect(await narrow([['dm', member2.email]])).toEqual([ids.dm]);
    expect(await narrow([['dm', [member2.id, owner.id]]])).toEqual([ids.group]);
    expect(await narrow([['dm-with', member2.id]])).toEqual([ids.dm, ids.group]);
    expect(await narrow([['is', 'dm']])).toEqual([ids.dm, ids.group]);
    expect(await narrow([['is', 'private']], {}, member2)).toEqual([ids.dm, ids.group]);
  });

  it('filters by is:mentioned, has:link, id and is:unread', async () => {
    expect(await narrow([['is', 'mentioned']])).toEqual([ids.garden]);
    expect(await narrow([['has', 'link']])).toEqual([ids.castle2]);
    expect(await narrow([['id', ids.verona]])).toEqual([ids.verona]);
    expect(await narrow([['is', 'unread'], ['channel', 'Verona']])).toEqual([ids.verona, ids.general]);
  });

  it('searches with Postgres full-text search and highlights matches', async () => {
    const res = await h.api
      .get('/api/v1/messages')
      .set(h.as(h.realm.member))
      .query({ anchor: 'newest', num_before: '10', num_after: '0', narrow: JSON.stringify([['search', 'ghosts']]) });
    expect(res.body).toMatchObject({ result: 'success' });
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.castle1, ids.secret, ids.dm]);
    expect(res.body.messages[0].match_content).toContain('<span class="highlight">ghost</span>');
    expect(await narrow([['search', 'ghost'], ['channel', 'Denmark']])).toEqual([ids.castle1]);
    // member2 is in neither the private channel nor the first DM.
    expect(await narrow([['search', 'ghost']], {}, h.realm.member2)).toEqual([ids.castle1, ids.dm]);
  });

  it('reads all public channels with channels:public, but not for guests', async () => {
    expect(await narrow([['channels', 'public']], {}, h.realm.member2)).toEqual([ids.castle1, ids.castle2, ids.garden, ids.verona, ids.general]);
    expect(await narrow([['streams', 'public']], {}, h.realm.guest)).toEqual([]);
  });

  it('refuses unknown operators and channels', async () => {
    const res = await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ anchor: 'newest', num_before: '1', narrow: JSON.stringify([['bogus', 'x']]) });
    expect(res.body).toMatchObject({ code: 'BAD_NARROW', msg: 'Invalid narrow operator: unknown operator bogus' });
    const missing = await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ anchor: 'newest', num_before: '1', narrow: JSON.stringify([['channel', 'Nowhere']]) });
    expect(missing.body).toMatchObject({ code: 'BAD_NARROW', msg: 'Invalid narrow operator: unknown channel Nowhere' });
    const byId = await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ anchor: 'newest', num_before: '1', narrow: JSON.stringify([{ operator: 'channel', operand: 987654 }]) });
    expect(byId.body.msg).toBe('Invalid narrow operator: unknown channel 987654');
  });

  it('refuses a narrow to channel and direct messages at once, unless one side is negated', async () => {
    const both = 'Invalid narrow operator: No message can be both a channel message and direct message';
    const dm = h.realm.member2.email;
    for (const terms of [[['channel', 'Denmark'], ['dm', dm]], [['is', 'dm'], ['topic', 'castle']], [['channels', 'public'], ['pm-with', dm]], [['stream', 'Denmark'], ['is', 'private']]]) {
      const res = await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ anchor: 'newest', num_before: '1', narrow: JSON.stringify(terms) });
      expect([terms, res.status, res.body]).toEqual([terms, 400, { result: 'error', code: 'BAD_NARROW', msg: both }]);
    }
    expect(await narrow([{ operator: 'is', operand: 'dm', negated: true }, ['channel', 'Verona'], ['topic', 'balcony']])).toEqual([ids.verona]);
  });
});

describe('anchors and parameters', () => {
  it('first_unread anchors on the oldest unread message', async () => {
    await h.api.post('/api/v1/messages/flags').set(h.as(h.realm.member)).type('form').send({ messages: JSON.stringify([ids.castle1, ids.castle2]), op: 'add', flag: 'read' });
    const res = await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ anchor: 'first_unread', num_before: '1', num_after: '1', narrow: JSON.stringify([['channel', 'Denmark']]) });
    expect(res.body.anchor).toBe(ids.garden);
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.castle2, ids.garden]);
    const legacy = await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ use_first_unread_anchor: 'true', num_before: '0', num_after: '0', narrow: JSON.stringify([['channel', 'Denmark']]) });
    expect(legacy.body.anchor).toBe(ids.garden);
  });

  it('date anchors on the first message on or after the date, else the newest', async () => {
    await h.env.db.message.update({ where: { id: ids.castle1 }, data: { dateSent: new Date('2020-01-01T10:00:00Z') } });
    await h.env.db.message.update({ where: { id: ids.castle2 }, data: { dateSent: new Date('2020-01-02T10:00:00Z') } });
    const on = await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ anchor: 'date', anchor_date: '2020-01-02', num_before: '0', num_after: '0' });
    expect(on.body).toMatchObject({ result: 'success' });
    expect(on.body.anchor).toBe(ids.castle2);
    const later = await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ anchor: 'date', anchor_date: '2999-01-01T00:00:00+02:00', num_before: '0', num_after: '0' });
    expect(later.body.anchor).toBe(10000000000000000);
  });

  it('fetches by message_ids, only those the user may read, and refuses mixing with range parameters', async () => {
    const res = await h.api.get('/api/v1/messages').set(h.as(h.realm.member2)).query({ message_ids: JSON.stringify([ids.secret, ids.verona, ids.dm]) });
    // Verona is public (history readable), secret is not theirs, the DM is theirs.
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual([ids.verona, ids.dm]);
    expect(res.body.messages[0].flags).toEqual(['read', 'historical']);
    expect(res.body.anchor).toBeUndefined();
    const mixed = await h.api.get('/api/v1/messages').set(h.as(h.realm.member2)).query({ message_ids: '[1]', anchor: 'newest' });
    expect(mixed.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor' });
  });

  it('limits the batch size and validates the anchor', async () => {
    const big = await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ anchor: 'newest', num_before: '4000', num_after: '1001' });
    expect(big.body.msg).toBe('Too many messages requested (maximum 5000).');
    expect((await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ anchor: 'soon', num_before: '1' })).body.msg).toBe('Invalid anchor');
    expect((await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ num_before: '1' })).body.msg).toBe("Missing 'anchor' argument.");
  });

  it('returns raw Markdown, gravatar nulls and the empty topic name on request', async () => {
    const res = await h.api
      .get('/api/v1/messages')
      .set(h.as(h.realm.member))
      .query({ message_ids: JSON.stringify([ids.garden, ids.general]), apply_markdown: 'false', client_gravatar: 'true' });
    const [garden, general] = res.body.messages;
    expect(garden).toMatchObject({ content: 'Flowers for @**King Hamlet**', content_type: 'text/x-markdown', avatar_url: null });
    expect(general.subject).toBe('general chat');
    const raw = await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ message_ids: JSON.stringify([ids.general]), allow_empty_topic_name: 'true' });
    expect(raw.body.messages[0].subject).toBe('');
    const topic = await narrow([['channel', 'Verona'], ['topic', '']]);
    expect(topic).toEqual([ids.general]);
    // The empty topic's display name finds it too, as clients without empty-topic support ask.
    expect(await narrow([['channel', 'Verona'], ['topic', 'general chat']])).toEqual([ids.general]);
  });

  it('gives direct messages their participants as display_recipient', async () => {
    const res = await h.api.get('/api/v1/messages').set(h.as(h.realm.member)).query({ message_ids: JSON.stringify([ids.group]) });
    const { owner, member, member2 } = h.realm;
    expect(res.body.messages[0].display_recipient).toEqual(
      [owner, member, member2].sort((a, b) => a.id - b.id).map((u) => ({ id: u.id, email: u.email, full_name: u.fullName, is_mirror_dummy: false })),
    );
    expect(res.body.messages[0].type).toBe('private');
    expect(res.body.messages[0].stream_id).toBeUndefined();
  });
});

describe('search over the stored search vector', () => {
  it('combines with sender, follows edits of content and topic', async () => {
    const { owner } = h.realm;
    expect(await narrow([['sender', owner.id], ['search', 'wherefore']])).toEqual([ids.verona]);
    const edit = await h.api.patch(`/api/v1/messages/${ids.verona}`).set(h.as(owner)).type('form').send({ content: 'parting is such sweet sorrow', topic: 'orchard' });
    expect(edit.body).toMatchObject({ result: 'success' });
    expect(await narrow([['sender', owner.id], ['search', 'wherefore']])).toEqual([]);
    expect(await narrow([['sender', owner.id], ['search', 'sorrow']])).toEqual([ids.verona]);
    // The notification bot's notice of the move names both topics; the message has only the new one.
    expect(await narrow([['sender', owner.id], ['search', 'orchard']])).toEqual([ids.verona]);
    expect(await narrow([['sender', owner.id], ['search', 'balcony']])).toEqual([]);
  });
});
