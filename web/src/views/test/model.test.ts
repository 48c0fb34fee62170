import type { Subscription } from '@chat/client';
import { POLICY } from '../../sidebar/model';
import { buildInbox, buildRecent, DEFAULT_FILTERS, filterRecent } from '../model';

function sub(id: number, name: string, extra: Partial<Subscription> = {}): Subscription {
  return { stream_id: id, name, description: '', color: '#000', invite_only: false, is_muted: false, pin_to_top: false, desktop_notifications: null, audible_notifications: null, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null, ...extra };
}

const reg = {
  user_id: 1,
  subscriptions: [sub(10, 'general'), sub(11, 'quiet', { is_muted: true }), sub(12, 'design')],
  user_topics: [{ stream_id: 10, topic_name: 'noise', visibility_policy: POLICY.muted, last_updated: 0 }],
  unread_msgs: {
    count: 7,
    streams: [
      { stream_id: 10, topic: 'lunch', unread_message_ids: [5, 9] },
      { stream_id: 10, topic: 'noise', unread_message_ids: [6] },
      { stream_id: 10, topic: 'plans', unread_message_ids: [12] },
      { stream_id: 11, topic: 'hidden', unread_message_ids: [7] },
    ],
    pms: [{ other_user_id: 5, unread_message_ids: [30] }],
    huddles: [],
    mentions: [9],
    old_unreads_missing: false,
  },
  recent_private_conversations: [{ user_ids: [5], max_message_id: 30 }],
};
const names: Record<number, string> = { 1: 'Me', 5: 'Iago', 7: 'Cordelia' };
const nameOf = (id: number) => names[id] ?? '?';

describe('buildInbox', () => {
  it('groups unread conversations, DMs first, muted ones left out', () => {
    const inbox = buildInbox(reg as any, nameOf, [12, 10, 11]);
    expect(inbox.dms).toEqual([{ key: '5', userIds: [5], count: 1, ids: [30], latest: 30, label: 'Iago' }]);
    expect(inbox.channels.map((c) => [c.sub.name, c.count, c.mentions, c.topics.map((t) => t.topic)])).toEqual([['general', 3, 1, ['plans', 'lunch']]]);
  });
  it('filters by channel, topic or person', () => {
    expect(buildInbox(reg as any, nameOf, [10], 'lun').channels[0]!.topics.map((t) => t.topic)).toEqual(['lunch']);
    expect(buildInbox(reg as any, nameOf, [10], 'gen').channels[0]!.topics).toHaveLength(2);
    expect(buildInbox(reg as any, nameOf, [10], 'iago').dms).toHaveLength(1);
    expect(buildInbox(reg as any, nameOf, [10], 'iago').channels).toHaveLength(0);
  });
});

const msg = (id: number, extra: Record<string, unknown>) => ({ id, timestamp: id * 10, flags: [], reactions: [], content: '', subject: '', ...extra }) as any;

describe('buildRecent', () => {
  const messages = [
    msg(3, { type: 'stream', stream_id: 10, subject: 'Lunch', sender_id: 7 }),
    msg(4, { type: 'stream', stream_id: 10, subject: 'lunch', sender_id: 1 }),
    msg(8, { type: 'stream', stream_id: 10, subject: 'lunch', sender_id: 5 }),
    msg(20, { type: 'private', sender_id: 5, display_recipient: [{ id: 1 }, { id: 5 }] }),
    msg(21, { type: 'stream', stream_id: 99, subject: 'not subscribed', sender_id: 5 }),
    msg(22, { type: 'stream', stream_id: 11, subject: 'hidden', sender_id: 5 }),
  ];
  const list = buildRecent(reg as any, messages);
  it('lists conversations newest first with participants and unread counts', () => {
    expect(list.map((c) => c.key)).toEqual(['dm:5', 'stream:11:hidden', 'stream:10:plans', 'stream:10:lunch', 'stream:10:noise']);
    const lunch = list.find((c) => c.key === 'stream:10:lunch')!;
    expect(lunch).toMatchObject({ topic: 'lunch', unread: 2, maxId: 9, participants: [5, 1, 7], participated: true, muted: false });
    expect(list.find((c) => c.key === 'stream:11:hidden')).toMatchObject({ muted: true, unread: 1 });
    expect(list.find((c) => c.key === 'dm:5')).toMatchObject({ unread: 1, userIds: [5], timestamp: 200 });
  });
  it('filters', () => {
    const describe = (c: any) => `${c.topic ?? ''}`;
    expect(filterRecent(list, DEFAULT_FILTERS, describe).map((c) => c.key)).toEqual(['dm:5', 'stream:10:plans', 'stream:10:lunch']);
    expect(filterRecent(list, { ...DEFAULT_FILTERS, includeMuted: true }, describe)).toHaveLength(5);
    expect(filterRecent(list, { ...DEFAULT_FILTERS, participated: true }, describe).map((c) => c.key)).toEqual(['stream:10:lunch']);
    expect(filterRecent(list, { ...DEFAULT_FILTERS, kind: 'dms' }, describe).map((c) => c.key)).toEqual(['dm:5']);
    expect(filterRecent(list, { ...DEFAULT_FILTERS, text: 'pla' }, describe).map((c) => c.key)).toEqual(['stream:10:plans']);
    expect(filterRecent(list, { ...DEFAULT_FILTERS, unread: true, kind: 'channels' }, describe).map((c) => c.key)).toEqual(['stream:10:plans', 'stream:10:lunch']);
  });
});
