import { ROLE } from '@chat/contracts';
import { start } from '../app';
import { makeUser, startHarness, type Harness } from './support';
import type { SeededUser } from '@chat/testing';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const report = (user: SeededUser, params: Record<string, string> = {}) =>
  h.as(user).post('/users/me/presence').send({ status: 'active', ...params });

/** Moves a user's stored times into the past, as if their last report was `secs` ago. */
async function age(user: SeededUser, secs: number) {
  const shift = `- interval '${secs} seconds'`;
  await h.db.$executeRawUnsafe(
    `UPDATE user_presence SET last_connected_time = last_connected_time ${shift}, last_active_time = last_active_time ${shift} WHERE user_id = $1`,
    user.id,
  );
}

async function stored(user: SeededUser) {
  return h.db.userPresence.findUnique({ where: { userId: user.id } });
}

async function presenceEvents(since: bigint) {
  return (await h.eventsSince(since)).filter((e) => e.type === 'presence') as Array<{
    event: Record<string, unknown>;
    users: number[];
    capability?: string;
    fallback_event?: Record<string, unknown>;
  }>;
}

const now = () => Math.floor(Date.now() / 1000);

describe('POST /users/me/presence', () => {
  it('stores a first report and announces it in both formats', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    const before = await h.lastEventId();
    const res = await report(me);
    expect(res.body).toMatchObject({ result: 'success', server_timestamp: expect.any(Number), presence_last_update_id: expect.any(Number) });
    const mine = res.body.presences[me.email];
    expect(mine.aggregated).toEqual({ client: 'website', status: 'active', timestamp: expect.any(Number) });
    expect(mine.website).toEqual({ ...mine.aggregated, pushable: false });
    expect(Math.abs(mine.website.timestamp - now())).toBeLessThanOrEqual(2);

    const [event, ...rest] = await presenceEvents(before);
    expect(rest).toEqual([]);
    const ts = mine.website.timestamp;
    expect(event!.event).toEqual({ type: 'presence', presences: { [me.id]: { active_timestamp: ts, idle_timestamp: ts } } });
    expect(event!.capability).toBe('simplified_presence_events');
    expect(event!.fallback_event).toEqual({
      type: 'presence',
      user_id: me.id,
      email: me.email,
      server_timestamp: expect.any(Number),
      presence: { website: { client: 'website', status: 'active', timestamp: ts, pushable: false } },
    });
    expect(event!.users).toEqual(expect.arrayContaining([h.realm.owner.id, h.realm.guest.id, h.realm.bot.id, me.id]));
  });

  it('writes and emits nothing for reports that change nothing observable', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    await report(me);
    const row = await stored(me);
    const before = await h.lastEventId();
    // Other tabs, idle reports and repeated pings within the minimum interval.
    for (const status of ['active', 'idle', 'active']) expect((await report(me, { status, ping_only: 'true' })).body).toEqual({ result: 'success', msg: '' });
    expect(await stored(me)).toEqual(row);
    expect(await h.eventsSince(before)).toEqual([]);
  });

  it('announces a first report once however many clients send it at the same time', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    const before = await h.lastEventId();
    const answers = await Promise.all(Array.from({ length: 6 }, () => report(me, { ping_only: 'true' })));
    expect(answers.map((r) => r.body.result)).toEqual(Array(6).fill('success'));
    expect(await presenceEvents(before)).toHaveLength(1);
    expect(await stored(me)).not.toBeNull();
  });

  it('moves stale times forward, and announces only a return after a long absence', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    await report(me);
    // Connected a minute and a half ago: an idle report refreshes only the connection time.
    await age(me, 90);
    let before = await h.lastEventId();
    const old = (await stored(me))!;
    await report(me, { status: 'idle' });
    let row = (await stored(me))!;
    expect(row.lastActiveTime).toEqual(old.lastActiveTime);
    expect(row.lastConnectedTime!.getTime()).toBeGreaterThan(old.lastConnectedTime!.getTime());
    expect(row.lastUpdateId).toBeGreaterThan(old.lastUpdateId);
    // An active report 90 s after the last activity is a refresh, not a return: no event.
    await report(me);
    row = (await stored(me))!;
    expect(Date.now() - row.lastActiveTime!.getTime()).toBeLessThan(5000);
    expect(await presenceEvents(before)).toEqual([]);
    // Away for ten minutes, then active: everyone hears at once.
    await age(me, 600);
    before = await h.lastEventId();
    await report(me);
    const [event] = await presenceEvents(before);
    expect(event!.event.presences).toEqual({ [me.id]: { active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) } });
    expect((event!.fallback_event!.presence as { website: { status: string } }).website.status).toBe('active');
  });

  it('stores an idle first report with the join date standing in for activity', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    const before = await h.lastEventId();
    const res = await report(me, { status: 'idle', slim_presence: 'true' });
    const joined = Math.floor((await h.db.user.findUniqueOrThrow({ where: { id: me.id } })).dateJoined.getTime() / 1000);
    expect(res.body.presences[me.id]).toEqual({ active_timestamp: joined, idle_timestamp: expect.any(Number) });
    const [event] = await presenceEvents(before);
    expect(event!.event.presences).toEqual({ [me.id]: res.body.presences[me.id] });
  });

  it('answers in the modern format with slim_presence or last_update_id', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    const slim = (await report(me, { slim_presence: 'true' })).body;
    expect(slim.presences[me.id]).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
    expect(slim.presences[me.email]).toBeUndefined();
    const modern = (await report(me, { last_update_id: '-1' })).body;
    expect(modern.presences[me.id]).toEqual(slim.presences[me.id]);
  });

  it('returns only what changed since last_update_id', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    const other = await makeUser(h, ROLE.MEMBER);
    const first = (await report(me, { last_update_id: '-1' })).body;
    const id = first.presence_last_update_id;
    expect(id).toBe(Number((await stored(me))!.lastUpdateId));
    const same = (await report(me, { last_update_id: String(id) })).body;
    expect(same.presences).toEqual({});
    expect(same.presence_last_update_id).toBe(id);
    await report(other);
    const next = (await report(me, { last_update_id: String(id) })).body;
    expect(Object.keys(next.presences)).toEqual([String(other.id)]);
    expect(next.presence_last_update_id).toBe(Number((await stored(other))!.lastUpdateId));
    expect(next.presence_last_update_id).toBeGreaterThan(id);
  });

  it('limits history to history_limit_days (14 by default), except for incremental fetches', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    const away = await makeUser(h, ROLE.MEMBER);
    await report(away);
    await age(away, 20 * 86400);
    const byDefault = (await report(me, { slim_presence: 'true' })).body.presences;
    expect(byDefault[away.id]).toBeUndefined();
    expect(byDefault[me.id]).toBeDefined();
    const month = (await report(me, { slim_presence: 'true', history_limit_days: '30' })).body.presences;
    expect(month[away.id]).toBeDefined();
    expect((await report(me, { last_update_id: '1', history_limit_days: '1' })).body.presences[away.id]).toBeDefined();
    const none = (await report(me, { history_limit_days: '0' })).body;
    expect([none.presences, none.presence_last_update_id]).toEqual([{}, -1]);
  });

  it('leaves out bots and deactivated users', async () => {
    const gone = await makeUser(h, ROLE.MEMBER);
    await report(gone);
    await h.db.user.update({ where: { id: gone.id }, data: { isActive: false } });
    const res = (await report(h.realm.member, { slim_presence: 'true' })).body;
    expect(res.presences[gone.id]).toBeUndefined();
    expect(res.presences[h.realm.bot.id]).toBeUndefined();
  });

  it('refuses bots and bad statuses', async () => {
    expect((await report(h.realm.bot)).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'This endpoint does not accept bot requests.' });
    expect((await report(h.realm.member, { status: 'away' })).body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid status: away' });
    const missing = await h.as(h.realm.member).post('/users/me/presence').send({});
    expect(missing.body).toMatchObject({ result: 'error', code: 'REQUEST_VARIABLE_MISSING', var_name: 'status' });
    expect((await report(h.realm.member, { last_update_id: 'x' })).body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('stores nothing and announces nothing for users with presence_enabled off', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    await h.db.user.update({ where: { id: me.id }, data: { settings: { presence_enabled: false } } });
    const before = await h.lastEventId();
    const res = (await report(me, { slim_presence: 'true' })).body;
    expect(res.result).toBe('success');
    expect(res.presences[me.id]).toBeUndefined();
    expect(await stored(me)).toBeNull();
    expect(await h.eventsSince(before)).toEqual([]);
  });
});

