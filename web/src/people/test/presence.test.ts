import { buddyOrder, lastActive, mergePresences, normalisePresence, presenceOf, presenceStatus } from '../presence';

describe('presence', () => {
  const now = 1_000_000;
  it('is active while the last active report is younger than the threshold', () => {
    expect(presenceStatus({ active_timestamp: now - 60, idle_timestamp: now - 10 }, now)).toBe('active');
    expect(presenceStatus({ active_timestamp: now - 200, idle_timestamp: now - 10 }, now)).toBe('idle');
    expect(presenceStatus({ active_timestamp: now - 200, idle_timestamp: now - 150 }, now)).toBe('offline');
    expect(presenceStatus(undefined, now)).toBe('offline');
    expect(presenceStatus({ active_timestamp: now - 100 }, now, 90)).toBe('offline');
  });
  it('reads the legacy per-client format', () => {
    const legacy = { website: { status: 'idle', timestamp: now - 5 }, ZulipMobile: { status: 'active', timestamp: now - 300 }, aggregated: { status: 'idle', timestamp: now - 5 } };
    expect(normalisePresence(legacy)).toEqual({ active_timestamp: now - 300, idle_timestamp: now - 5 });
    expect(presenceStatus(legacy, now)).toBe('idle');
  });
  it('finds entries by id or email', () => {
    const p = { '7': { active_timestamp: 1 }, 'x@y.z': { website: { status: 'active', timestamp: 2 } } };
    expect(presenceOf(p, 7)).toEqual({ active_timestamp: 1 });
    expect(lastActive(presenceOf(p, 8, 'x@y.z'))).toBe(2);
    expect(presenceOf(undefined, 7)).toBeUndefined();
  });
  it('merges a partial answer without dropping others', () => {
    expect(mergePresences({ '1': { active_timestamp: 1 }, '2': { active_timestamp: 2 } }, { '2': { active_timestamp: 5 } })).toEqual({ '1': { active_timestamp: 1 }, '2': { active_timestamp: 5 } });
    const known = { '1': {} };
    expect(mergePresences(known, {})).toBe(known);
  });
  it('orders active, idle, offline, then by name', () => {
    const list = [
      { status: 'offline' as const, name: 'A' },
      { status: 'active' as const, name: 'Z' },
      { status: 'idle' as const, name: 'B' },
      { status: 'active' as const, name: 'C' },
    ].sort(buddyOrder);
    expect(list.map((x) => x.name)).toEqual(['C', 'Z', 'B', 'A']);
  });
});
