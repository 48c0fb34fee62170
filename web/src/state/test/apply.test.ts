/**
 * Event handlers on shapes the recorded fixtures do not hold (legacy forms, typing expiry,
 * realm deactivation, local echo) or hold only once.
 */
import type { ClientEvent } from '@chat/client';
import { applyEvents } from '../apply';
import type { AppState, OutboxItem } from '../store';
import { pruneTyping, TYPING_EXPIRY_MS, typingUserIds } from '../typing';
import { dmMessage, SELF, state, streamMessage } from './helpers';

const ev = (e: Record<string, unknown>): ClientEvent => ({ id: 1, ...e }) as unknown as ClientEvent;
const apply = (s: AppState, ...events: Array<Record<string, unknown>>) => applyEvents(s, events.map(ev));

function withOutbox(s: AppState, item: Partial<OutboxItem>): AppState {
  const o: OutboxItem = { localId: '1.1', queueId: 'q', params: { type: 'stream', to: 10, topic: 'balcony', content: 'x' }, timestamp: 1, ...item };
  return { ...s, outbox: [...s.outbox, o] };
}

describe('messages and local echo', () => {
  it('a message event acknowledges the pending copy by local id, or by the id the send answered', () => {
    let s = withOutbox(withOutbox(state(), { localId: 'a' }), { localId: 'b', messageId: 501 });
    s = apply(s, { type: 'message', message: streamMessage({ id: 500, sender_id: SELF }), flags: ['read'], local_message_id: 'a' });
    expect(s.outbox.map((o) => o.localId)).toEqual(['b']);
    s = apply(s, { type: 'message', message: streamMessage({ id: 501, sender_id: SELF }), flags: ['read'] });
    expect(s.outbox).toEqual([]);
  });

  it('counts a new unread message, except muted ones in the total', () => {
    let s = apply(state(), { type: 'message', message: streamMessage({ id: 600 }), flags: [] });
    expect(s.reg!.unread_msgs.count).toBe(1);
    s = apply(s, { type: 'message', message: streamMessage({ id: 601, stream_id: 11, display_recipient: 'Mantua' }), flags: [] });
    expect(s.reg!.unread_msgs.count).toBe(1);
    expect(s.reg!.unread_msgs.streams.map((e) => e.stream_id)).toEqual([10, 11]);
    // Unmuting the channel counts its messages.
    s = apply(s, { type: 'subscription', op: 'update', stream_id: 11, property: 'is_muted', value: false });
    expect(s.reg!.unread_msgs.count).toBe(2);
  });

  it('keeps recent direct conversations newest first', () => {
    let s = apply(state(), { type: 'message', message: dmMessage([5], { id: 700 }), flags: [] });
    s = apply(s, { type: 'message', message: dmMessage([5, 6], { id: 701 }), flags: [] });
    expect(s.reg!.recent_private_conversations).toEqual([{ max_message_id: 701, user_ids: [5, 6] }, { max_message_id: 700, user_ids: [5] }]);
    expect(s.reg!.unread_msgs.huddles).toEqual([{ user_ids_string: `${SELF},5,6`, unread_message_ids: [701] }]);
  });

  it('deletes one message by the legacy message_id', () => {
    let s = apply(state(), { type: 'message', message: streamMessage({ id: 800 }), flags: [] });
    s = apply(s, { type: 'delete_message', message_id: 800, message_type: 'stream' });
    expect(s.messages.has(800)).toBe(false);
    expect(s.reg!.unread_msgs.count).toBe(0);
  });
});

describe('flags', () => {
  it('`all` marks every message read and empties the counts', () => {
    let s = apply(state(), { type: 'message', message: streamMessage({ id: 900 }), flags: [] }, { type: 'message', message: dmMessage([5], { id: 901 }), flags: ['mentioned'] });
    s = apply(s, { type: 'update_message_flags', op: 'add', flag: 'read', messages: [], all: true });
    expect(s.reg!.unread_msgs).toMatchObject({ count: 0, streams: [], pms: [], huddles: [], mentions: [] });
    expect(s.messages.get(901)!.flags).toContain('read');
  });

  it('collapsed and other flags change the message only', () => {
    let s = apply(state(), { type: 'message', message: streamMessage({ id: 910 }), flags: ['read'] });
    s = apply(s, { type: 'update_message_flags', op: 'add', flag: 'collapsed', messages: [910], all: false });
    expect(s.messages.get(910)!.flags).toEqual(['read', 'collapsed']);
  });

  it('a DM marked unread comes back from message_details with its mention', () => {
    const s = apply(state(), { type: 'update_message_flags', op: 'remove', flag: 'read', messages: [920], all: false, message_details: { 920: { type: 'private', user_ids: [5], mentioned: true } } });
    expect(s.reg!.unread_msgs.pms).toEqual([{ other_user_id: 5, sender_id: 5, unread_message_ids: [920] }]);
    expect(s.reg!.unread_msgs.mentions).toEqual([920]);
  });
});