describe('the presence_enabled setting', () => {
  it('shows the user offline at once when switched off, and online again when switched on', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    await report(me);
    let before = await h.lastEventId();
    expect((await h.as(me).patch('/settings').send({ presence_enabled: 'false' })).body.result).toBe('success');
    const row = (await stored(me))!;
    expect(row.lastActiveTime).toBeNull();
    const ago = (Date.now() - row.lastConnectedTime!.getTime()) / 1000;
    expect(ago).toBeGreaterThan(200);
    const [off, ...more] = await presenceEvents(before);
    expect(more).toEqual([]);
    expect(off!.users).toEqual(expect.arrayContaining([h.realm.owner.id, h.realm.guest.id]));
    expect((off!.fallback_event!.presence as { website: { status: string } }).website.status).toBe('idle');
    expect((await h.as(h.realm.member2).get(`/users/${me.id}/presence`)).body.presence.aggregated.status).toBe('offline');

    // Invisible: reports change nothing.
    before = await h.lastEventId();
    await report(me);
    expect(await stored(me)).toEqual(row);
    expect(await presenceEvents(before)).toEqual([]);

    expect((await h.as(me).patch('/settings').send({ presence_enabled: 'true' })).body.result).toBe('success');
    const [on] = await presenceEvents(before);
    const ts = Math.floor((await stored(me))!.lastActiveTime!.getTime() / 1000);
    expect(Math.abs(ts - now())).toBeLessThanOrEqual(2);
    expect(on!.event.presences).toEqual({ [me.id]: { active_timestamp: ts, idle_timestamp: ts } });
    // Setting the same value again is no change: no presence event.
    before = await h.lastEventId();
    await h.as(me).patch('/settings').send({ presence_enabled: 'true' });
    expect(await presenceEvents(before)).toEqual([]);
  });
});

