import type { UserGroup } from '@chat/client';
import { canDelete, canEditContent, canEditTopic, canMoveChannel, canResolve, editSecondsLeft, editTimerParts, inGroupSetting, toggledResolved, type PermissionContext } from '../permissions';

const sys = (id: number, name: string, subs: number[] = []): UserGroup => ({ id, name, description: '', members: [], direct_subgroup_ids: subs, is_system_group: true });
const groups: UserGroup[] = [
  sys(1, 'role:owners'), sys(2, 'role:administrators', [1]), sys(3, 'role:moderators', [2]), sys(4, 'role:fullmembers', [3]), sys(5, 'role:members', [4]),
  sys(6, 'role:everyone', [5]), sys(7, 'role:nobody'),
  { id: 20, name: 'editors', description: '', members: [50], direct_subgroup_ids: [21], is_system_group: false },
  { id: 21, name: 'sub', description: '', members: [51], direct_subgroup_ids: [20], is_system_group: false },
];

const NOW = 1_000_000;

function ctx(over: Partial<PermissionContext> = {}, role = 400, userId = 50): PermissionContext {
  return {
    viewer: { userId, role }, groups, allowEditing: true, editLimit: 600, deleteLimit: null, moveWithinLimit: 604800, moveBetweenLimit: 604800, waitingPeriodDays: 0,
    settings: { can_delete_any_message_group: 2, can_delete_own_message_group: 6, can_move_messages_between_topics_group: 6, can_move_messages_between_channels_group: 5, can_resolve_topics_group: 6 },
    archivedChannels: new Set(), allowEditHistory: true, readReceipts: true, ...over,
  };
}

const mine = { id: 1, type: 'stream' as const, sender_id: 50, timestamp: NOW - 100, stream_id: 9, submessages: [] };
const theirs = { ...mine, sender_id: 60 };

describe('group settings', () => {
  it('decides system groups by role and follows user subgroups through cycles', () => {
    expect(inGroupSetting(2, { userId: 1, role: 200 }, groups)).toBe(true);
    expect(inGroupSetting(2, { userId: 1, role: 300 }, groups)).toBe(false);
    expect(inGroupSetting(6, { userId: 1, role: 600 }, groups)).toBe(true);
    expect(inGroupSetting(5, { userId: 1, role: 600 }, groups)).toBe(false);
    expect(inGroupSetting(7, { userId: 1, role: 100 }, groups)).toBe(false);
    expect(inGroupSetting(20, { userId: 51, role: 400 }, groups)).toBe(true);
    expect(inGroupSetting(21, { userId: 50, role: 400 }, groups)).toBe(true);
    expect(inGroupSetting({ direct_members: [9], direct_subgroups: [] }, { userId: 9, role: 400 }, groups)).toBe(true);
    expect(inGroupSetting({ direct_members: [], direct_subgroups: [3] }, { userId: 9, role: 400 }, groups)).toBe(false);
  });

  it('keeps full members to the waiting period', () => {
    const fresh = { userId: 9, role: 400, dateJoined: NOW - 86_400 };
    expect(inGroupSetting(4, fresh, groups, 3, NOW)).toBe(false);
    expect(inGroupSetting(4, fresh, groups, 1, NOW)).toBe(true);
  });
});

describe('message permissions', () => {
  it('edits own content within the limit only', () => {
    expect(canEditContent(ctx(), mine, NOW)).toBe(true);
    expect(editSecondsLeft(ctx(), mine, NOW)).toBe(500);
    expect(canEditContent(ctx(), theirs, NOW)).toBe(false);
    expect(canEditContent(ctx(), { ...mine, timestamp: NOW - 601 }, NOW)).toBe(false);
    expect(canEditContent(ctx({ editLimit: null }), { ...mine, timestamp: 0 }, NOW)).toBe(true);
    expect(canEditContent(ctx({ editLimit: 0 }), { ...mine, timestamp: 0 }, NOW)).toBe(true);
    expect(canEditContent(ctx({ allowEditing: false }), mine, NOW)).toBe(false);
    expect(canEditContent(ctx(), { ...mine, submessages: [{}] }, NOW)).toBe(false);
    expect(canEditContent(ctx({ archivedChannels: new Set([9]) }), mine, NOW)).toBe(false);
  });

  it('moves within the time limits unless a moderator', () => {
    const old = { ...theirs, timestamp: NOW - 700_000 };
    expect(canEditTopic(ctx(), theirs, NOW)).toBe(true);
    expect(canEditTopic(ctx(), old, NOW)).toBe(false);
    expect(canEditTopic(ctx({}, 300), old, NOW)).toBe(true);
    expect(canMoveChannel(ctx({}, 600), theirs, NOW)).toBe(false);
    expect(canMoveChannel(ctx(), theirs, NOW)).toBe(true);
    expect(canEditTopic(ctx(), { ...theirs, type: 'private' }, NOW)).toBe(false);
    expect(canResolve(ctx(), old, NOW)).toBe(true);
    expect(canResolve(ctx({ settings: { can_resolve_topics_group: 7 } }), old, NOW)).toBe(false);
  });

  it('deletes any message as an admin, own ones within the delete limit', () => {
    expect(canDelete(ctx({}, 200), theirs, NOW)).toBe(true);
    expect(canDelete(ctx(), theirs, NOW)).toBe(false);
    expect(canDelete(ctx(), mine, NOW)).toBe(true);
    expect(canDelete(ctx({ deleteLimit: 50 }), mine, NOW)).toBe(false);
    expect(canDelete(ctx({ settings: { can_delete_own_message_group: 7, can_delete_any_message_group: 2 } }), mine, NOW)).toBe(false);
  });

  it('counts down as the family does and toggles the resolved mark', () => {
    expect(editTimerParts(185)).toEqual({ minutes: 3 });
    expect(editTimerParts(47)).toEqual({ seconds: 45 });
    expect(editTimerParts(7)).toEqual({ seconds: 7 });
    expect(toggledResolved('lunch')).toBe('✔ lunch');
    expect(toggledResolved('✔ ✔ lunch')).toBe('lunch');
  });
});