describe('moves', () => {
  it('a resolved topic keeps its unread messages, under the new name', () => {
    let s = apply(state(), { type: 'message', message: streamMessage({ id: 1000, subject: 'lunch' }), flags: [] });
    s = apply(s, { type: 'update_message', message_id: 1000, message_ids: [1000], stream_id: 10, orig_subject: 'lunch', subject: '✔ lunch', propagate_mode: 'change_all', edit_timestamp: 5, rendering_only: false, flags: [] });
    expect(s.reg!.unread_msgs.streams).toEqual([{ stream_id: 10, topic: '✔ lunch', unread_message_ids: [1000] }]);
    expect(s.messages.get(1000)!.subject).toBe('✔ lunch');
    expect(s.lastMove).toMatchObject({ streamId: 10, topic: 'lunch', newStreamId: 10, newTopic: '✔ lunch', propagateMode: 'change_all' });
  });

  it('a content edit sets the last edit time, a rendering-only one does not', () => {
    let s = apply(state(), { type: 'message', message: streamMessage({ id: 1010 }), flags: [] });
    s = apply(s, { type: 'update_message', message_id: 1010, message_ids: [1010], rendered_content: '<p>new</p>', rendering_only: true, edit_timestamp: 9 });
    expect(s.messages.get(1010)).toMatchObject({ content: '<p>new</p>' });
    expect(s.messages.get(1010)!.last_edit_timestamp).toBeUndefined();
    s = apply(s, { type: 'update_message', message_id: 1010, message_ids: [1010], rendered_content: '<p>newer</p>', rendering_only: false, edit_timestamp: 10 });
    expect(s.messages.get(1010)!.last_edit_timestamp).toBe(10);
  });
});

describe('typing', () => {
  it('start and stop in a channel topic and a DM; one\'s own typing and expired entries ignored', () => {
    let s = apply(state(), { type: 'typing', op: 'start', message_type: 'stream', stream_id: 10, topic: 'Balcony', sender: { user_id: 5, email: '' } });
    s = apply(s, { type: 'typing', op: 'start', message_type: 'direct', sender: { user_id: 5, email: '' }, recipients: [{ user_id: 5 }, { user_id: SELF }] });
    s = apply(s, { type: 'typing', op: 'start', message_type: 'direct', sender: { user_id: SELF, email: '' }, recipients: [{ user_id: 5 }, { user_id: SELF }] });
    const now = Date.now();
    expect(typingUserIds(s.typing, 'stream:10:balcony', now)).toEqual([5]);
    expect(typingUserIds(s.typing, `dm:${SELF},5`, now)).toEqual([5]);
    s = apply(s, { type: 'typing', op: 'stop', message_type: 'direct', sender: { user_id: 5, email: '' }, recipients: [{ user_id: 5 }, { user_id: SELF }] });
    expect(typingUserIds(s.typing, `dm:${SELF},5`, now)).toEqual([]);
    expect(pruneTyping(s.typing, now + TYPING_EXPIRY_MS + 1)).toEqual([]);
  });
});

