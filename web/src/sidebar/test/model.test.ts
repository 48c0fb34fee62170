import type { Subscription } from '@chat/client';
import { channelSections, dmConversations, nextUnreadDm, nextUnreadTopic, POLICY, unreadByChannel, viewCounts } from '../model';

function sub(id: number, name: string, extra: Partial<Subscription> = {}): Subscription {
  return { stream_id: id, name, description: '', color: '#000', invite_only: false, is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null, ...extra };
}

const reg = {
  user_id: 1,
  subscriptions: [sub(10, 'general'), sub(11, 'muted one', { is_muted: true }), sub(12, 'Apples', { pin_to_top: true }), sub(13, 'zeta', { folder_id: 1 })],
  user_topics: [
    { stream_id: 10, topic_name: 'Noise', visibility_policy: POLICY.muted, last_updated: 0 },
    { stream_id: 11, topic_name: 'kept', visibility_policy: POLICY.unmuted, last_updated: 0 },
    { stream_id: 10, topic_name: 'watch', visibility_policy: POLICY.followed, last_updated: 0 },
  ],
  unread_msgs: {
    count: 12,
    streams: [
      { stream_id: 10, topic: 'lunch', unread_message_ids: [5, 9] },
      { stream_id: 10, topic: 'noise', unread_message_ids: [6] },
      { stream_id: 10, topic: 'watch', unread_message_ids: [20] },
      { stream_id: 11, topic: 'hidden', unread_message_ids: [7] },
      { stream_id: 11, topic: 'kept', unread_message_ids: [8] },
      { stream_id: 12, topic: 'x', unread_message_ids: [3] },
    ],
    pms: [{ other_user_id: 5, unread_message_ids: [30, 31] }],
    huddles: [{ user_ids_string: '1,5,7', unread_message_ids: [25] }],
    mentions: [9, 7],
    old_unreads_missing: false,
  },
  recent_private_conversations: [
    { user_ids: [5], max_message_id: 31 },
    { user_ids: [8], max_message_id: 40 },
    { user_ids: [], max_message_id: 2 },
  ],
  starred_messages: [1, 2],
  drafts: [],
  scheduled_messages: [{ scheduled_message_id: 1, failed: false }, { scheduled_message_id: 2, failed: true }] as any,
};

describe('unread counts', () => {
  it('leave muted topics and muted channels out, except unmuted and followed topics', () => {
    const u = unreadByChannel(reg as any);
    expect(u.get(10)).toMatchObject({ count: 3, mutedCount: 1, mentions: 1 });
    expect(u.get(10)!.topics.find((t) => t.topic === 'noise')).toMatchObject({ muted: true });
    expect(u.get(10)!.topics.find((t) => t.topic === 'watch')).toMatchObject({ followed: true, muted: false });
    expect(u.get(11)).toMatchObject({ count: 1, mutedCount: 1, mentions: 1 });
  });
  it('counts the views', () => {
    expect(viewCounts(reg as any)).toEqual({ unread: 5 + 3, mentions: 2, starred: 2, drafts: 0, scheduled: 1, dms: 3 });
  });
});

describe('channel sections', () => {
  it('puts pinned first, folders next, the rest last, muted channels at the end of each', () => {
    const folders = [{ id: 1, name: 'Projects' }];
    const s = channelSections(reg.subscriptions, folders);
    expect(s.map((x) => [x.title, x.folderName, x.channels.map((c) => c.name)])).toEqual([
      ['pinned', undefined, ['Apples']],
      ['folder', 'Projects', ['zeta']],
      ['other', undefined, ['general', 'muted one']],
    ]);
    expect(channelSections(reg.subscriptions, undefined, 'e').map((x) => x.channels.map((c) => c.name))).toEqual([['Apples'], ['general', 'zeta', 'muted one']]);
  });
});

describe('direct-message conversations', () => {
  it('lists recent and unread ones, newest first, without muted people', () => {
    const c = dmConversations(reg as any);
    expect(c.map((x) => [x.key, x.unread])).toEqual([['8', 0], ['5', 2], ['5,7', 1], ['', 0]]);
    expect(dmConversations(reg as any, new Set([8])).map((x) => x.key)).toEqual(['5', '5,7', '']);
  });
});

describe('next unread', () => {
  const order = [12, 10, 11];
  it('goes through topics in sidebar order, skipping muted ones, wrapping round', () => {
    expect(nextUnreadTopic(reg as any, order)).toEqual({ streamId: 12, topic: 'x' });
    expect(nextUnreadTopic(reg as any, order, { streamId: 12, topic: 'x' })).toEqual({ streamId: 10, topic: 'lunch' });
    expect(nextUnreadTopic(reg as any, order, { streamId: 10, topic: 'lunch' })).toEqual({ streamId: 10, topic: 'watch' });
    expect(nextUnreadTopic(reg as any, order, { streamId: 10, topic: 'watch' })).toEqual({ streamId: 11, topic: 'kept' });
    expect(nextUnreadTopic(reg as any, order, { streamId: 11, topic: 'kept' })).toEqual({ streamId: 12, topic: 'x' });
    expect(nextUnreadTopic(reg as any, order, { streamId: 10 })).toEqual({ streamId: 10, topic: 'lunch' });
  });
  it('goes through direct messages, oldest unread first', () => {
    expect(nextUnreadDm(reg as any)?.key).toBe('5,7');
    expect(nextUnreadDm(reg as any, '5,7')?.key).toBe('5');
  });
});