describe('GET /users/{user_id_or_email}/presence and GET /realm/presence', () => {
  it('reads one user by id or email, legacy or modern', async () => {
    const me = await makeUser(h, ROLE.MEMBER);
    await report(me);
    const legacy = (await h.as(h.realm.member2).get(`/users/${me.id}/presence`)).body;
    expect(legacy).toEqual({
      result: 'success',
      msg: '',
      presence: { website: { status: 'active', timestamp: expect.any(Number) }, aggregated: { status: 'active', timestamp: expect.any(Number) } },
    });
    expect((await h.as(h.realm.bot).get(`/users/${encodeURIComponent(me.email)}/presence`)).body.presence).toEqual(legacy.presence);
    const slim = (await h.as(h.realm.member2).get(`/users/${me.id}/presence?slim_presence=true`)).body;
    expect(slim.presence).toEqual({ active_timestamp: legacy.presence.website.timestamp, idle_timestamp: legacy.presence.website.timestamp });
    // Too old to mean online: the aggregate says offline, the client entry keeps its status.
    await age(me, 600);
    const old = (await h.as(h.realm.member2).get(`/users/${me.id}/presence`)).body.presence;
    expect(old.aggregated.status).toBe('offline');
    expect(old.website.status).toBe('active');
  });

  it('answers the errors of the API family', async () => {
    const fresh = await makeUser(h, ROLE.MEMBER);
    const as = h.as(h.realm.member);
    const cases: Array<[string, string]> = [
      ['/users/999999/presence', 'No such user'],
      ['/users/99999999999999999999999999/presence', 'No such user'],
      ['/users/nobody@chat.test/presence', 'No such user'],
      [`/users/${h.realm.bot.id}/presence`, 'Presence is not supported for bot users.'],
      [`/users/${fresh.id}/presence`, `No presence data for ${fresh.id}`],
      [`/users/${encodeURIComponent(fresh.email)}/presence`, `No presence data for ${fresh.email}`],
    ];
    for (const [path, msg] of cases) expect([path, (await as.get(path)).body]).toEqual([path, { result: 'error', code: 'BAD_REQUEST', msg }]);
  });

  it('lists the realm in the legacy format', async () => {
    await report(h.realm.member2);
    const res = (await h.as(h.realm.owner).get('/realm/presence')).body;
    expect(res).toEqual({ result: 'success', msg: '', presences: expect.any(Object), server_timestamp: expect.any(Number) });
    expect(res.presences[h.realm.member2.email].aggregated.status).toBe('active');
  });
});

