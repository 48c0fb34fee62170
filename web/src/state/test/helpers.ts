/** Small snapshots and messages for the unit tests (the replay test uses the server's own). */
import type { Message, RegisterState, UserGroup } from '@chat/client';
import { freshState, initialState, type AppState } from '../store';

export const SELF = 4;

export function group(id: number, name: string, members: number[], subgroups: number[] = [], system = true): UserGroup {
  return { id, name, description: '', members, direct_subgroup_ids: subgroups, is_system_group: system, deactivated: false };
}

/** The realm's system groups as the server makes them: each role's group holds the roles above it. */
export const SYSTEM_GROUPS: UserGroup[] = [
  group(1, 'role:nobody', []),
  group(2, 'role:owners', [1]),
  group(3, 'role:administrators', [2], [2]),
  group(4, 'role:moderators', [3], [3]),
  group(5, 'role:fullmembers', [], [4]),
  group(6, 'role:members', [4, 5], [5]),
  group(7, 'role:everyone', [6], [6]),
];

export function reg(overrides: Partial<RegisterState> = {}): RegisterState {
  return {
    queue_id: 'q', last_event_id: -1, zulip_feature_level: 420, zulip_version: '11', user_id: SELF, email: 'hamlet@chat.test', full_name: 'King Hamlet',
    is_admin: false, is_owner: false, role: 400, realm_name: 'Test',
    realm_users: [
      { user_id: 1, email: 'o@x', full_name: 'Owner', avatar_url: null, is_active: true, is_bot: false, role: 100, date_joined: '2020-01-01T00:00+00:00' },
      { user_id: 2, email: 'a@x', full_name: 'Admin', avatar_url: null, is_active: true, is_bot: false, role: 200, date_joined: '2020-01-01T00:00+00:00' },
      { user_id: 3, email: 'm@x', full_name: 'Mod', avatar_url: null, is_active: true, is_bot: false, role: 300, date_joined: '2020-01-01T00:00+00:00' },
      { user_id: SELF, email: 'hamlet@chat.test', full_name: 'King Hamlet', avatar_url: null, is_active: true, is_bot: false, role: 400, date_joined: '2020-01-01T00:00+00:00' },
      { user_id: 5, email: 'b@x', full_name: 'Othello', avatar_url: null, is_active: true, is_bot: false, role: 400, date_joined: '2020-01-01T00:00+00:00' },
      { user_id: 6, email: 'g@x', full_name: 'Guest', avatar_url: null, is_active: true, is_bot: false, role: 600, date_joined: '2020-01-01T00:00+00:00' },
    ],
    realm_emoji: {},
    realm_user_groups: SYSTEM_GROUPS,
    subscriptions: [
      { stream_id: 10, name: 'Verona', description: '', color: '#fff', invite_only: false, is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null, can_send_message_group: 7 },
      { stream_id: 11, name: 'Mantua', description: '', color: '#fff', invite_only: false, is_muted: true, pin_to_top: false, desktop_notifications: null, audible_notifications: null, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null, can_send_message_group: 7 },
    ],
    unread_msgs: { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false },
    user_topics: [],
    realm_allow_message_editing: true,
    realm_message_content_edit_limit_seconds: 600,
    realm_message_content_delete_limit_seconds: null,
    realm_move_messages_within_stream_limit_seconds: 604800,
    realm_move_messages_between_streams_limit_seconds: 604800,
    realm_can_move_messages_between_topics_group: 7,
    realm_can_move_messages_between_channels_group: 6,
    realm_can_delete_own_message_group: 7,
    realm_can_delete_any_message_group: 3,
    realm_can_resolve_topics_group: 7,
    realm_waiting_period_threshold: 0,
    user_settings: {},
    ...overrides,
  };
}

export function state(overrides: Partial<RegisterState> = {}): AppState {
  return freshState(initialState, reg(overrides));
}

let nextId = 100;

export function streamMessage(fields: Partial<Message> = {}): Message {
  return {
    id: ++nextId, type: 'stream', stream_id: 10, subject: 'balcony', display_recipient: 'Verona', flags: [], sender_id: 5, sender_full_name: 'Othello', sender_email: 'b@x',
    sender_realm_str: '', avatar_url: null, client: 'test', content: '<p>hi</p>', content_type: 'text/html', is_me_message: false, reactions: [], recipient_id: 1, topic_links: [],
    submessages: [], timestamp: 1_000_000, ...fields,
  };
}

export function dmMessage(others: number[], fields: Partial<Message> = {}): Message {
  const people = [...new Set([...others, SELF])].map((id) => ({ id, email: '', full_name: '', is_mirror_dummy: false }));
  return streamMessage({ type: 'private', stream_id: undefined, subject: '', display_recipient: people, ...fields });
}
