/**
 * The rows of a message list, computed from the narrow's messages: where a recipient bar goes
 * (whenever the conversation changes), where a date separator goes, and which messages are
 * grouped under the sender line of the one before. Pure, so the list re-derives it cheaply on
 * every store change and the tests can check it without a DOM.
 */
import type { Message } from '@chat/client';
import type { OutboxItem } from '../state/store';

export interface MessageRowData {
  kind: 'message';
  message: Message;
  /** The conversation differs from the message before: draw its recipient bar. */
  recipientBar: boolean;
  /** The day differs from the message before (or it is the first): draw a separator. */
  newDay: boolean;
  /** Same sender, conversation and day as the one before: no sender line of its own. */
  grouped: boolean;
}

export interface PendingRowData {
  kind: 'pending';
  item: OutboxItem;
  /** Its conversation as a recipient bar draws it, when it differs from the row before. */
  recipientBar: RecipientOf | null;
  /** Right after the person's own message (sent or pending) in the same conversation. */
  grouped: boolean;
}

/** What a recipient bar needs of a message: a sent one, or a pending one's conversation. */
export type RecipientOf = Pick<Message, 'type' | 'stream_id' | 'subject' | 'display_recipient' | 'match_subject'>;

/** A message still being sent, as a conversation (its DM people include the sender). */
export function pendingRecipient(item: OutboxItem, selfId: number): RecipientOf {
  const p = item.params;
  if (p.type === 'stream') return { type: 'stream', stream_id: p.to, subject: p.topic, display_recipient: '' };
  const ids = [...new Set([...p.to, selfId])].sort((a, b) => a - b);
  return { type: 'private', display_recipient: ids.map((id) => ({ id, full_name: '', email: '', is_mirror_dummy: false })) } as unknown as RecipientOf;
}

export type Row = MessageRowData | PendingRowData;

/** A key equal for messages of one conversation: a channel's topic (case-insensitive) or one set of people. */
export function conversationKey(m: Pick<Message, 'type' | 'stream_id' | 'subject' | 'display_recipient'>): string {
  if (m.type === 'stream') return `s:${m.stream_id}:${m.subject.toLowerCase()}`;
  const ids = Array.isArray(m.display_recipient) ? m.display_recipient.map((u) => u.id).sort((a, b) => a - b) : [];
  return `d:${ids.join(',')}`;
}

/** The local calendar day of a timestamp (seconds), as a comparable string. */
export function dayKey(ts: number): string {
  const d = new Date(ts * 1000);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

export function buildRows(messages: readonly Message[], pending: readonly OutboxItem[] = [], selfId = 0): Row[] {
  const rows: Row[] = new Array(messages.length);
  let prev: Message | undefined;
  let prevKey = '';
  let prevDay = '';
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const key = conversationKey(m);
    const day = dayKey(m.timestamp);
    const recipientBar = !prev || key !== prevKey;
    const newDay = !prev || day !== prevDay;
    const grouped = !recipientBar && !newDay && prev!.sender_id === m.sender_id && !m.is_me_message && !prev!.is_me_message;
    rows[i] = { kind: 'message', message: m, recipientBar, newDay, grouped };
    prev = m;
    prevKey = key;
    prevDay = day;
  }
  // Pending messages follow the sent ones; each is grouped under the person's own sender line
  // when it continues their conversation, and gets its own bar when it starts another.
  let prevOwn = !!prev && prev.sender_id === selfId && !prev.is_me_message && prevDay === dayKey(Date.now() / 1000);
  for (const item of pending) {
    const recipient = pendingRecipient(item, selfId);
    const key = conversationKey(recipient);
    const sameConversation = rows.length > 0 && key === prevKey;
    rows.push({ kind: 'pending', item, recipientBar: sameConversation ? null : recipient, grouped: sameConversation && prevOwn });
    prevKey = key;
    prevOwn = true;
  }
  return rows;
}

/** The stable key of a row for the virtualiser's measurement cache. */
export function rowKey(row: Row): string | number {
  return row.kind === 'message' ? row.message.id : `local-${row.item.localId}`;
}

/** The index of a message's row, or -1. Rows are sorted by id, so this is a binary search. */
export function indexOfMessage(rows: readonly Row[], id: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = rows[mid]!;
    if (r.kind !== 'message') {
      hi = mid - 1;
      continue;
    }
    if (r.message.id === id) return mid;
    if (r.message.id < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The first row holding an unread message, or -1. */
export function firstUnreadIndex(rows: readonly Row[]): number {
  return rows.findIndex((r) => r.kind === 'message' && !r.message.flags.includes('read'));
}

/** The row of `id`, or of the nearest message after it (the anchor of a `near` link), or -1. */
export function indexNear(rows: readonly Row[], id: number): number {
  const exact = indexOfMessage(rows, id);
  if (exact >= 0) return exact;
  return rows.findIndex((r) => r.kind === 'message' && r.message.id > id);
}