describe('realm rules', () => {
  it('limits guests to the users they can access', async () => {
    const members = await h.db.userGroup.findFirstOrThrow({ where: { realmId: h.realm.realmId, name: 'role:members' } });
    const realm = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    const settings = realm.settings as Record<string, unknown>;
    await h.db.realm.update({ where: { id: realm.id }, data: { settings: { ...settings, can_access_all_users_group: members.id } } });
    try {
      const hidden = await makeUser(h, ROLE.MEMBER);
      const shared = await makeUser(h, ROLE.MEMBER);
      const stream = await h.db.stream.create({ data: { realmId: h.realm.realmId, name: 'Guests welcome', nameKey: 'guests welcome' } });
      await h.db.subscription.createMany({ data: [{ userId: h.realm.guest.id, streamId: stream.id }, { userId: shared.id, streamId: stream.id }] });
      const before = await h.lastEventId();
      await report(hidden);
      await report(shared);
      const events = await presenceEvents(before);
      expect(events[0]!.users).not.toContain(h.realm.guest.id);
      expect(events[1]!.users).toContain(h.realm.guest.id);
      const seen = (await report(h.realm.guest, { slim_presence: 'true' })).body.presences;
      expect(seen[shared.id]).toBeDefined();
      expect(seen[hidden.id]).toBeUndefined();
      expect((await h.as(h.realm.guest).get(`/users/${hidden.id}/presence`)).body.msg).toBe('Insufficient permission');
      expect((await h.as(h.realm.guest).get(`/users/${shared.id}/presence`)).body.result).toBe('success');
      expect((await h.as(h.realm.member).get('/realm/presence')).body.presences[hidden.email]).toBeDefined();
    } finally {
      await h.db.realm.update({ where: { id: realm.id }, data: { settings: settings as object } });
    }
  });

  it('shows and announces nothing while presence is disabled for the realm', async () => {
    const realm = await h.db.realm.findUniqueOrThrow({ where: { id: h.realm.realmId } });
    const settings = realm.settings as Record<string, unknown>;
    await h.db.realm.update({ where: { id: realm.id }, data: { settings: { ...settings, presence_disabled: true } } });
    try {
      const me = await makeUser(h, ROLE.MEMBER);
      const before = await h.lastEventId();
      const res = (await report(me, { last_update_id: '-1' })).body;
      expect([res.presences, res.presence_last_update_id]).toEqual([{}, -1]);
      expect(await presenceEvents(before)).toEqual([]);
      expect((await h.as(h.realm.owner).get('/realm/presence')).body.presences).toEqual({});
    } finally {
      await h.db.realm.update({ where: { id: realm.id }, data: { settings: settings as object } });
    }
  });

  it('sends no immediate events in realms above PRESENCE_EVENTS_MAX_USERS', async () => {
    const small = await start({ ...h.env.env, PRESENCE_EVENTS_MAX_USERS: '3' });
    try {
      const me = await makeUser(h, ROLE.MEMBER);
      const before = await h.lastEventId();
      const { default: request } = await import('supertest');
      const { identityHeaders } = await import('@chat/testing');
      const res = await request(small.url).post('/api/v1/users/me/presence').set(identityHeaders(h.realm.realmId, me)).type('form').send({ status: 'active' });
      expect(res.body.result).toBe('success');
      expect(await stored(me)).not.toBeNull();
      expect(await presenceEvents(before)).toEqual([]);
    } finally {
      await small.stop();
    }
  });
});
