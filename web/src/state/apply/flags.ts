/**
 * update_message_flags: any flag on the messages the store holds (read, starred, collapsed,
 * mentioned, ...), `all` (mark everything read), and the counts: `read` added removes unread
 * entries, `read` removed adds them back from the event's `message_details` (the store may not
 * hold those messages), `starred` keeps starred_messages.
 */
import type { Message } from '@chat/client';
import type { AppState } from '../store';
import { addUnread, clearUnread, removeUnread } from '../unread';
import type { EventHandler } from './index';
import { withMessages } from './messages';
import { refile } from './narrows';

/** The `is:` operand of the views each flag filters. */
const FLAG_OPERANDS: Record<string, string> = { starred: 'starred', read: 'unread', mentioned: 'mentioned', wildcard_mentioned: 'mentioned', has_alert_word: 'alerted' };

interface Details { type: string; stream_id?: number; topic?: string; user_ids?: number[]; mentioned?: boolean }

/** A message with just what the unread counts read, from message_details. */
export function pseudoMessage(id: number, d: Details, selfId: number): Message {
  const people = [...(d.user_ids ?? []), selfId].map((uid) => ({ id: uid, email: '', full_name: '', is_mirror_dummy: false }));
  return {
    id, type: d.type === 'stream' ? 'stream' : 'private', stream_id: d.stream_id, subject: d.topic ?? '', display_recipient: d.type === 'stream' ? '' : people,
    flags: d.mentioned ? ['mentioned'] : [], sender_id: 0, sender_full_name: '', sender_email: '', sender_realm_str: '', avatar_url: null, client: '', content: '',
    content_type: 'text/html', is_me_message: false, reactions: [], recipient_id: 0, topic_links: [], submessages: [], timestamp: 0,
  };
}

const onFlags: EventHandler = (s, e) => {
  const op: 'add' | 'remove' = e.op ?? e.operation;
  const flag: string = e.flag;
  const all = !!e.all;
  const ids: number[] = e.messages ?? [];
  let next: AppState = withMessages(s, (messages) => {
    const targets = all ? [...messages.keys()] : ids;
    for (const id of targets) {
      const m = messages.get(id);
      if (!m) continue;
      const has = m.flags.includes(flag);
      if (op === 'add' && !has) messages.set(id, { ...m, flags: [...m.flags, flag] });
      if (op === 'remove' && has) messages.set(id, { ...m, flags: m.flags.filter((f) => f !== flag) });
    }
  });
  // Views filtered by the flag (is:starred, is:mentioned, is:unread for messages marked unread)
  // gain or lose the messages; reading does not empty an is:unread view under the reader's eyes.
  const operand = FLAG_OPERANDS[flag];
  if (operand && !(flag === 'read' && op === 'add') && !all) {
    const known = ids.map((id) => next.messages.get(id)).filter((m): m is Message => !!m);
    const unknown = ids.filter((id) => !next.messages.has(id));
    next = { ...next, narrows: refile(next, known, unknown, (terms) => terms.some((t) => t.operator === 'is' && t.operand === operand)) };
  }
  const reg = next.reg;
  if (!reg) return next;
  if (flag === 'read') {
    if (op === 'add') {
      next = { ...next, reg: { ...reg, unread_msgs: all ? clearUnread(reg.unread_msgs) : removeUnread(reg.unread_msgs, ids) } };
    } else {
      let unread = reg.unread_msgs;
      const details = (e.message_details ?? {}) as Record<string, Details>;
      for (const id of [...ids].sort((a, b) => a - b)) {
        const d = details[String(id)];
        const known = next.messages.get(id);
        // The event's details win: the store's copy may predate a move.
        const m = d ? pseudoMessage(id, d, reg.user_id) : known && { ...known, flags: known.flags.filter((f) => f !== 'read') };
        if (m) unread = addUnread(unread, m, reg.user_id);
      }
      next = { ...next, reg: { ...reg, unread_msgs: unread } };
    }
  }
  if (flag === 'starred') {
    const starred = new Set(reg.starred_messages ?? []);
    for (const id of ids) {
      if (op === 'add') starred.add(id);
      else starred.delete(id);
    }
    next = { ...next, reg: { ...next.reg!, starred_messages: [...starred].sort((a, b) => a - b) } };
  }
  return next;
};

export const flagHandlers: Record<string, EventHandler> = {
  update_message_flags: onFlags,
};
