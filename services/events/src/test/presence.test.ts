import { recordEvent } from '@chat/bus';
import { seedRealm, setupTestEnv, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import type { QueueStore } from '@chat/queues';
import type Redis from 'ioredis';
import { start, type EventsHandle } from '../app';
import { outboxDrained, register, storeFor } from './support';

let env: TestEnv;
let realm: SeededRealm;
let service: EventsHandle;
let store: QueueStore;
let redis: Redis;

const MINUTE = 60_000;
const DAY = 86_400_000;
const secs = (ms: number) => Math.floor(ms / 1000);
const now = Date.now();

/** Presence rows the way the users service stores them (times to the millisecond, UTC). */
async function stored(user: SeededUser, activeAgoMs: number | null, connectedAgoMs: number, lastUpdateId: number) {
  await env.db.userPresence.create({
    data: {
      userId: user.id,
      realmId: realm.realmId,
      lastActiveTime: activeAgoMs === null ? null : new Date(now - activeAgoMs),
      lastConnectedTime: new Date(now - connectedAgoMs),
      lastUpdateId: BigInt(lastUpdateId),
    },
  });
}

beforeAll(async () => {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  service = await start({ ...env.env, STREAM_PARTITIONS: '2' });
  ({ store, redis } = storeFor(env));
  await stored(realm.member, 0, 0, 7); // active now
  await stored(realm.member2, 10 * MINUTE, 0, 9); // connected now, idle for ten minutes
  await stored(realm.moderator, null, 3 * DAY, 4); // connected three days ago, never active
  await stored(realm.admin, 20 * DAY, 20 * DAY, 2); // beyond the default 14 days
  await outboxDrained(env.db);
});

afterAll(async () => {
  await service?.stop();
  redis?.disconnect();
  await env?.close();
});

const reg = async (params: Record<string, string> = {}, user: SeededUser | undefined = realm.owner) =>
  (await register(service.url, realm.realmId, user, params)).body;

describe('presences at register', () => {
  it('keys legacy data by email, with the status derived from the two times', async () => {
    const body = await reg();
    expect(Object.keys(body.presences).sort()).toEqual([realm.member.email, realm.member2.email, realm.moderator.email].sort());
    const member = body.presences[realm.member.email];
    expect(member).toEqual({
      aggregated: { client: 'website', status: 'active', timestamp: secs(now) },
      website: { client: 'website', status: 'active', timestamp: secs(now), pushable: false },
    });
    expect(body.presences[realm.member2.email].website).toMatchObject({ status: 'idle', timestamp: secs(now) });
    expect(body.presences[realm.moderator.email].website).toMatchObject({ status: 'idle', timestamp: secs(now - 3 * DAY) });
    expect(body.presence_last_update_id).toBe(9);
    expect(Math.abs(body.server_timestamp - Date.now() / 1000)).toBeLessThan(5);
  });

  it('keys modern data by user id with slim_presence or simplified_presence_events', async () => {
    const joined = secs((await env.db.user.findUniqueOrThrow({ where: { id: realm.moderator.id } })).dateJoined.getTime());
    const expected = {
      [realm.member.id]: { active_timestamp: secs(now), idle_timestamp: secs(now) },
      [realm.member2.id]: { active_timestamp: secs(now - 10 * MINUTE), idle_timestamp: secs(now) },
      // Never active: the join date stands in, but never later than the last connection.
      [realm.moderator.id]: { active_timestamp: Math.min(joined, secs(now - 3 * DAY)), idle_timestamp: secs(now - 3 * DAY) },
    };
    expect((await reg({ slim_presence: 'true' })).presences).toEqual(expected);
    expect((await reg({ client_capabilities: JSON.stringify({ simplified_presence_events: true }) })).presences).toEqual(expected);
  });

  it('honours presence_history_limit_days', async () => {
    const oneDay = await reg({ slim_presence: 'true', presence_history_limit_days: '1' });
    expect(Object.keys(oneDay.presences).map(Number).sort()).toEqual([realm.member.id, realm.member2.id].sort());
    const month = await reg({ slim_presence: 'true', presence_history_limit_days: '30' });
    expect(Object.keys(month.presences).map(Number)).toContain(realm.admin.id);
    const none = await reg({ presence_history_limit_days: '0' });
    expect([none.presences, none.presence_last_update_id]).toEqual([{}, -1]);
  });

  it('is sent only when presence is fetched, with the timing facts under realm', async () => {
    const other = await reg({ fetch_event_types: JSON.stringify(['message']) });
    expect(other).not.toHaveProperty('presences');
    expect(other).not.toHaveProperty('presence_last_update_id');
    const realmOnly = await reg({ fetch_event_types: JSON.stringify(['realm']) });
    expect(realmOnly).toMatchObject({ server_presence_ping_interval_seconds: 60, server_presence_offline_threshold_seconds: 200 });
  });

  it('leaves out deactivated users and shows nothing while the realm disables presence', async () => {
    const r = await env.db.realm.findUniqueOrThrow({ where: { id: realm.realmId } });
    const settings = r.settings as Record<string, unknown>;
    await env.db.user.update({ where: { id: realm.member2.id }, data: { isActive: false } });
    try {
      expect(Object.keys((await reg({ slim_presence: 'true' })).presences)).not.toContain(String(realm.member2.id));
      await env.db.realm.update({ where: { id: r.id }, data: { settings: { ...settings, presence_disabled: true } } });
      const disabled = await reg();
      expect([disabled.presences, disabled.presence_last_update_id]).toEqual([{}, -1]);
    } finally {
      await env.db.user.update({ where: { id: realm.member2.id }, data: { isActive: true } });
      await env.db.realm.update({ where: { id: r.id }, data: { settings: settings as object } });
    }
  });

  it('shows a guest outside can_access_all_users_group only the people they can access', async () => {
    const r = await env.db.realm.findUniqueOrThrow({ where: { id: realm.realmId } });
    const settings = r.settings as Record<string, unknown>;
    const members = await env.db.userGroup.findFirstOrThrow({ where: { realmId: r.id, name: 'role:members' } });
    const stream = await env.db.stream.create({ data: { realmId: r.id, name: 'Shared', nameKey: 'shared' } });
    await env.db.subscription.createMany({ data: [{ userId: realm.guest.id, streamId: stream.id }, { userId: realm.member2.id, streamId: stream.id }] });
    // Everyone may see everyone by default.
    expect(Object.keys((await reg({ slim_presence: 'true' }, realm.guest)).presences)).toHaveLength(3);
    await env.db.realm.update({ where: { id: r.id }, data: { settings: { ...settings, can_access_all_users_group: members.id } } });
    try {
      const guest = await reg({ slim_presence: 'true' }, realm.guest);
      expect(Object.keys(guest.presences)).toEqual([String(realm.member2.id)]);
      expect(guest.presence_last_update_id).toBe(9);
      expect(Object.keys((await reg({ slim_presence: 'true' }, realm.member)).presences)).toHaveLength(3);
    } finally {
      await env.db.realm.update({ where: { id: r.id }, data: { settings: settings as object } });
    }
  });

  it('gives spectators nobody\'s presence', async () => {
    const r = await env.db.realm.findUniqueOrThrow({ where: { id: realm.realmId } });
    const settings = r.settings as Record<string, unknown>;
    await env.db.realm.update({ where: { id: r.id }, data: { settings: { ...settings, enable_spectator_access: true } } });
    await env.db.stream.create({ data: { realmId: r.id, name: 'Open', nameKey: 'open', isWebPublic: true } });
    try {
      const spectator = (await register(service.url, realm.realmId, undefined, { client_gravatar: 'false' })).body;
      expect(spectator.queue_id).toBeNull();
      expect([spectator.presences, spectator.presence_last_update_id]).toEqual([{}, -1]);
    } finally {
      await env.db.realm.update({ where: { id: r.id }, data: { settings: settings as object } });
    }
  });
});

describe('presence events', () => {
  /** A presence event recorded the way the users service records one. */
  async function recordPresence(user: SeededUser, users: number[]) {
    const ts = secs(Date.now());
    await env.db.$transaction((tx) =>
      recordEvent(tx, {
        realmId: realm.realmId,
        type: 'presence',
        users,
        event: { type: 'presence', presences: { [user.id]: { active_timestamp: ts, idle_timestamp: ts } } },
        routing: {
          capability: 'simplified_presence_events',
          fallback_event: {
            type: 'presence',
            user_id: user.id,
            email: user.email,
            server_timestamp: ts,
            presence: { website: { client: 'website', status: 'active', timestamp: ts, pushable: false } },
          },
        },
      }),
    );
    return ts;
  }

  async function eventsOf(queueId: string, userId: number, count: number) {
    const deadline = Date.now() + 10000;
    for (;;) {
      const events = ((await store.fetch(queueId, userId)) ?? []).filter((e) => e.type === 'presence');
      if (events.length >= count || Date.now() > deadline) return events;
      await new Promise((r) => setTimeout(r, 30));
    }
  }

  it('reach each queue in the format its capabilities ask for', async () => {
    const modern = (await register(service.url, realm.realmId, realm.owner, {
      client_capabilities: JSON.stringify({ simplified_presence_events: true }),
    })).body.queue_id as string;
    const legacy = (await register(service.url, realm.realmId, realm.admin)).body.queue_id as string;
    const uninterested = (await register(service.url, realm.realmId, realm.moderator, { event_types: JSON.stringify(['message']) })).body.queue_id as string;
    const ts = await recordPresence(realm.member, [realm.owner.id, realm.admin.id, realm.moderator.id]);
    const [m] = await eventsOf(modern, realm.owner.id, 1);
    expect(m).toEqual({ id: expect.any(Number), type: 'presence', presences: { [realm.member.id]: { active_timestamp: ts, idle_timestamp: ts } } });
    const [l] = await eventsOf(legacy, realm.admin.id, 1);
    expect(l).toEqual({
      id: expect.any(Number),
      type: 'presence',
      user_id: realm.member.id,
      email: realm.member.email,
      server_timestamp: ts,
      presence: { website: { client: 'website', status: 'active', timestamp: ts, pushable: false } },
    });
    // Wait for a later event to reach the filtered queue, then check it got no presence.
    await recordPresence(realm.member2, [realm.owner.id]);
    await eventsOf(modern, realm.owner.id, 2);
    expect(await store.fetch(uninterested, realm.moderator.id)).toEqual([]);
  });
});
