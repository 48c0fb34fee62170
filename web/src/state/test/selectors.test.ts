/** The derived values the views read, and who may do what. */
import type { ClientEvent } from '@chat/client';
import { applyEvents } from '../apply';
import {
  canDelete, canEditContent, canEditTopic, canManageGroup, canMoveToChannel, canPostInChannel, canResolveTopic, canSendDirect, isFullMember, isInGroupSetting,
} from '../permissions';
import {
  channelUnreadCount, dmConversations, dmUnreadCount, homeView, isConversationView, pendingFor, presenceStatus, resolvedName, setting, shouldMarkReadOnScroll, topicsOf,
  typingUserIdsFor, unresolvedName,
} from '../selectors';
import type { AppState } from '../store';
import { dmMessage, group, reg, SELF, state, streamMessage, SYSTEM_GROUPS } from './helpers';

const ev = (e: Record<string, unknown>): ClientEvent => ({ id: 1, ...e }) as unknown as ClientEvent;
const apply = (s: AppState, ...events: Array<Record<string, unknown>>) => applyEvents(s, events.map(ev));
const channel = (id: number, topic?: string) => [{ operator: 'channel', operand: String(id) }, ...(topic !== undefined ? [{ operator: 'topic', operand: topic }] : [])];

describe('unread counts', () => {
  it('leave out muted topics and muted channels, but count their unmuted topics', () => {
    let s = apply(state(), { type: 'message', message: streamMessage({ id: 1, subject: 'a' }), flags: [] }, { type: 'message', message: streamMessage({ id: 2, subject: 'b' }), flags: [] });
    s = apply(s, { type: 'message', message: streamMessage({ id: 3, stream_id: 11, subject: 'c' }), flags: [] });
    s = apply(s, { type: 'user_topic', stream_id: 10, topic_name: 'b', last_updated: 1, visibility_policy: 1 }, { type: 'user_topic', stream_id: 11, topic_name: 'C', last_updated: 1, visibility_policy: 3 });
    expect(channelUnreadCount(s.reg!, 10)).toBe(1);
    expect(channelUnreadCount(s.reg!, 11)).toBe(1);
    expect(s.reg!.unread_msgs.count).toBe(2);
  });

  it('per direct conversation, one-to-one and group', () => {
    const s = apply(state(), { type: 'message', message: dmMessage([5], { id: 10 }), flags: [] }, { type: 'message', message: dmMessage([5, 6], { id: 11 }), flags: [] }, { type: 'message', message: dmMessage([5, 6], { id: 12 }), flags: [] });
    expect(dmUnreadCount(s.reg!, [5])).toBe(1);
    expect(dmUnreadCount(s.reg!, [6, 5])).toBe(2);
    expect(dmConversations(s.reg!).map((c) => [c.key, c.unread])).toEqual([['5,6', 2], ['5', 1]]);
    // The same object while nothing changed, so components re-render only on change.
    expect(dmConversations(s.reg!)).toBe(dmConversations(s.reg!));
  });
});

describe('topics of a channel', () => {
  it('merge the fetched list with messages and unread topics, newest first', () => {
    let s: AppState = { ...state(), topics: { 10: { topics: [{ name: 'old', max_id: 5 }], complete: true } } };
    s = apply(s, { type: 'message', message: streamMessage({ id: 20, subject: 'new' }), flags: [] });
    expect(topicsOf(s, 10).map((t) => [t.name, t.maxId, t.unread])).toEqual([['new', 20, 1], ['old', 5, 0]]);
    s = apply(s, { type: 'update_message', message_id: 20, message_ids: [20], stream_id: 10, orig_subject: 'new', subject: 'newer', propagate_mode: 'change_all', edit_timestamp: 1, rendering_only: false });
    expect(topicsOf(s, 10).map((t) => t.name)).toEqual(['newer', 'old']);
  });
});

describe('presence', () => {
  it('active within the threshold, then idle, then offline; oneself by presence_enabled', () => {
    const r = reg({ presences: { 5: { active_timestamp: 1000, idle_timestamp: 1100 } }, server_presence_offline_threshold_seconds: 140 });
    expect(presenceStatus(r, 5, 1050)).toBe('active');
    expect(presenceStatus(r, 5, 1200)).toBe('idle');
    expect(presenceStatus(r, 5, 1300)).toBe('offline');
    expect(presenceStatus(r, 6, 1050)).toBe('offline');
    expect(presenceStatus(r, SELF)).toBe('active');
    expect(presenceStatus({ ...r, user_settings: { presence_enabled: false } }, SELF)).toBe('offline');
  });
});

