import type { Message, RegisterState, UserGroup } from '@chat/client';
import { editTimerParts, messagePermissions, toggledResolved } from '../permissions';

const sys = (id: number, name: string, members: number[], subs: number[] = []): UserGroup => ({ id, name, description: '', members, direct_subgroup_ids: subs, is_system_group: true });
const NOW = 1_000_000;

function reg(over: Partial<RegisterState> = {}, role = 400): RegisterState {
  return {
    user_id: 50, role, realm_users: [{ user_id: 50, role } as never], subscriptions: [{ stream_id: 9, name: 'general' } as never], unsubscribed: [], never_subscribed: [],
    realm_user_groups: [sys(1, 'role:administrators', [1]), sys(2, 'role:members', [50], [1]), sys(3, 'role:everyone', [], [2]), sys(4, 'role:nobody', [])],
    realm_allow_message_editing: true, realm_message_content_edit_limit_seconds: 600, realm_message_content_delete_limit_seconds: null,
    realm_move_messages_within_stream_limit_seconds: 604800, realm_move_messages_between_streams_limit_seconds: 604800,
    realm_can_delete_any_message_group: 1, realm_can_delete_own_message_group: 3, realm_can_move_messages_between_topics_group: 3,
    realm_can_move_messages_between_channels_group: 2, realm_can_resolve_topics_group: 3, realm_allow_edit_history: true, realm_enable_read_receipts: true,
    ...over,
  } as unknown as RegisterState;
}

const msg = (over: Partial<Message> = {}): Message => ({ id: 1, type: 'stream', stream_id: 9, sender_id: 50, timestamp: NOW - 100, submessages: [], subject: 't', flags: [], ...over }) as Message;

describe('message permissions', () => {
  it('offers editing own messages within the limit, with the seconds left', () => {
    const p = messagePermissions(reg(), msg(), NOW);
    expect(p.edit).toBe(true);
    expect(p.editSeconds).toBe(500);
    expect(messagePermissions(reg(), msg({ sender_id: 60 }), NOW).edit).toBe(false);
    expect(messagePermissions(reg(), msg({ timestamp: NOW - 700 }), NOW).edit).toBe(false);
    expect(messagePermissions(reg({ realm_message_content_edit_limit_seconds: null }), msg({ timestamp: 0 }), NOW).editSeconds).toBe(Infinity);
    expect(messagePermissions(reg(), msg({ submessages: [{}] }), NOW).edit).toBe(false);
  });

  it('moves, resolves and deletes by the realm\'s groups', () => {
    const p = messagePermissions(reg(), msg({ sender_id: 60 }), NOW);
    expect([p.editTopic, p.moveChannel, p.move, p.resolve, p.delete]).toEqual([true, true, true, true, false]);
    expect(messagePermissions(reg(), msg(), NOW).delete).toBe(true);
    const admins = [sys(1, 'role:administrators', [50]), sys(2, 'role:members', [], [1]), sys(3, 'role:everyone', [], [2])];
    expect(messagePermissions(reg({ realm_user_groups: admins }, 200), msg({ sender_id: 60 }), NOW).delete).toBe(true);
    expect(messagePermissions(reg({ realm_can_resolve_topics_group: 4 }), msg(), NOW).resolve).toBe(false);
    expect(messagePermissions(reg(), msg({ type: 'private', stream_id: undefined }), NOW).move).toBe(false);
  });

  it('freezes messages of archived channels', () => {
    const p = messagePermissions(reg({ subscriptions: [{ stream_id: 9, name: 'old', is_archived: true } as never] }), msg(), NOW);
    expect([p.edit, p.move, p.resolve, p.delete]).toEqual([false, false, false, false]);
  });

  it('shows history only for edited or moved messages', () => {
    expect(messagePermissions(reg(), msg(), NOW).history).toBe(false);
    expect(messagePermissions(reg(), msg({ last_edit_timestamp: NOW }), NOW).history).toBe(true);
  });

  it('counts down as the family does and toggles the resolved mark', () => {
    expect(editTimerParts(185)).toEqual({ minutes: 3 });
    expect(editTimerParts(47)).toEqual({ seconds: 45 });
    expect(editTimerParts(7)).toEqual({ seconds: 7 });
    expect(toggledResolved('lunch')).toBe('✔ lunch');
    expect(toggledResolved('✔ ✔ lunch')).toBe('lunch');
  });
});
