import { ROLE } from '@chat/contracts';
import { redisKeys } from '@chat/bus';
import { makeUser, ROLE_NAMES, startHarness, userOf, type Harness } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('bots', () => {
  it.each(ROLE_NAMES)('POST /bots as the %s', async (name) => {
    const res = await h.as(userOf(h.realm, name)).post('/bots').send({ full_name: `Bot of ${name}`, short_name: `b-${name}` });
    if (name === 'guest') expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Not allowed for guest users' });
    else if (name === 'bot') expect(res.body.msg).toBe('This endpoint does not accept bot requests.');
    else {
      expect(res.body).toMatchObject({ result: 'success', user_id: expect.any(Number), api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
      const bot = await h.db.user.findUniqueOrThrow({ where: { id: res.body.user_id } });
      expect(bot).toMatchObject({ isBot: true, botType: 1, botOwnerId: userOf(h.realm, name).id, email: `b-${name}-bot@chat.test` });
    }
  });

  it('announces a new bot to its owner and the administrators', async () => {
    const before = await h.lastEventId();
    const res = await h.as(h.realm.member2).post('/bots').send({ full_name: 'Hook', short_name: 'hook', bot_type: '2' });
    const add = (await h.eventsSince(before)).find((e) => e.type === 'realm_bot')!;
    expect(add.users).toEqual([h.realm.owner.id, h.realm.admin.id, h.realm.member2.id].sort((a, b) => a - b));
    expect(add.event).toMatchObject({ op: 'add', bot: { user_id: res.body.user_id, bot_type: 2, owner_id: h.realm.member2.id } });
  });

  it('checks names, types and the creation policy', async () => {
    const me = h.as(h.realm.member);
    expect((await me.post('/bots').send({ full_name: 'X', short_name: 'bad name' })).body.msg).toBe('Bad name or username');
    expect((await me.post('/bots').send({ full_name: 'X', short_name: 'typed', bot_type: '9' })).body.msg).toBe('Invalid bot type');
    expect((await me.post('/bots').send({ full_name: 'Bot of member', short_name: 'other' })).body.msg).toBe('Name is already in use.');
    expect((await me.post('/bots').send({ full_name: 'Another', short_name: 'b-member' })).body.msg).toBe('Username already in use');
    const groups = await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:administrators' } });
    await h.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: { can_create_bots_group: groups.id, can_create_write_only_bots_group: groups.id } } });
    expect((await me.post('/bots').send({ full_name: 'Denied', short_name: 'denied' })).body.msg).toBe('Insufficient permission');
    expect((await h.as(h.realm.admin).post('/bots').send({ full_name: 'Allowed', short_name: 'allowed' })).body.result).toBe('success');
    await h.db.realm.update({ where: { id: h.realm.realmId }, data: { settings: {} } });
  });

  it.each(ROLE_NAMES)('GET /bots as the %s lists the bots they manage', async (name) => {
    const res = await h.as(userOf(h.realm, name)).get('/bots');
    expect(res.body.result).toBe('success');
    const owners = new Set((res.body.bots as Array<{ owner_id: number }>).map((b) => b.owner_id));
    if (name === 'owner' || name === 'administrator') expect(owners.size).toBeGreaterThan(1);
    else for (const o of owners) expect(o).toBe(userOf(h.realm, name).id);
  });

  it.each(ROLE_NAMES)('PATCH, regenerate and DELETE a member\'s bot as the %s', async (name) => {
    const bot = await makeUser(h, ROLE.MEMBER, { botOwnerId: h.realm.member.id });
    const caller = h.as(userOf(h.realm, name));
    const patch = await caller.patch(`/bots/${bot.id}`).send({ full_name: `Renamed ${bot.id}` });
    const regen = await caller.post(`/bots/${bot.id}/api_key/regenerate`);
    const del = await caller.delete(`/bots/${bot.id}`);
    const row = await h.db.user.findUniqueOrThrow({ where: { id: bot.id } });
    if (name === 'owner' || name === 'administrator' || name === 'member') {
      expect(patch.body).toMatchObject({ result: 'success', full_name: `Renamed ${bot.id}` });
      expect(regen.body.api_key).toBe(row.apiKey);
      expect(del.body.result).toBe('success');
      expect(row.isActive).toBe(false);
    } else {
      for (const r of [patch, regen, del]) expect(r.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Insufficient permission' });
      expect(row).toMatchObject({ isActive: true, fullName: bot.fullName, apiKey: bot.apiKey });
    }
  });

  it('moves a bot to a new owner, who must be an active person', async () => {
    const bot = await makeUser(h, ROLE.MEMBER, { botOwnerId: h.realm.member.id });
    const admin = h.as(h.realm.admin);
    expect((await admin.patch(`/bots/${bot.id}`).send({ bot_owner_id: 999999 })).body.msg).toBe('Failed to change owner, no such user');
    expect((await admin.patch(`/bots/${bot.id}`).send({ bot_owner_id: h.realm.bot.id })).body.msg).toBe("Failed to change owner, bots can't own other bots");
    const before = await h.lastEventId();
    const res = await admin.patch(`/bots/${bot.id}`).send({ bot_owner_id: h.realm.member2.id });
    expect(res.body).toMatchObject({ result: 'success', bot_owner_id: h.realm.member2.id });
    const events = await h.eventsSince(before);
    expect(events.find((e) => e.event.op === 'delete')).toMatchObject({ users: [h.realm.member.id] });
    expect(events.find((e) => e.event.op === 'add')).toMatchObject({ users: [h.realm.member2.id] });
    expect(events.find((e) => e.type === 'realm_user')!.event.person).toEqual({ user_id: bot.id, bot_owner_id: h.realm.member2.id });
  });

  it('drops the cached key when a bot key is regenerated', async () => {
    const bot = await makeUser(h, ROLE.MEMBER, { botOwnerId: h.realm.member.id });
    await h.env.redis.set(redisKeys(h.env.prefix).authCache(bot.apiKey), '{}', 'EX', 60);
    const before = await h.lastEventId();
    const res = await h.as(h.realm.member).post(`/bots/${bot.id}/api_key/regenerate`);
    expect(await h.env.redis.exists(redisKeys(h.env.prefix).authCache(bot.apiKey))).toBe(0);
    const [event] = await h.eventsSince(before);
    expect(event!.event).toEqual({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, api_key: res.body.api_key } });
  });

  it('answers No such bot for people and unknown ids', async () => {
    expect((await h.as(h.realm.admin).delete(`/bots/${h.realm.member.id}`)).body.msg).toBe('No such bot');
    expect((await h.as(h.realm.admin).patch('/bots/999999').send({ full_name: 'x' })).body.msg).toBe('No such bot');
  });
});