describe('typing in a view', () => {
  it('a topic view hears its topic only', () => {
    const s = apply(state(), { type: 'typing', op: 'start', message_type: 'stream', stream_id: 10, topic: 'balcony', sender: { user_id: 5 } });
    expect(typingUserIdsFor(s, channel(10, 'Balcony'))).toEqual([5]);
    expect(typingUserIdsFor(s, channel(10, 'court'))).toEqual([]);
    expect(typingUserIdsFor(s, channel(10, 'balcony'))).toBe(typingUserIdsFor(s, channel(10, 'balcony')));
    expect(typingUserIdsFor(s, channel(10))).toEqual([]);
  });
});

describe('settings and reading', () => {
  it('the home view by web_home_view', () => {
    expect(homeView(reg({ user_settings: { web_home_view: 'recent_topics' } }))).toEqual({ kind: 'recent' });
    expect(homeView(reg({ user_settings: { web_home_view: 'all_messages' } }))).toEqual({ kind: 'feed' });
    expect(homeView(reg())).toEqual({ kind: 'inbox' });
  });

  it('one\'s own setting over the realm\'s default', () => {
    const r = reg({ user_settings: { enter_sends: true }, realm_user_settings_defaults: { enter_sends: false, twenty_four_hour_time: true } });
    expect(setting(r, 'enter_sends')).toBe(true);
    expect(setting(r, 'twenty_four_hour_time')).toBe(true);
  });

  it('mark read on scroll: always, conversations only, never', () => {
    const r = (policy: number) => reg({ user_settings: { web_mark_read_on_scroll_policy: policy } });
    expect(shouldMarkReadOnScroll(r(1), [])).toBe(true);
    expect(shouldMarkReadOnScroll(r(2), [])).toBe(false);
    expect(shouldMarkReadOnScroll(r(2), channel(10, 'x'))).toBe(true);
    expect(shouldMarkReadOnScroll(r(2), [{ operator: 'dm', operand: '5' }])).toBe(true);
    expect(shouldMarkReadOnScroll(r(3), channel(10, 'x'))).toBe(false);
    expect(shouldMarkReadOnScroll(r(2), { kind: 'narrow', terms: channel(10, 'x') })).toBe(true);
    expect(shouldMarkReadOnScroll(r(2), { kind: 'feed' })).toBe(false);
    expect(isConversationView(channel(10))).toBe(false);
  });
});

describe('messages being sent', () => {
  it('show only in the views they belong to', () => {
    const s: AppState = {
      ...state(),
      outbox: [
        { localId: 'a', queueId: 'q', params: { type: 'stream', to: 10, topic: 'balcony', content: 'x' }, timestamp: 1 },
        { localId: 'b', queueId: 'q', params: { type: 'direct', to: [5], content: 'y' }, timestamp: 1 },
      ],
    };
    expect(pendingFor(s, []).map((o) => o.localId)).toEqual(['a', 'b']);
    expect(pendingFor(s, channel(10, 'balcony')).map((o) => o.localId)).toEqual(['a']);
    expect(pendingFor(s, channel(10, 'court'))).toEqual([]);
    expect(pendingFor(s, channel(11))).toEqual([]);
    expect(pendingFor(s, [{ operator: 'dm', operand: '5-othello' }]).map((o) => o.localId)).toEqual(['b']);
    expect(pendingFor(s, [{ operator: 'search', operand: 'x' }])).toEqual([]);
    expect(pendingFor(s, [])).toBe(pendingFor(s, []));
  });
});

describe('resolved topics', () => {
  it('add and remove the prefix once', () => {
    expect(resolvedName('lunch')).toBe('✔ lunch');
    expect(resolvedName('✔ lunch')).toBe('✔ lunch');
    expect(unresolvedName('✔ lunch')).toBe('lunch');
  });
});

