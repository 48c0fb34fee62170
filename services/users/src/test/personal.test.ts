import { ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('navigation views', () => {
  it.each(ROLE_NAMES)('the %s adds, edits and removes their own views', async (name) => {
    const me = userOf(h.realm, name);
    const api = h.as(me);
    const before = await h.lastEventId();
    expect((await api.post('/navigation_views').send({ fragment: 'narrow/is/starred', is_pinned: 'true' })).body).toEqual({ result: 'success', msg: '' });
    expect((await api.post('/navigation_views').send({ fragment: `narrow/channel/9-${name}`, is_pinned: 'false', name: 'My channel' })).body.result).toBe('success');
    expect((await api.get('/navigation_views')).body.navigation_views).toEqual([
      { fragment: 'narrow/is/starred', is_pinned: true },
      { fragment: `narrow/channel/9-${name}`, is_pinned: false, name: 'My channel' },
    ]);
    expect((await api.patch(`/navigation_views/${encodeURIComponent(`narrow/channel/9-${name}`)}`).send({ is_pinned: 'true', name: 'Renamed' })).body.result).toBe('success');
    expect((await api.patch('/navigation_views/narrow/is/starred').send({ is_pinned: 'false' })).body.result).toBe('success');
    expect((await api.delete('/navigation_views/narrow%2Fis%2Fstarred')).body.result).toBe('success');
    const events = await h.eventsSince(before);
    expect(events.every((e) => JSON.stringify(e.users) === JSON.stringify([me.id]))).toBe(true);
    expect(events.map((e) => e.event)).toEqual([
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/starred', is_pinned: true } },
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: `narrow/channel/9-${name}`, is_pinned: false, name: 'My channel' } },
      { type: 'navigation_view', op: 'update', fragment: `narrow/channel/9-${name}`, data: { is_pinned: true, name: 'Renamed' } },
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/starred', data: { is_pinned: false } },
      { type: 'navigation_view', op: 'remove', fragment: 'narrow/is/starred' },
    ]);
    // Nobody reaches another person's views.
    const other = h.as(name === 'member' ? h.realm.member2 : h.realm.member);
    expect((await other.delete(`/navigation_views/${encodeURIComponent(`narrow/channel/9-${name}`)}`)).status).toBe(404);
  });

  it('answers the errors of the spec', async () => {
    const api = h.as(h.realm.member2);
    expect((await api.post('/navigation_views').send({ fragment: '  ', is_pinned: 'true' })).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'fragment cannot be blank' });
    expect((await api.post('/navigation_views').send({ fragment: 'inbox', is_pinned: 'true', name: 'Mine' })).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Built-in views cannot have a custom name' });
    expect((await api.post('/navigation_views').send({ fragment: 'narrow/x', is_pinned: 'true' })).body.msg).toBe('Custom views must have a valid name.');
    await api.post('/navigation_views').send({ fragment: 'inbox', is_pinned: 'true' });
    expect((await api.post('/navigation_views').send({ fragment: 'inbox', is_pinned: 'false' })).body.msg).toBe('Navigation view already exists.');
    expect((await api.patch('/navigation_views/inbox').send({ name: 'x' })).body.msg).toBe('Built-in views cannot have a custom name');
    const missing = await api.patch('/navigation_views/narrow/nothing').send({ is_pinned: 'true' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ result: 'error', code: 'NOT_FOUND', msg: 'Navigation view does not exist.' });
    expect((await api.post('/navigation_views').send({ fragment: 'recent' })).body.msg).toBe("Missing 'is_pinned' argument");
  });
});

describe('saved snippets', () => {
  it.each(ROLE_NAMES)('the %s keeps their own snippets', async (name) => {
    const me = userOf(h.realm, name);
    const api = h.as(me);
    const before = await h.lastEventId();
    const created = await api.post('/saved_snippets').send({ title: 'Greeting', content: 'Hello **there**' });
    expect(created.body).toMatchObject({ result: 'success', saved_snippet_id: expect.any(Number) });
    const id = created.body.saved_snippet_id;
    const list = (await api.get('/saved_snippets')).body.saved_snippets;
    expect(list).toEqual([{ id, title: 'Greeting', content: 'Hello **there**', date_created: expect.any(Number) }]);
    expect((await api.patch(`/saved_snippets/${id}`).send({ content: 'Bye' })).body.result).toBe('success');
    const other = h.as(name === 'member' ? h.realm.member2 : h.realm.member);
    expect((await other.patch(`/saved_snippets/${id}`).send({ content: 'Hijack' })).body).toMatchObject({ code: 'NOT_FOUND', msg: 'Saved snippet does not exist.' });
    expect((await other.delete(`/saved_snippets/${id}`)).status).toBe(404);
    expect((await api.delete(`/saved_snippets/${id}`)).body.result).toBe('success');
    const events = await h.eventsSince(before);
    expect(events.map((e) => [e.users, e.event.op])).toEqual([[[me.id], 'add'], [[me.id], 'update'], [[me.id], 'remove']]);
    expect(events[1]!.event.saved_snippet).toMatchObject({ id, title: 'Greeting', content: 'Bye' });
    expect(events[2]!.event).toEqual({ type: 'saved_snippets', op: 'remove', saved_snippet_id: id });
  });

  it('checks titles and contents', async () => {
    const api = h.as(h.realm.member);
    expect((await api.post('/saved_snippets').send({ title: ' ', content: 'x' })).body.msg).toBe('Title cannot be empty.');
    expect((await api.post('/saved_snippets').send({ title: 'x', content: '' })).body.msg).toBe('Content cannot be empty.');
    expect((await api.post('/saved_snippets').send({ title: 't'.repeat(61), content: 'x' })).body.msg).toBe('title is too long (limit: 60 characters)');
    const id = (await api.post('/saved_snippets').send({ title: 'ok', content: 'x' })).body.saved_snippet_id;
    expect((await api.patch(`/saved_snippets/${id}`)).body.msg).toBe('At least one of title or content must be provided to update.');
  });
});

describe('alert words', () => {
  it.each(ROLE_NAMES)('the %s adds and removes alert words', async (name) => {
    const me = userOf(h.realm, name);
    const api = h.as(me);
    const before = await h.lastEventId();
    const added = await api.post('/users/me/alert_words').send({ alert_words: JSON.stringify(['deploy', 'Outage', ' ', 'outage']) });
    expect(added.body).toEqual({ result: 'success', msg: '', alert_words: ['deploy', 'Outage'] });
    expect((await api.post('/users/me/alert_words').send({ alert_words: JSON.stringify(['DEPLOY']) })).body.alert_words).toEqual(['deploy', 'Outage']);
    expect((await api.get('/users/me/alert_words')).body.alert_words).toEqual(['deploy', 'Outage']);
    expect((await api.delete('/users/me/alert_words').send({ alert_words: JSON.stringify(['outage', 'never-added']) })).body.alert_words).toEqual(['deploy']);
    const events = await h.eventsSince(before);
    expect(events.map((e) => [e.users, e.event])).toEqual([
      [[me.id], { type: 'alert_words', alert_words: ['deploy', 'Outage'] }],
      [[me.id], { type: 'alert_words', alert_words: ['deploy'] }],
    ]);
  });

  it('limits the length of a word', async () => {
    const res = await h.as(h.realm.member).post('/users/me/alert_words').send({ alert_words: JSON.stringify(['ok', 'w'.repeat(101)]) });
    expect(res.body.msg).toBe('alert_words[1] is too long (limit: 100 characters)');
  });
});