describe('presence and status', () => {
  it('the legacy per-client form becomes the slim one', () => {
    let s = apply(state(), { type: 'presence', user_id: 5, email: 'b@x', server_timestamp: 200, presence: { website: { client: 'website', status: 'active', timestamp: 150, pushable: false } } });
    s = apply(s, { type: 'presence', user_id: 5, email: 'b@x', server_timestamp: 300, presence: { ZulipMobile: { client: 'ZulipMobile', status: 'idle', timestamp: 290, pushable: false } } });
    expect(s.reg!.presences).toEqual({ 5: { active_timestamp: 150, idle_timestamp: 290 } });
  });

  it('a status cleared with empty strings goes', () => {
    let s = apply(state(), { type: 'user_status', user_id: 5, status_text: 'away', emoji_name: 'ghost', emoji_code: '1f47b', reaction_type: 'unicode_emoji' });
    s = apply(s, { type: 'user_status', user_id: 5, status_text: '', emoji_name: '', emoji_code: '', reaction_type: '' });
    expect(s.reg!.user_status).toEqual({});
  });
});

describe('the organization and settings', () => {
  it('legacy settings events update user_settings', () => {
    const s = apply(state(), { type: 'update_display_settings', user: 'x', setting_name: 'twenty_four_hour_time', setting: true }, { type: 'update_global_notifications', user: 'x', notification_name: 'enable_sounds', setting: false });
    expect(s.reg!.user_settings).toEqual({ twenty_four_hour_time: true, enable_sounds: false });
  });

  it('authentication methods update their derived flags', () => {
    const s = apply(state(), { type: 'realm', op: 'update_dict', property: 'default', data: { authentication_methods: { Email: { enabled: false }, LDAP: { enabled: true } } } });
    expect(s.reg).toMatchObject({ realm_email_auth_enabled: false, realm_password_auth_enabled: true });
  });

  it('a deactivated realm makes the state fatal', () => {
    expect(apply(state(), { type: 'realm', op: 'deactivated', realm_id: 1 })).toMatchObject({ status: 'fatal', statusMessage: 'realm_deactivated' });
  });

  it('invites_changed bumps a counter', () => {
    expect(apply(state(), { type: 'invites_changed' }, { type: 'invites_changed' }).invitesVersion).toBe(2);
  });

  it('a deleted channel leaves every list and the announcement setting', () => {
    const s = apply(state({ realm_new_stream_announcements_stream_id: 10, realm_default_streams: [10, 11] } as never), { type: 'stream', op: 'delete', streams: [{ stream_id: 10 }], stream_ids: [10] });
    expect(s.reg!.subscriptions.map((x) => x.stream_id)).toEqual([11]);
    expect(s.reg).toMatchObject({ realm_new_stream_announcements_stream_id: -1, realm_default_streams: [11] });
  });
});

describe('message lists', () => {
  const key = (terms: Array<[string, string]>) => JSON.stringify(terms);
  const list = (ids: number[], complete = true) => ({ ids, foundOldest: complete, foundNewest: complete, loading: false });

  it('a new message joins the lists it matches that reach the newest; other views it cannot judge refetch, search views stay', () => {
    let s: AppState = {
      ...state(),
      narrows: {
        [key([['channel', '10']])]: list([1]),
        [key([['channel', '11']])]: list([2]),
        [key([['channel', '12']])]: list([], false),
        [key([['has', 'link']])]: list([]),
        [key([['search', 'x']])]: list([]),
      },
    };
    s = apply(s, { type: 'message', message: streamMessage({ id: 1200 }), flags: [] });
    expect(s.narrows[key([['channel', '10']])]!.ids).toEqual([1, 1200]);
    expect(s.narrows[key([['channel', '11']])]!.ids).toEqual([2]);
    expect(s.narrows[key([['has', 'link']])]!.stale).toBe(true);
    expect(s.narrows[key([['search', 'x']])]!.stale).toBeUndefined();
  });

  it('starring adds to is:starred; reading leaves is:unread as it is until refetched', () => {
    let s: AppState = { ...state(), narrows: { [key([['is', 'starred']])]: list([]), [key([['is', 'unread']])]: list([]) } };
    s = apply(s, { type: 'message', message: streamMessage({ id: 1300 }), flags: [] });
    expect(s.narrows[key([['is', 'unread']])]!.ids).toEqual([1300]);
    s = apply(s, { type: 'update_message_flags', op: 'add', flag: 'starred', messages: [1300], all: false });
    s = apply(s, { type: 'update_message_flags', op: 'add', flag: 'read', messages: [1300], all: false });
    expect(s.narrows[key([['is', 'starred']])]!.ids).toEqual([1300]);
    expect(s.narrows[key([['is', 'unread']])]!.ids).toEqual([1300]);
  });
});
