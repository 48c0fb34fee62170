import { ROLE } from '@chat/contracts';
import { DEFAULT_USER_SETTINGS } from '@chat/realm';
import { redisKeys } from '@chat/bus';
import { makeUser, ROLE_NAMES, startHarness, userOf, type Harness } from './support';
import { SETTINGS, SETTING_NAMES } from '../lib/settings-schema';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

/** A valid value different from the default, for every setting. */
function otherValue(name: string): string {
  const spec = SETTINGS[name]!;
  const current = DEFAULT_USER_SETTINGS[name];
  if (spec.kind === 'bool') return String(!current);
  if (spec.kind === 'int') return String(spec.allowed ? spec.allowed.find((v) => v !== current) : (current as number) + 1);
  return spec.allowed!.find((v) => v !== current)!;
}

describe('PATCH /settings', () => {
  it.each(ROLE_NAMES)('changes the settings of the %s, one user_settings event each, to them only', async (name) => {
    const me = userOf(h.realm, name);
    const before = await h.lastEventId();
    const body = { enter_sends: 'true', color_scheme: '2', emojiset: 'text', default_language: 'de' };
    const res = await h.as(me).patch('/settings').send(body);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const settings = (await h.db.user.findUniqueOrThrow({ where: { id: me.id } })).settings as Record<string, unknown>;
    expect(settings).toMatchObject({ enter_sends: true, color_scheme: 2, emojiset: 'text', default_language: 'de' });
    const events = await h.eventsSince(before);
    expect(events.map((e) => [e.users, e.event])).toEqual([
      [[me.id], { type: 'user_settings', op: 'update', property: 'enter_sends', value: true }],
      [[me.id], { type: 'user_settings', op: 'update', property: 'color_scheme', value: 2 }],
      [[me.id], { type: 'user_settings', op: 'update', property: 'emojiset', value: 'text' }],
      [[me.id], { type: 'user_settings', op: 'update', property: 'default_language', value: 'de', language_name: 'Deutsch' }],
    ]);
  });

  it('accepts every setting of the defaults table and sends nothing for unchanged values', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    const body = Object.fromEntries(SETTING_NAMES.map((n) => [n, otherValue(n)]));
    const before = await h.lastEventId();
    const res = await h.as(me).patch('/settings').send(body);
    expect(res.body).toEqual({ result: 'success', msg: '' });
    const properties = (await h.eventsSince(before)).filter((e) => e.type === 'user_settings').map((e) => e.event.property);
    expect(properties.sort()).toEqual([...SETTING_NAMES].sort());
    const again = await h.lastEventId();
    await h.as(me).patch('/settings').send(body);
    expect((await h.eventsSince(again)).length).toBe(0);
  });

  it('refuses values outside the allowed ones', async () => {
    const me = h.as(h.realm.member2);
    const bad: Array<[Record<string, string>, string]> = [
      [{ color_scheme: '7' }, 'Invalid color_scheme'],
      [{ web_home_view: 'recent_topics_x' }, 'Invalid web_home_view'],
      [{ emojiset: 'apple' }, 'Invalid emojiset'],
      [{ enter_sends: 'maybe' }, 'enter_sends is not a boolean'],
      [{ email_address_visibility: '6' }, 'Invalid email_address_visibility'],
      [{ web_font_size_px: 'big' }, 'web_font_size_px is not an integer'],
      [{ email_notifications_batching_period_seconds: '0' }, 'Invalid email batching period: 0 seconds'],
      [{ timezone: 'Mars/Olympus' }, 'Not a recognized time zone'],
      [{ default_language: 'xx' }, 'Invalid default_language'],
      [{ notification_sound: 'gong' }, "Invalid notification sound 'gong'"],
    ];
    for (const [body, msg] of bad) {
      const res = await me.patch('/settings').send(body);
      expect([body, res.body.msg, res.body.code]).toEqual([body, msg, 'BAD_REQUEST']);
    }
  });

  it('reports unknown parameters as unsupported', async () => {
    const res = await h.as(h.realm.member2).patch('/settings').send({ dense_mode: 'true' });
    expect(res.body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['dense_mode'] });
  });

  it('deletes the stored drafts when drafts synchronisation is turned off', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    const other = await makeUser(h, ROLE.MEMBER);
    for (const userId of [me.id, other.id]) {
      await h.db.draft.create({ data: { realmId: h.realm.realmId, userId, type: '', content: 'unsent', lastEditTime: new Date() } });
    }
    await h.as(me).patch('/settings').send({ enable_drafts_synchronization: 'false' });
    expect(await h.db.draft.count({ where: { userId: me.id } })).toBe(0);
    expect(await h.db.draft.count({ where: { userId: other.id } })).toBe(1);
  });

  it('changes the time zone, telling the user and everyone who can see them', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    const before = await h.lastEventId();
    await h.as(me).patch('/settings').send({ timezone: 'Europe/Berlin' });
    expect((await h.db.user.findUniqueOrThrow({ where: { id: me.id } })).timezone).toBe('Europe/Berlin');
    const events = await h.eventsSince(before);
    expect(events[0]).toMatchObject({ users: [me.id], event: { type: 'user_settings', property: 'timezone', value: 'Europe/Berlin' } });
    expect(events[1]!.event).toEqual({ type: 'realm_user', op: 'update', person: { user_id: me.id, email: me.email, timezone: 'Europe/Berlin' } });
  });

  it('changes the full name unless the realm forbids it', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    expect((await h.as(me).patch('/settings').send({ full_name: 'Brand New' })).body.result).toBe('success');
    await h.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { name_changes_disabled: true } } });
    expect((await h.as(me).patch('/settings').send({ full_name: 'Again' })).body.msg).toBe('Name changes are disabled in this organization.');
    expect((await h.as(h.realm.admin).patch('/settings').send({ full_name: 'Iago II' })).body.result).toBe('success');
    await h.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: {} } });
  });

  it('hides the address behind a placeholder when visibility narrows, and tells viewers', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    await h.env.redis.set(redisKeys(h.env.prefix).authCache(me.apiKey), '{}', 'EX', 60);
    const before = await h.lastEventId();
    await h.as(me).patch('/settings').send({ email_address_visibility: '3' });
    const row = await h.db.user.findUniqueOrThrow({ where: { id: me.id } });
    expect(row.email).toBe(`user${me.id}@chat.test`);
    expect(row.deliveryEmail).toBe(me.email);
    expect(await h.env.redis.exists(redisKeys(h.env.prefix).authCache(me.apiKey))).toBe(0);
    const events = await h.eventsSince(before);
    const lost = events.find((e) => (e.event.person as Record<string, unknown>)?.delivery_email === null)!;
    expect(lost.users).toEqual(expect.arrayContaining([h.realm.moderator.id, h.realm.member.id, h.realm.guest.id]));
    expect(lost.users).not.toContain(h.realm.admin.id);
    expect(events.find((e) => (e.event.person as Record<string, unknown>)?.new_email)!.event.person).toEqual({ user_id: me.id, new_email: `user${me.id}@chat.test` });
    const seenByMember = (await h.as(h.realm.member).get(`/users/${me.id}`)).body.user;
    expect(seenByMember).toMatchObject({ email: `user${me.id}@chat.test`, delivery_email: null });
    expect((await h.as(h.realm.admin).get(`/users/${me.id}`)).body.user.delivery_email).toBe(me.email);
  });
});

