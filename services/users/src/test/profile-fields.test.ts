import { ROLE } from '@chat/contracts';
import { makeUser, ROLE_NAMES, startHarness, userOf, type Harness, type RoleName } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const ADMINS: RoleName[] = ['owner', 'administrator'];
let counter = 0;

async function createField(body: Record<string, unknown>) {
  const res = await h.as(h.realm.admin).post('/realm/profile_fields').send(body);
  expect(res.body).toMatchObject({ result: 'success' });
  return res.body.id as number;
}

describe('custom profile fields', () => {
  it.each(ROLE_NAMES)('creation as the %s', async (name) => {
    const before = await h.lastEventId();
    const res = await h.as(userOf(h.realm, name)).post('/realm/profile_fields').send({ name: `Field ${name}`, field_type: 1 });
    if (ADMINS.includes(name)) {
      expect(res.body).toMatchObject({ result: 'success', id: expect.any(Number) });
      const [event] = await h.eventsSince(before);
      expect(event!.type).toBe('custom_profile_fields');
      expect((event!.event.fields as Array<{ id: number }>).map((f) => f.id)).toContain(res.body.id);
    } else {
      expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
      expect(await h.eventsSince(before)).toEqual([]);
    }
  });

  it.each(ROLE_NAMES)('listing as the %s', async (name) => {
    const res = await h.as(userOf(h.realm, name)).get('/realm/profile_fields');
    expect(res.body.result).toBe('success');
    expect(res.body.custom_fields[0]).toMatchObject({ id: expect.any(Number), name: expect.any(String), type: 1, hint: '', field_data: '', order: expect.any(Number), required: false, editable_by_user: true });
  });

  it('creates a field of every type, with its field_data', async () => {
    const choices = { '0': { text: 'Vim', order: '1' }, '1': { text: 'Emacs', order: '2' } };
    const ids = {
      short: await createField({ name: 'Team', field_type: 1, hint: 'Your team' }),
      long: await createField({ name: 'Biography', field_type: 2 }),
      choice: await createField({ name: 'Editor', field_type: 3, field_data: JSON.stringify(choices) }),
      date: await createField({ name: 'Birthday', field_type: 4 }),
      link: await createField({ name: 'Homepage', field_type: 5 }),
      users: await createField({ name: 'Mentor', field_type: 6 }),
      github: await createField({ name: 'ignored', field_type: 7, field_data: JSON.stringify({ subtype: 'github' }) }),
      custom: await createField({ name: 'Mastodon', field_type: 7, field_data: JSON.stringify({ subtype: 'custom', url_pattern: 'https://mastodon.social/@%(username)s' }) }),
      pronouns: await createField({ name: 'Pronouns', field_type: 8 }),
    };
    const list = (await h.as(h.realm.member).get('/realm/profile_fields')).body.custom_fields as Array<Record<string, unknown>>;
    const byId = new Map(list.map((f) => [f.id, f]));
    expect(JSON.parse(byId.get(ids.choice)!.field_data as string)).toEqual(choices);
    expect(byId.get(ids.github)).toMatchObject({ name: 'GitHub', type: 7, field_data: '{"subtype":"github"}' });
    expect(byId.get(ids.pronouns)).toMatchObject({ type: 8 });

    const me = h.as(h.realm.member);
    const good = await me.patch('/users/me/profile_data').send({
      data: JSON.stringify([
        { id: ids.short, value: 'Platform' },
        { id: ids.long, value: 'I like **chat**' },
        { id: ids.choice, value: '1' },
        { id: ids.date, value: '1990-02-28' },
        { id: ids.link, value: 'https://example.com/me' },
        { id: ids.users, value: [h.realm.admin.id] },
        { id: ids.github, value: 'hamlet' },
        { id: ids.custom, value: 'hamlet' },
        { id: ids.pronouns, value: 'he/him' },
      ]),
    });
    expect(good.body).toEqual({ result: 'success', msg: '' });
    const profile = (await h.as(h.realm.guest).get(`/users/${h.realm.member.id}?include_custom_profile_fields=true`)).body.user.profile_data;
    expect(profile[String(ids.long)]).toEqual({ value: 'I like **chat**', rendered_value: '<p>I like <strong>chat</strong></p>' });
    expect(profile[String(ids.users)]).toEqual({ value: `[${h.realm.admin.id}]` });
    expect(profile[String(ids.choice)]).toEqual({ value: '1' });

    const bot = await makeUser(h, ROLE.MEMBER, { botOwnerId: h.realm.member.id });
    const gone = await makeUser(h, ROLE.MEMBER);
    await h.db.user.update({ where: { id: gone.id }, data: { isActive: false } });
    const bad: Array<[unknown, number, string]> = [
      ['x'.repeat(51), ids.short, 'Team is too long (limit: 50 characters)'],
      ['x'.repeat(501), ids.long, 'Biography is too long (limit: 500 characters)'],
      ['7', ids.choice, "'7' is not a valid choice for 'Editor'."],
      ['1990-02-30', ids.date, 'Birthday is not a date'],
      ['not a url', ids.link, 'Homepage is not a URL'],
      [[999999, h.realm.admin.id, 999998], ids.users, 'Invalid user IDs: 999999, 999998'],
      [[h.realm.admin.id, gone.id], ids.users, `User with ID ${gone.id} is deactivated`],
      [[bot.id], ids.users, `User with ID ${bot.id} is a bot`],
      ['x', ids.users, 'Mentor is not a list'],
      [[1], ids.short, 'Team is not a string'],
    ];
    for (const [value, id, msg] of bad) {
      const res = await me.patch('/users/me/profile_data').send({ data: JSON.stringify([{ id, value }]) });
      expect([id, res.body.msg]).toEqual([id, msg]);
      expect(res.body.code).toBe('BAD_REQUEST');
    }
    // Profile data is for people: a bot may neither set nor clear its own.
    const asBot = h.as(bot);
    expect((await asBot.patch('/users/me/profile_data').send({ data: JSON.stringify([{ id: ids.short, value: 'Bots' }]) })).body)
      .toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'This endpoint does not accept bot requests.' });
    expect((await asBot.delete('/users/me/profile_data').send({ data: JSON.stringify([ids.short]) })).body.msg).toBe('This endpoint does not accept bot requests.');
    expect(await h.db.customProfileFieldValue.count({ where: { userId: bot.id } })).toBe(0);
  });

  it('announces value changes with rendered_value to who can see the user', async () => {
    const field = await createField({ name: `Notes ${++counter}`, field_type: 2 });
    const before = await h.lastEventId();
    await h.as(h.realm.member2).patch('/users/me/profile_data').send({ data: JSON.stringify([{ id: field, value: '*hi*' }]) });
    const [event] = await h.eventsSince(before);
    expect(event!.event).toEqual({
      type: 'realm_user', op: 'update',
      person: { user_id: h.realm.member2.id, custom_profile_field: { id: field, value: '*hi*', rendered_value: '<p><em>hi</em></p>' } },
    });
    expect(event!.users).toContain(h.realm.guest.id);
    const removed = await h.lastEventId();
    await h.as(h.realm.member2).delete('/users/me/profile_data').send({ data: JSON.stringify([field]) });
    const [gone] = await h.eventsSince(removed);
    expect(gone!.event.person).toEqual({ user_id: h.realm.member2.id, custom_profile_field: { id: field, value: null } });
    expect(await h.db.customProfileFieldValue.count({ where: { fieldId: field } })).toBe(0);
  });

  it('refuses unknown fields and fields users may not edit', async () => {
    const locked = await createField({ name: `Locked ${++counter}`, field_type: 1, editable_by_user: 'false' });
    const me = h.as(h.realm.member);
    expect((await me.patch('/users/me/profile_data').send({ data: JSON.stringify([{ id: 424242, value: 'x' }]) })).body.msg).toBe('Field id 424242 not found.');
    expect((await me.patch('/users/me/profile_data').send({ data: JSON.stringify([{ id: locked, value: 'x' }]) })).body.msg).toBe(
      'You are not allowed to change this field. Contact an administrator to update it.',
    );
    // Administrators may set it, for others too.
    expect((await h.as(h.realm.admin).patch(`/users/${h.realm.member.id}`).send({ profile_data: JSON.stringify([{ id: locked, value: 'set by admin' }]) })).body.result).toBe('success');
    expect((await h.as(h.realm.admin).patch('/users/me/profile_data').send({ data: JSON.stringify([{ id: locked, value: 'x' }]) })).body.result).toBe('success');
  });

  it('checks labels, types, hints, choices, external accounts and the summary limit', async () => {
    const admin = h.as(h.realm.admin);
    const post = (body: Record<string, unknown>) => admin.post('/realm/profile_fields').send(body).then((r) => r.body.msg);
    expect(await post({ name: '  ', field_type: 1 })).toBe('Label cannot be blank.');
    expect(await post({ name: 'x'.repeat(41), field_type: 1 })).toBe('name is too long (limit: 40 characters)');
    expect(await post({ name: 'Hinty', field_type: 1, hint: 'h'.repeat(81) })).toBe('hint is too long (limit: 80 characters)');
    expect(await post({ name: 'Typo', field_type: 99 })).toBe('Invalid field type.');
    expect(await post({ name: 'Empty choice', field_type: 3, field_data: '{}' })).toBe('Field must have at least one choice.');
    expect(await post({ name: 'Dup choice', field_type: 3, field_data: JSON.stringify({ a: { text: 'x', order: '1' }, b: { text: 'x', order: '2' } }) })).toBe('Field must not have duplicate choices.');
    expect(await post({ name: 'Ext', field_type: 7, field_data: JSON.stringify({ subtype: 'myspace' }) })).toBe('Invalid external account type');
    expect(await post({ name: 'Ext', field_type: 7, field_data: JSON.stringify({ subtype: 'custom' }) })).toBe('Custom external account must define URL pattern');
    expect(await post({ name: 'Ext', field_type: 7, field_data: JSON.stringify({ subtype: 'custom', url_pattern: 'https://x.test/' }) })).toBe('Malformed URL pattern.');
    const taken = `Taken ${++counter}`;
    await createField({ name: taken, field_type: 1 });
    expect(await post({ name: taken.toUpperCase(), field_type: 1 })).toBe('A field with that label already exists.');
    expect(await post({ name: `Long summary ${counter}`, field_type: 2, display_in_profile_summary: 'true' })).toBe('Field type not supported for display in profile summary.');
    await createField({ name: `Summary A ${counter}`, field_type: 1, display_in_profile_summary: 'true' });
    await createField({ name: `Summary B ${counter}`, field_type: 1, display_in_profile_summary: 'true' });
    expect(await post({ name: `Summary C ${counter}`, field_type: 1, display_in_profile_summary: 'true' })).toBe('Only 2 custom profile fields can be displayed in the profile summary.');
  });

  it.each(ROLE_NAMES)('editing, reordering and deleting as the %s', async (name) => {
    const id = await createField({ name: `Editable ${++counter}`, field_type: 1 });
    const caller = h.as(userOf(h.realm, name));
    const edit = await caller.patch(`/realm/profile_fields/${id}`).send({ name: `Edited ${counter}`, hint: 'new hint' });
    const all = (await h.db.customProfileField.findMany({ where: { realmId: h.realm.realmId }, orderBy: { order: 'asc' } })).map((f) => f.id);
    const reversed = [...all].reverse();
    const reorder = await caller.patch('/realm/profile_fields').send({ order: JSON.stringify(reversed) });
    const del = await caller.delete(`/realm/profile_fields/${id}`);
    if (ADMINS.includes(name)) {
      expect([edit.body.result, reorder.body.result, del.body.result]).toEqual(['success', 'success', 'success']);
      const order = (await h.db.customProfileField.findMany({ where: { realmId: h.realm.realmId }, orderBy: { order: 'asc' } })).map((f) => f.id);
      expect(order).toEqual(reversed.filter((x) => x !== id));
    } else {
      for (const r of [edit, reorder, del]) expect(r.body.code).toBe('UNAUTHORIZED_PRINCIPAL');
      expect(await h.db.customProfileField.findUniqueOrThrow({ where: { id } })).toMatchObject({ name: `Editable ${counter}` });
    }
  });

  it('refuses a reorder that is not a permutation, and unknown ids', async () => {
    const admin = h.as(h.realm.admin);
    expect((await admin.patch('/realm/profile_fields').send({ order: '[1]' })).body.msg).toBe('Invalid order mapping.');
    expect((await admin.patch('/realm/profile_fields/777777').send({ hint: 'x' })).body.msg).toBe('Field id 777777 not found.');
    expect((await admin.delete('/realm/profile_fields/777777')).body.msg).toBe('Field id 777777 not found.');
  });

  it('drops values whose choice disappears', async () => {
    const id = await createField({ name: `Shell ${++counter}`, field_type: 3, field_data: JSON.stringify({ a: { text: 'bash', order: '1' }, b: { text: 'zsh', order: '2' } }) });
    const someone = await makeUser(h, ROLE.MEMBER);
    await h.as(someone).patch('/users/me/profile_data').send({ data: JSON.stringify([{ id, value: 'b' }]) });
    await h.as(h.realm.admin).patch(`/realm/profile_fields/${id}`).send({ field_data: JSON.stringify({ a: { text: 'bash', order: '1' } }) });
    expect(await h.db.customProfileFieldValue.count({ where: { fieldId: id } })).toBe(0);
  });
});
