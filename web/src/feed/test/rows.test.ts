import type { Message } from '@chat/client';
import type { OutboxItem } from '../../state/store';
import { buildRows, conversationKey, firstUnreadIndex, indexNear, indexOfMessage, type MessageRowData, type PendingRowData } from '../rows';

const day = (d: number, h = 12) => Math.floor(new Date(2026, 0, d, h).getTime() / 1000);

function msg(id: number, over: Partial<Message> = {}): Message {
  return {
    id, type: 'stream', stream_id: 1, subject: 'lunch', display_recipient: 'general', sender_id: 10, sender_full_name: 'Ada', sender_email: '', sender_realm_str: '',
    avatar_url: null, client: '', content: '<p>x</p>', content_type: 'text/html', is_me_message: false, reactions: [], recipient_id: 1, topic_links: [], submessages: [],
    timestamp: day(5), flags: ['read'], ...over,
  } as Message;
}

const m = (rows: ReturnType<typeof buildRows>) => rows as MessageRowData[];

describe('message rows', () => {
  it('groups a sender\'s consecutive messages in one conversation and day', () => {
    const rows = m(buildRows([msg(1), msg(2), msg(3, { sender_id: 11 }), msg(4, { sender_id: 11 })]));
    expect(rows.map((r) => [r.recipientBar, r.newDay, r.grouped])).toEqual([
      [true, true, false],
      [false, false, true],
      [false, false, false],
      [false, false, true],
    ]);
  });

  it('draws a recipient bar whenever the conversation changes, topics compared without case', () => {
    const rows = m(buildRows([msg(1), msg(2, { subject: 'LUNCH' }), msg(3, { subject: 'dinner' }), msg(4, { stream_id: 2 }), msg(5, { stream_id: 2 })]));
    expect(rows.map((r) => r.recipientBar)).toEqual([true, false, true, true, false]);
    expect(rows.map((r) => r.grouped)).toEqual([false, true, false, false, true]);
  });

  it('treats direct messages among the same people as one conversation', () => {
    const people = (ids: number[]) => ids.map((id) => ({ id, email: '', full_name: '', is_mirror_dummy: false }));
    const a = msg(1, { type: 'private', stream_id: undefined, display_recipient: people([10, 11]) });
    const b = msg(2, { type: 'private', stream_id: undefined, display_recipient: people([11, 10]) });
    const c = msg(3, { type: 'private', stream_id: undefined, display_recipient: people([10, 11, 12]) });
    expect(conversationKey(a)).toBe(conversationKey(b));
    expect(m(buildRows([a, b, c])).map((r) => r.recipientBar)).toEqual([true, false, true]);
  });

  it('puts a date separator at a new day and starts a new group there', () => {
    const rows = m(buildRows([msg(1, { timestamp: day(5, 23) }), msg(2, { timestamp: day(6, 1) })]));
    expect(rows[1]!.newDay).toBe(true);
    expect(rows[1]!.grouped).toBe(false);
    expect(rows[1]!.recipientBar).toBe(false);
  });

  it('never groups /me messages', () => {
    const rows = m(buildRows([msg(1), msg(2, { is_me_message: true })]));
    expect(rows[1]!.grouped).toBe(false);
  });

  it('finds messages, the first unread and the anchor of a near link', () => {
    const rows = buildRows([msg(10), msg(20, { flags: [] }), msg(30)]);
    expect(indexOfMessage(rows, 30)).toBe(2);
    expect(indexOfMessage(rows, 25)).toBe(-1);
    expect(firstUnreadIndex(rows)).toBe(1);
    expect(indexNear(rows, 25)).toBe(2);
    expect(indexNear(rows, 99)).toBe(-1);
  });

  it('builds 10,000 rows quickly', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => msg(i + 1, { sender_id: i % 3 }));
    const start = Date.now();
    const rows = buildRows(many);
    expect(rows).toHaveLength(10_000);
    expect(Date.now() - start).toBeLessThan(500);
  });
});

describe('pending rows', () => {
  const SELF = 10;
  const pendingTo = (localId: string, params: OutboxItem['params']): OutboxItem => ({ localId, queueId: null, params, timestamp: Date.now() / 1000 });

  it('are grouped under the person’s own last message in the same conversation', () => {
    const rows = buildRows([msg(1, { sender_id: SELF, subject: 'Greetings', timestamp: Date.now() / 1000 })], [pendingTo('a', { type: 'stream', to: 1, topic: 'greetings', content: 'x' })], SELF);
    const p = rows[1] as PendingRowData;
    expect(p.kind).toBe('pending');
    expect(p.grouped).toBe(true);
    expect(p.recipientBar).toBeNull();
  });

  it('get a sender line after someone else’s message, and a bar of their own in another conversation', () => {
    const pending = [
      pendingTo('a', { type: 'stream', to: 1, topic: 'greetings', content: 'x' }),
      pendingTo('b', { type: 'stream', to: 1, topic: 'GREETINGS', content: 'y' }),
      pendingTo('c', { type: 'direct', to: [11], content: 'z' }),
    ];
    const rows = buildRows([msg(1, { sender_id: 11, timestamp: Date.now() / 1000 })], pending, SELF).slice(1) as PendingRowData[];
    expect(rows.map((r) => r.grouped)).toEqual([false, true, false]);
    expect(rows.map((r) => r.recipientBar === null)).toEqual([false, true, false]);
    expect(rows[2]!.recipientBar).toMatchObject({ type: 'private' });
    expect(conversationKey(rows[2]!.recipientBar!)).toBe('d:10,11');
  });
});
