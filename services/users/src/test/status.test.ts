import { ROLE } from '@chat/contracts';
import { makeUser, ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('POST /users/me/status', () => {
  it.each(ROLE_NAMES)('sets and clears the status of the %s', async (name) => {
    const me = userOf(h.realm, name);
    const before = await h.lastEventId();
    const res = await h.as(me).post('/users/me/status').send({ status_text: '  In a meeting ', emoji_name: 'car' });
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const [event] = await h.eventsSince(before);
    expect(event!.event).toEqual({ type: 'user_status', user_id: me.id, status_text: 'In a meeting', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
    expect(event!.users).toContain(h.realm.guest.id);
    expect((await h.as(h.realm.member2).get(`/users/${me.id}/status`)).body.status).toEqual({
      status_text: 'In a meeting', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji',
    });
    await h.as(me).post('/users/me/status').send({ status_text: '', emoji_name: '' });
    expect((await h.as(me).get('/users/me/status')).body.status).toEqual({});
  });

  it('answers every error of the table', async () => {
    const me = h.as(h.realm.member);
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'Client did not pass any new values.'],
      [{ status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
      [{ emoji_code: '1f697' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
      [{ status_text: 'hi', reaction_type: 'unicode_emoji' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
      [{ emoji_name: 'no_such_emoji_here' }, "Emoji 'no_such_emoji_here' does not exist"],
      [{ emoji_name: 'car', emoji_code: '1f600', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
      [{ emoji_name: 'car', emoji_code: '424242', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
      // A code given without its type is kept (the type looked up by name) and must match the name.
      [{ emoji_name: 'car', emoji_code: '1f600' }, 'Invalid emoji name.'],
      [{ emoji_name: 'car', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    ];
    for (const [body, msg] of cases) {
      const res = await me.post('/users/me/status').send(body);
      expect([body, res.body]).toEqual([body, { result: 'error', code: 'BAD_REQUEST', msg }]);
    }
  });

  it("takes any of the family's names for an emoji, and its code with or without FE0F", async () => {
    const me = h.as(h.realm.member);
    expect((await me.post('/users/me/status').send({ emoji_name: 'thumbs_up' })).body.result).toBe('success');
    expect((await me.get('/users/me/status')).body.status).toMatchObject({ emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
    expect((await me.post('/users/me/status').send({ emoji_name: 'like', emoji_code: '1f44d', reaction_type: 'unicode_emoji' })).body.result).toBe('success');
    expect((await me.get('/users/me/status')).body.status).toMatchObject({ emoji_name: 'like', emoji_code: '1f44d' });
    expect((await me.post('/users/me/status').send({ emoji_name: 'smile' })).body.result).toBe('success');
    expect((await me.get('/users/me/status')).body.status).toMatchObject({ emoji_name: 'smile', emoji_code: '1f642' });
    const before = await h.lastEventId();
    const bare = { emoji_name: 'woman_detective', emoji_code: '1f575-200d-2640', reaction_type: 'unicode_emoji' };
    expect((await me.post('/users/me/status').send(bare)).body.result).toBe('success');
    const [event] = await h.eventsSince(before);
    expect(event!.event).toMatchObject({ type: 'user_status', emoji_name: 'woman_detective', emoji_code: '1f575-fe0f-200d-2640-fe0f' });
    expect((await me.get('/users/me/status')).body.status).toMatchObject({ emoji_code: '1f575-fe0f-200d-2640-fe0f' });
    for (const [body, msg] of [
      [{ emoji_name: 'thumbs_up', emoji_code: '1f44e', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
      [{ emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
      [{ emoji_name: 'thumbs_up', emoji_code: 'zzzz', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
      [{ emoji_name: 'thumbsup' }, "Emoji 'thumbsup' does not exist"],
    ] as Array<[Record<string, string>, string]>) {
      expect([body, (await me.post('/users/me/status').send(body)).body]).toEqual([body, { result: 'error', code: 'BAD_REQUEST', msg }]);
    }
  });

  it('counts the 60-character limit in code points', async () => {
    const text = '🙂'.repeat(60);
    expect((await h.as(h.realm.member).post('/users/me/status').send({ status_text: text })).body.result).toBe('success');
    expect((await h.as(h.realm.member).post('/users/me/status').send({ status_text: `${text}x` })).body.msg).toBe('status_text is too long (limit: 60 characters)');
  });

  it('accepts custom emoji of the realm and the extra emoji', async () => {
    const custom = await h.db.realmEmoji.create({ data: { realmId: h.realm.realmId, name: 'party_parrot', fileName: 'p.gif' } });
    const me = h.as(h.realm.member);
    expect((await me.post('/users/me/status').send({ emoji_name: 'party_parrot' })).body.result).toBe('success');
    expect((await me.get('/users/me/status')).body.status).toMatchObject({ emoji_code: String(custom.id), reaction_type: 'realm_emoji' });
    expect((await me.post('/users/me/status').send({ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'svc_extra_emoji' })).body.result).toBe('success');
  });
});

describe('POST /users/{id}/status', () => {
  it.each(ROLE_NAMES)('as the %s', async (name) => {
    const target = await makeUser(h, ROLE.MEMBER);
    const res = await h.as(userOf(h.realm, name)).post(`/users/${target.id}/status`).send({ status_text: 'Set for you' });
    const row = await h.db.userStatus.findUnique({ where: { userId: target.id } });
    if (name === 'owner' || name === 'administrator') {
      expect(res.body.result).toBe('success');
      expect(row!.statusText).toBe('Set for you');
    } else {
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
      expect(row).toBeNull();
    }
  });

  it('lets a bot with an administrator role set statuses', async () => {
    const adminBot = await makeUser(h, ROLE.ADMINISTRATOR, { botOwnerId: h.realm.owner.id });
    const res = await h.as(adminBot).post(`/users/${h.realm.member2.id}/status`).send({ status_text: 'Out' });
    expect(res.body.result).toBe('success');
  });

  it("reports away as ignored on another user's status, which it does not change", async () => {
    const res = await h.as(h.realm.admin).post(`/users/${h.realm.member2.id}/status`).send({ status_text: 'Busy', away: 'true' });
    expect(res.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['away'] });
    const before = await h.lastEventId();
    await h.as(h.realm.admin).post(`/users/${h.realm.member2.id}/status`).send({ status_text: 'Busy again', away: 'true', zzz: '1', aaa: '2' })
      .expect((r) => expect(r.body.ignored_parameters_unsupported).toEqual(['aaa', 'away', 'zzz']));
    const [event] = await h.eventsSince(before);
    expect(event!.event).toEqual({ type: 'user_status', user_id: h.realm.member2.id, status_text: 'Busy again' });
    const onlyAway = await h.as(h.realm.admin).post(`/users/${h.realm.member2.id}/status`).send({ away: 'true' });
    expect(onlyAway.body.msg).toBe('Client did not pass any new values.');
  });

  it('refuses unknown users', async () => {
    expect((await h.as(h.realm.admin).post('/users/999999/status').send({ status_text: 'x' })).body.msg).toBe('No such user');
  });
});