describe('PATCH /realm/user_settings_defaults', () => {
  it.each(ROLE_NAMES)('as the %s', async (name) => {
    const before = await h.lastEventId();
    const value = name === 'owner' ? 'twitter' : 'text';
    const res = await h.as(userOf(h.realm, name)).patch('/realm/user_settings_defaults').send({ emojiset: value });
    if (name === 'owner' || name === 'administrator') {
      expect(res.body).toEqual({ result: 'success', msg: '' });
      const [event] = await h.eventsSince(before);
      expect(event!.event).toEqual({ type: 'realm_user_settings_defaults', op: 'update', property: 'emojiset', value });
      const everyone = await h.db.user.count({ where: { realmId: h.realm.realmId, isActive: true } });
      expect((event!.users as number[]).length).toBe(everyone);
    } else {
      expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
      expect(await h.eventsSince(before)).toEqual([]);
    }
  });

  it('applies to people who join later only', async () => {
    const existing = await makeUser(h, ROLE.MEMBER);
    const res = await h.as(h.realm.admin).patch('/realm/user_settings_defaults').send({ color_scheme: '3', enter_sends: 'true', email_address_visibility: '2' });
    expect(res.body.result).toBe('success');
    const old = (await h.db.user.findUniqueOrThrow({ where: { id: existing.id } })).settings as Record<string, unknown>;
    expect(old.color_scheme).toBe(1);
    const later = await makeUser(h, ROLE.MEMBER);
    const fresh = (await h.db.user.findUniqueOrThrow({ where: { id: later.id } })).settings as Record<string, unknown>;
    expect(fresh).toMatchObject({ color_scheme: 3, enter_sends: true, email_address_visibility: 2 });
    await h.as(h.realm.admin).patch('/realm/user_settings_defaults').send({ email_address_visibility: '1' });
  });

  it('checks every value like the personal settings', async () => {
    const res = await h.as(h.realm.admin).patch('/realm/user_settings_defaults').send({ web_channel_default_view: '9' });
    expect(res.body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Invalid web_channel_default_view' });
    const tz = await h.as(h.realm.admin).patch('/realm/user_settings_defaults').send({ timezone: 'UTC' });
    expect(tz.body.ignored_parameters_unsupported).toEqual(['timezone']);
  });
});
