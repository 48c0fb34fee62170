import { ROLE } from '@chat/contracts';
import { redisKeys } from '@chat/bus';
import { makeUser, ROLE_NAMES, startHarness, userOf, type Harness, type RoleName } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const ADMINS: RoleName[] = ['owner', 'administrator'];

async function activeIds() {
  const rows = await h.db.user.findMany({ where: { realmId: h.realm.realmId, isActive: true }, select: { id: true }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.id);
}

describe('PATCH /users/{id}', () => {
  it.each(ROLE_NAMES)('full_name as the %s', async (name) => {
    const target = await makeUser(h, ROLE.MEMBER);
    const before = await h.lastEventId();
    const res = await h.as(userOf(h.realm, name)).patch(`/users/${target.id}`).send({ full_name: 'Renamed Person' });
    const row = await h.db.user.findUniqueOrThrow({ where: { id: target.id } });
    if (ADMINS.includes(name)) {
      expect(res.body).toEqual({ result: 'success', msg: '' });
      expect(row.fullName).toBe('Renamed Person');
      const events = await h.eventsSince(before);
      expect(events).toEqual([
        expect.objectContaining({ type: 'realm_user', users: await activeIds(), event: { type: 'realm_user', op: 'update', person: { user_id: target.id, full_name: 'Renamed Person' } } }),
      ]);
    } else {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
      expect(row.fullName).toBe(target.fullName);
      expect(await h.eventsSince(before)).toEqual([]);
    }
  });

  it("lets a bot's owner rename the bot, telling the owner and administrators", async () => {
    const before = await h.lastEventId();
    const res = await h.as(h.realm.member).patch(`/users/${h.realm.bot.id}`).send({ full_name: 'Renamed Bot' });
    expect(res.body.result).toBe('success');
    const bot = (await h.eventsSince(before)).find((e) => e.type === 'realm_bot')!;
    expect(bot.event).toEqual({ type: 'realm_bot', op: 'update', bot: { user_id: h.realm.bot.id, full_name: 'Renamed Bot' } });
    expect(bot.users).toEqual([h.realm.owner.id, h.realm.admin.id, h.realm.member.id].sort((a, b) => a - b));
  });

  it('rejects bad names and unknown users', async () => {
    const admin = h.as(h.realm.admin);
    expect((await admin.patch(`/users/${h.realm.member2.id}`).send({ full_name: 'x'.repeat(101) })).body.msg).toBe('Name too long!');
    expect((await admin.patch(`/users/${h.realm.member2.id}`).send({ full_name: 'a@b' })).body.msg).toBe('Invalid characters in name!');
    // The family's shortest name is two characters, counted after trimming, in code points.
    for (const name of ['x', ' y ']) {
      expect([name, (await admin.patch(`/users/${h.realm.member2.id}`).send({ full_name: name })).body.msg]).toEqual([name, 'Name too short!']);
    }
    expect((await h.as(h.realm.member2).patch('/settings').send({ full_name: 'z' })).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Name too short!' });
    expect((await admin.patch(`/users/${h.realm.member2.id}`).send({ full_name: '😀😀' })).body.result).toBe('success');
    expect((await admin.patch(`/users/${h.realm.member2.id}`).send({ full_name: h.realm.member2.fullName })).body.result).toBe('success');
    expect((await admin.patch('/users/999999').send({ full_name: 'Whoever' })).body.msg).toBe('No such user');
  });

  describe('role', () => {
    it('lets administrators change non-owner roles, moving system-group membership and dropping cached auth', async () => {
      const target = await makeUser(h, ROLE.MEMBER);
      const cacheKey = redisKeys(h.env.prefix).authCache(target.apiKey);
      await h.env.redis.set(cacheKey, '{}', 'EX', 60);
      const before = await h.lastEventId();
      const res = await h.as(h.realm.admin).patch(`/users/${target.id}`).send({ role: String(ROLE.MODERATOR) });
      expect(res.body.result).toBe('success');
      expect((await h.db.user.findUniqueOrThrow({ where: { id: target.id } })).role).toBe(ROLE.MODERATOR);
      const listed = (await h.as(h.realm.admin).get('/user_groups')).body.user_groups as Array<{ id: number; name: string; members: number[] }>;
      expect(listed.filter((g) => g.members.includes(target.id)).map((g) => g.name)).toEqual(['role:moderators']);
      expect(await h.env.redis.exists(cacheKey)).toBe(0);
      const events = await h.eventsSince(before);
      expect(events[0]!.event).toEqual({ type: 'realm_user', op: 'update', person: { user_id: target.id, role: ROLE.MODERATOR } });
      // The role's groups first, then full members (a member past the waiting period of 0 days was one).
      const names = new Map(listed.map((g) => [g.id, g.name]));
      expect(events.filter((e) => e.type === 'user_group').map((e) => [e.event.op, names.get(e.event.group_id as number)])).toEqual([
        ['remove_members', 'role:members'],
        ['add_members', 'role:moderators'],
        ['remove_members', 'role:fullmembers'],
      ]);
    });

    it('tells a promoted person the addresses they may now see', async () => {
      const hidden = await makeUser(h, ROLE.MEMBER);
      const u = await h.db.user.findUniqueOrThrow({ where: { id: hidden.id } });
      await h.db.user.update({ where: { id: hidden.id }, data: { settings: { ...(u.settings as object), email_address_visibility: 3 } } });
      const target = await makeUser(h, ROLE.MEMBER);
      const before = await h.lastEventId();
      await h.as(h.realm.owner).patch(`/users/${target.id}`).send({ role: ROLE.ADMINISTRATOR });
      const reveal = (await h.eventsSince(before)).find((e) => (e.event.person as { user_id?: number })?.user_id === hidden.id);
      expect(reveal).toMatchObject({ users: [target.id], event: { person: { user_id: hidden.id, delivery_email: hidden.email } } });
    });

    it('shows a new administrator the private channels, and hides from a new guest the public ones it is not in', async () => {
      const secret = await h.db.stream.create({ data: { realmId: h.realm.realmId, name: 'Secret', nameKey: 'secret', inviteOnly: true } });
      const open = await h.db.stream.create({ data: { realmId: h.realm.realmId, name: 'Open', nameKey: 'open' } });
      const joined = await h.db.stream.create({ data: { realmId: h.realm.realmId, name: 'Joined', nameKey: 'joined' } });
      await h.db.stream.create({ data: { realmId: h.realm.realmId, name: 'Gone', nameKey: 'gone', inviteOnly: true, isArchived: true } });
      const target = await makeUser(h, ROLE.MEMBER);
      await h.db.subscription.create({ data: { userId: target.id, streamId: joined.id } });
      const streamEvents = async (since: bigint) => (await h.eventsSince(since)).filter((e) => e.type === 'stream');

      let before = await h.lastEventId();
      await h.as(h.realm.owner).patch(`/users/${target.id}`).send({ role: ROLE.ADMINISTRATOR }).expect(200);
      const [shown, ...more] = await streamEvents(before);
      expect(more).toEqual([]);
      expect(shown).toMatchObject({ users: [target.id], event: { type: 'stream', op: 'create', streams: [{ stream_id: secret.id, name: 'Secret', invite_only: true, subscriber_count: 0 }] } });

      before = await h.lastEventId();
      await h.as(h.realm.owner).patch(`/users/${target.id}`).send({ role: ROLE.GUEST }).expect(200);
      const [hidden, ...rest] = await streamEvents(before);
      expect(rest).toEqual([]);
      expect(hidden).toMatchObject({ users: [target.id], event: { type: 'stream', op: 'delete', stream_ids: [secret.id, open.id], streams: [{ stream_id: secret.id }, { stream_id: open.id }] } });

      before = await h.lastEventId();
      await h.as(h.realm.owner).patch(`/users/${target.id}`).send({ role: ROLE.MODERATOR }).expect(200);
      expect((await streamEvents(before)).map((e) => e.event.streams)).toEqual([[expect.objectContaining({ stream_id: open.id })]]);
    });

    it('only owners grant or remove the owner role', async () => {
      const target = await makeUser(h, ROLE.MEMBER);
      const grant = await h.as(h.realm.admin).patch(`/users/${target.id}`).send({ role: ROLE.OWNER });
      expect(grant.body).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
      expect((await h.as(h.realm.owner).patch(`/users/${target.id}`).send({ role: ROLE.OWNER })).body.result).toBe('success');
      const remove = await h.as(h.realm.admin).patch(`/users/${target.id}`).send({ role: ROLE.MEMBER });
      expect(remove.body.code).toBe('UNAUTHORIZED_PRINCIPAL');
      expect((await h.as(h.realm.owner).patch(`/users/${target.id}`).send({ role: ROLE.MEMBER })).body.result).toBe('success');
    });

    it('never removes the last owner', async () => {
      const res = await h.as(h.realm.owner).patch(`/users/${h.realm.owner.id}`).send({ role: ROLE.ADMINISTRATOR });
      expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'The owner permission cannot be removed from the only organization owner.' });
      expect((await h.db.user.findUniqueOrThrow({ where: { id: h.realm.owner.id } })).role).toBe(ROLE.OWNER);
    });

    it('refuses unknown roles and guest administrators', async () => {
      const admin = h.as(h.realm.admin);
      expect((await admin.patch(`/users/${h.realm.member2.id}`).send({ role: 500 })).body.msg).toBe('Invalid role');
      const both = await admin.patch(`/users/${h.realm.member2.id}`).send({ is_admin: 'true', is_guest: 'true' });
      expect(both.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Guests cannot be organization administrators' });
    });
  });

  describe('new_email', () => {
    it('needs an owner holding can_change_user_emails', async () => {
      const target = await makeUser(h, ROLE.MEMBER);
      const denied = await h.as(h.realm.owner).patch(`/users/${target.id}`).send({ new_email: 'new@chat.test' });
      expect(denied.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'User not authorized to change user emails' });
      await h.db.userSpecialPermission.create({ data: { userId: h.realm.admin.id, canChangeUserEmails: true } });
      expect((await h.as(h.realm.admin).patch(`/users/${target.id}`).send({ new_email: 'new@chat.test' })).body.result).toBe('error');
      await h.db.userSpecialPermission.create({ data: { userId: h.realm.owner.id, canChangeUserEmails: true } });
      const cacheKey = redisKeys(h.env.prefix).authCache(target.apiKey);
      await h.env.redis.set(cacheKey, '{}', 'EX', 60);
      const ok = await h.as(h.realm.owner).patch(`/users/${target.id}`).send({ new_email: 'new@chat.test' });
      expect(ok.body.result).toBe('success');
      expect(await h.db.user.findUniqueOrThrow({ where: { id: target.id } })).toMatchObject({ email: 'new@chat.test', deliveryEmail: 'new@chat.test' });
      expect(await h.env.redis.exists(cacheKey)).toBe(0);
      const taken = await h.as(h.realm.owner).patch(`/users/${target.id}`).send({ new_email: h.realm.member.email });
      expect(taken.body.msg).toBe(`Email '${h.realm.member.email}' already in use`);
    });
  });

  it('writes nothing when one part of the change is invalid', async () => {
    const target = await makeUser(h, ROLE.MEMBER);
    const res = await h.as(h.realm.admin).patch(`/users/${target.id}`).send({
      full_name: 'Should Not Stick',
      profile_data: JSON.stringify([{ id: 999999, value: 'x' }]),
    });
    expect(res.body.msg).toBe('Field id 999999 not found.');
    expect((await h.db.user.findUniqueOrThrow({ where: { id: target.id } })).fullName).toBe(target.fullName);
  });
});

