import { legacyClientEntry, legacyPresence, modernPresence, PRESENCE_TIMES, type PresenceRow } from '../presence';

const row = (extra: Partial<PresenceRow> = {}): PresenceRow => ({
  userId: 4, email: 'iago@example.test', dateJoined: 1_000, activeAt: 5_000, connectedAt: 5_030, lastUpdateId: 7, ...extra,
});

describe('modernPresence', () => {
  it('gives the last activity and the last connection', () => {
    expect(modernPresence(row())).toEqual({ active_timestamp: 5_000, idle_timestamp: 5_030 });
  });

  it('reads never-reported times as the join date, never-active no later than the last connection', () => {
    expect(modernPresence(row({ activeAt: null, connectedAt: null }))).toEqual({ active_timestamp: 1_000, idle_timestamp: 1_000 });
    expect(modernPresence(row({ activeAt: null, connectedAt: 600 }))).toEqual({ active_timestamp: 600, idle_timestamp: 600 });
  });
});

describe('legacy presence', () => {
  it('is active while the last activity is close to the last connection', () => {
    const near = row({ activeAt: 5_000, connectedAt: 5_000 + PRESENCE_TIMES.legacyActiveOffsetSecs });
    expect(legacyClientEntry(near)).toEqual({ client: 'website', status: 'active', timestamp: 5_000, pushable: false });
  });

  it('is idle, at the last connection, once activity is older', () => {
    const far = row({ activeAt: 5_000, connectedAt: 5_001 + PRESENCE_TIMES.legacyActiveOffsetSecs });
    expect(legacyClientEntry(far)).toEqual({ client: 'website', status: 'idle', timestamp: 5_071, pushable: false });
  });

  it('is idle for someone never reported active', () => {
    expect(legacyClientEntry(row({ activeAt: null, connectedAt: 1_010 })).status).toBe('idle');
  });

  it('aggregates the one client', () => {
    const out = legacyPresence(row());
    expect(out).toEqual({ aggregated: { client: 'website', status: 'active', timestamp: 5_000 }, website: legacyClientEntry(row()) });
  });
});