describe('permissions', () => {
  const now = 1_000_000;
  const mine = streamMessage({ sender_id: SELF, timestamp: now - 60 });

  it('groups: by id through subgroups, anonymous groups, full members by the waiting period', () => {
    const r = reg();
    expect(isInGroupSetting(r, 7)).toBe(true);
    expect(isInGroupSetting(r, 3)).toBe(false);
    expect(isInGroupSetting(r, { direct_members: [SELF], direct_subgroups: [] })).toBe(true);
    expect(isInGroupSetting(r, { direct_members: [], direct_subgroups: [3] })).toBe(false);
    expect(isInGroupSetting(r, 5)).toBe(true);
    const joined = Date.parse('2020-01-01T00:00:00Z') / 1000;
    const waiting = reg({ realm_waiting_period_threshold: 10 });
    expect(isFullMember(waiting, SELF, joined + 5 * 86400)).toBe(false);
    expect(isFullMember(waiting, SELF, joined + 11 * 86400)).toBe(true);
    expect(isFullMember(waiting, 6, joined + 11 * 86400)).toBe(false);
  });

  it('editing content: own messages within the limit, not widgets, not when editing is off', () => {
    const r = reg();
    expect(canEditContent(r, mine, now)).toBe(true);
    expect(canEditContent(r, { ...mine, timestamp: now - 700 }, now)).toBe(false);
    expect(canEditContent(r, { ...mine, sender_id: 5 }, now)).toBe(false);
    expect(canEditContent(r, { ...mine, submessages: [{ id: 1 }] } as never, now)).toBe(false);
    expect(canEditContent({ ...r, realm_allow_message_editing: false }, mine, now)).toBe(false);
    expect(canEditContent({ ...r, realm_message_content_edit_limit_seconds: null }, { ...mine, timestamp: 0 }, now)).toBe(true);
  });

  it('moving: by the realm\'s groups and time limits, moderators without limits', () => {
    const r = reg();
    const old = { ...mine, sender_id: 5, timestamp: now - 700_000 };
    expect(canEditTopic(r, mine, now)).toBe(true);
    expect(canEditTopic(r, old, now)).toBe(false);
    expect(canEditTopic({ ...r, role: 300, user_id: 3 }, old, now)).toBe(true);
    expect(canMoveToChannel(r, mine, now)).toBe(true);
    expect(canMoveToChannel({ ...r, realm_can_move_messages_between_channels_group: 4 }, mine, now)).toBe(false);
    expect(canEditTopic(r, dmMessage([5]), now)).toBe(false);
    expect(canResolveTopic({ ...r, realm_can_resolve_topics_group: 1 }, 10, now)).toBe(false);
  });

  it('deleting: any message by the group, one\'s own by the group and limit', () => {
    const r = reg({ realm_message_content_delete_limit_seconds: 600 });
    expect(canDelete(r, mine, now)).toBe(true);
    expect(canDelete(r, { ...mine, timestamp: now - 601 }, now)).toBe(false);
    expect(canDelete(r, { ...mine, sender_id: 5 }, now)).toBe(false);
    expect(canDelete({ ...r, user_id: 2, role: 200 }, { ...mine, sender_id: 5 }, now)).toBe(true);
    expect(canDelete({ ...r, realm_can_delete_own_message_group: { direct_members: [], direct_subgroups: [3] } }, mine, now)).toBe(false);
  });

  it('posting, direct messages and managing groups', () => {
    const r = reg({ realm_user_groups: [...SYSTEM_GROUPS, group(20, 'Capulets', [5], [], false)] });
    (r.realm_user_groups![7] as Record<string, unknown>).can_manage_group = { direct_members: [SELF], direct_subgroups: [] };
    expect(canPostInChannel(r, 10)).toBe(true);
    expect(canPostInChannel({ ...r, subscriptions: r.subscriptions.map((x) => ({ ...x, can_send_message_group: 3 })) }, 10)).toBe(false);
    expect(canSendDirect({ ...r, realm_direct_message_permission_group: 7 }, [5])).toBe(true);
    expect(canSendDirect({ ...r, realm_direct_message_permission_group: 3 }, [5])).toBe(false);
    expect(canSendDirect({ ...r, realm_direct_message_permission_group: 3 }, [2])).toBe(true);
    expect(canManageGroup(r, 20)).toBe(true);
    expect(canManageGroup(r, 7)).toBe(false);
  });
});