describe('deactivation and reactivation', () => {
  it.each(ROLE_NAMES)('DELETE /users/{id} as the %s', async (name) => {
    const target = await makeUser(h, ROLE.MEMBER);
    const res = await h.as(userOf(h.realm, name)).delete(`/users/${target.id}`);
    const row = await h.db.user.findUniqueOrThrow({ where: { id: target.id } });
    if (ADMINS.includes(name)) {
      expect(res.body.result).toBe('success');
      expect(row.isActive).toBe(false);
    } else {
      expect(res.body.msg).toBe('Insufficient permission');
      expect(row.isActive).toBe(true);
    }
  });

  it("deactivates the person's bots too, revokes their cached keys and tells who could see them", async () => {
    const person = await makeUser(h, ROLE.MEMBER);
    const bot = await makeUser(h, ROLE.MEMBER, { botOwnerId: person.id });
    for (const u of [person, bot]) await h.env.redis.set(redisKeys(h.env.prefix).authCache(u.apiKey), '{}', 'EX', 60);
    const audience = await activeIds();
    const before = await h.lastEventId();
    expect((await h.as(h.realm.admin).delete(`/users/${person.id}`)).body.result).toBe('success');
    expect((await h.db.user.findUniqueOrThrow({ where: { id: bot.id } })).isActive).toBe(false);
    for (const u of [person, bot]) expect(await h.env.redis.exists(redisKeys(h.env.prefix).authCache(u.apiKey))).toBe(0);
    const events = await h.eventsSince(before);
    expect(events[0]).toMatchObject({ users: audience, event: { type: 'realm_user', op: 'update', person: { user_id: person.id, is_active: false } } });
    expect(events.some((e) => e.type === 'realm_bot' && (e.event.bot as { user_id: number }).user_id === bot.id)).toBe(true);
  });

  it('protects owners and the last owner', async () => {
    const owner2 = await makeUser(h, ROLE.OWNER);
    expect((await h.as(h.realm.admin).delete(`/users/${owner2.id}`)).body).toMatchObject({ code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
    expect((await h.as(h.realm.owner).delete(`/users/${owner2.id}`)).body.result).toBe('success');
    expect((await h.as(h.realm.owner).delete(`/users/${h.realm.owner.id}`)).body.msg).toBe('Cannot deactivate the only organization owner');
    expect((await h.as(h.realm.owner).delete('/users/me')).body.msg).toBe('Cannot deactivate the only organization owner');
  });

  it('refuses bots, the already deactivated and unknown ids on this path', async () => {
    const admin = h.as(h.realm.admin);
    expect((await admin.delete(`/users/${h.realm.bot.id}`)).body.msg).toBe('No such user');
    const gone = await makeUser(h, ROLE.MEMBER);
    await admin.delete(`/users/${gone.id}`);
    expect((await admin.delete(`/users/${gone.id}`)).body.msg).toBe('User is deactivated');
  });

  it.each(ROLE_NAMES)('POST /users/{id}/reactivate as the %s', async (name) => {
    const target = await makeUser(h, ROLE.MEMBER);
    await h.as(h.realm.admin).delete(`/users/${target.id}`);
    const res = await h.as(userOf(h.realm, name)).post(`/users/${target.id}/reactivate`);
    const row = await h.db.user.findUniqueOrThrow({ where: { id: target.id } });
    if (ADMINS.includes(name)) {
      expect(res.body.result).toBe('success');
      expect(row.isActive).toBe(true);
      expect((await h.as(userOf(h.realm, name)).post(`/users/${target.id}/reactivate`)).body.msg).toBe('User is already active');
    } else {
      expect(res.body.msg).toBe('Insufficient permission');
      expect(row.isActive).toBe(false);
    }
  });

  it.each(ROLE_NAMES)('DELETE /users/me as the %s', async (name) => {
    // A stand-in of the same role and kind, so the seeded account stays usable.
    const original = userOf(h.realm, name);
    const me = await makeUser(h, original.role, original.isBot ? { botOwnerId: h.realm.member.id } : {});
    const res = await h.as(me).delete('/users/me');
    expect(res.body.result).toBe('success');
    expect((await h.db.user.findUniqueOrThrow({ where: { id: me.id } })).isActive).toBe(false);
  });
});

describe('POST /users', () => {
  it.each(ROLE_NAMES)('as the %s', async (name) => {
    const email = `created-${name}@chat.test`;
    const res = await h.as(userOf(h.realm, name)).post('/users').send({ email, password: 'tall-quiet-harbor-42', full_name: 'New Person' });
    if (ADMINS.includes(name)) {
      expect(res.body).toMatchObject({ result: 'success', user_id: expect.any(Number) });
      const row = await h.db.user.findUniqueOrThrow({ where: { id: res.body.user_id } });
      expect(row).toMatchObject({ deliveryEmail: email, fullName: 'New Person', role: ROLE.MEMBER, isActive: true });
    } else {
      expect(res.body).toEqual({ result: 'error', code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' });
      expect(await h.db.user.count({ where: { deliveryEmail: email } })).toBe(0);
    }
  });

  it('refuses a taken or malformed address and a missing name', async () => {
    const admin = h.as(h.realm.admin);
    expect((await admin.post('/users').send({ email: h.realm.member.email, full_name: 'Dup' })).body.msg).toBe(`Email '${h.realm.member.email}' already in use`);
    expect((await admin.post('/users').send({ email: 'nope', full_name: 'X' })).body.msg).toBe('Invalid address.');
    expect((await admin.post('/users').send({ email: 'a@b.co' })).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'full_name' argument" });
  });
});

describe('POST /users/me/api_key/regenerate', () => {
  it.each(ROLE_NAMES)('gives the %s a new key and forgets the old one', async (name) => {
    const original = userOf(h.realm, name);
    const me = await makeUser(h, original.role, original.isBot ? { botOwnerId: h.realm.member.id } : {});
    const oldKey = redisKeys(h.env.prefix).authCache(me.apiKey);
    await h.env.redis.set(oldKey, '{}', 'EX', 60);
    const res = await h.as(me).post('/users/me/api_key/regenerate');
    expect(res.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect((await h.db.user.findUniqueOrThrow({ where: { id: me.id } })).apiKey).toBe(res.body.api_key);
    expect(await h.env.redis.exists(oldKey)).toBe(0);
  });

  it('tells every gateway to drop the keys it keeps in memory, once the old key is gone', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    const oldKey = redisKeys(h.env.prefix).authCache(me.apiKey);
    const listener = h.env.redis.duplicate();
    try {
      await listener.subscribe(redisKeys(h.env.prefix).authForgetChannel());
      const heard = new Promise<[string, number]>((resolve) =>
        listener.once('message', (_channel: string, message: string) => void h.env.redis.exists(oldKey).then((n) => resolve([message, n]))));
      await h.env.redis.set(oldKey, '{}', 'EX', 60);
      expect((await h.as(me).post('/users/me/api_key/regenerate')).body.result).toBe('success');
      expect(await heard).toEqual([oldKey, 0]);
    } finally {
      listener.disconnect();
    }
  });
});
