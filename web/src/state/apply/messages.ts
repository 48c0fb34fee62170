/** Events about messages: new ones (with the local echo they acknowledge), flags, reactions, deletions, edits and moves. */
import type { Message } from '@chat/client';
import type { AppState, NarrowMessages } from '../store';
import { matchesNarrow } from '../match';
import { addUnread, removeUnread } from '../unread';
import type { EventHandler } from './index';
import type { NarrowTerm } from '../../narrow/hash';

function withMessages(s: AppState, update: (m: Map<number, Message>) => void): AppState {
  const messages = new Map(s.messages);
  update(messages);
  return { ...s, messages };
}

function insertSorted(ids: number[], id: number): number[] {
  if (ids.includes(id)) return ids;
  if (!ids.length || ids[ids.length - 1]! < id) return [...ids, id];
  const next = [...ids, id];
  next.sort((a, b) => a - b);
  return next;
}

const onMessage: EventHandler = (s, e) => {
  const message: Message = { ...e.message, flags: e.flags ?? [] };
  const selfId = s.reg?.user_id ?? 0;
  const messages = new Map(s.messages);
  messages.set(message.id, message);
  const narrows: Record<string, NarrowMessages> = {};
  for (const [key, n] of Object.entries(s.narrows)) {
    const terms = JSON.parse(key) as Array<[string, string]>;
    const match = matchesNarrow(message, terms.map(([op, operand]) => termOf(op, operand)), selfId);
    // A view the message may belong to but that the app cannot judge is refetched when shown.
    narrows[key] = match === undefined ? { ...n, foundNewest: false } : match && n.foundNewest ? { ...n, ids: insertSorted(n.ids, message.id) } : n;
  }
  const outbox = e.local_message_id ? s.outbox.filter((o) => o.localId !== e.local_message_id) : s.outbox.filter((o) => o.messageId !== message.id);
  const reg = s.reg && { ...s.reg, unread_msgs: addUnread(s.reg.unread_msgs, message, selfId), max_message_id: Math.max(s.reg.max_message_id ?? 0, message.id) };
  return { ...s, reg, messages, narrows, outbox };
};

function termOf(op: string, operand: string): NarrowTerm {
  return op.startsWith('-') ? { operator: op.slice(1), operand, negated: true } : { operator: op, operand };
}

const onFlags: EventHandler = (s, e) => {
  const op: 'add' | 'remove' = e.op;
  const flag: string = e.flag;
  const all: boolean = !!e.all;
  const ids: number[] = e.messages ?? [];
  let next = withMessages(s, (messages) => {
    const targets = all ? [...messages.keys()] : ids;
    for (const id of targets) {
      const m = messages.get(id);
      if (!m) continue;
      const has = m.flags.includes(flag);
      if (op === 'add' && !has) messages.set(id, { ...m, flags: [...m.flags, flag] });
      if (op === 'remove' && has) messages.set(id, { ...m, flags: m.flags.filter((f) => f !== flag) });
    }
  });
  if (flag === 'read' && next.reg) {
    if (op === 'add') {
      const unread = all ? { ...next.reg.unread_msgs, count: 0, streams: [], pms: [], huddles: [], mentions: [] } : removeUnread(next.reg.unread_msgs, ids);
      next = { ...next, reg: { ...next.reg, unread_msgs: unread } };
    } else {
      // Marked unread: the event carries each message's details for the counts.
      let unread = next.reg.unread_msgs;
      const details = (e.message_details ?? {}) as Record<string, { type: string; stream_id?: number; topic?: string; user_ids?: number[]; mentioned?: boolean }>;
      for (const id of ids) {
        const d = details[String(id)];
        const known = next.messages.get(id);
        const m: Message | undefined = known ?? (d ? pseudoMessage(id, d, next.reg.user_id) : undefined);
        if (m) unread = addUnread(unread, { ...m, flags: m.flags.filter((f) => f !== 'read') }, next.reg.user_id);
      }
      next = { ...next, reg: { ...next.reg, unread_msgs: unread } };
    }
  }
  if (flag === 'starred' && next.reg) {
    const starred = new Set(next.reg.starred_messages ?? []);
    for (const id of ids) {
      if (op === 'add') starred.add(id);
      else starred.delete(id);
    }
    next = { ...next, reg: { ...next.reg, starred_messages: [...starred] } };
  }
  return next;
};

function pseudoMessage(id: number, d: { type: string; stream_id?: number; topic?: string; user_ids?: number[]; mentioned?: boolean }, selfId: number): Message {
  const people = [...(d.user_ids ?? []), selfId].map((uid) => ({ id: uid, email: '', full_name: '', is_mirror_dummy: false }));
  return {
    id, type: d.type === 'stream' ? 'stream' : 'private', stream_id: d.stream_id, subject: d.topic ?? '', display_recipient: d.type === 'stream' ? '' : people,
    flags: d.mentioned ? ['mentioned'] : [], sender_id: 0, sender_full_name: '', sender_email: '', sender_realm_str: '', avatar_url: null, client: '', content: '',
    content_type: 'text/html', is_me_message: false, reactions: [], recipient_id: 0, topic_links: [], submessages: [], timestamp: 0,
  };
}

const onReaction: EventHandler = (s, e) =>
  withMessages(s, (messages) => {
    const m = messages.get(e.message_id);
    if (!m) return;
    const same = (r: { emoji_code: string; reaction_type: string; user_id: number }) => r.emoji_code === e.emoji_code && r.reaction_type === e.reaction_type && r.user_id === e.user_id;
    const reactions = e.op === 'add'
      ? m.reactions.some(same) ? m.reactions : [...m.reactions, { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type, user_id: e.user_id, user: e.user ?? { id: e.user_id, email: '', full_name: '', is_mirror_dummy: false } }]
      : m.reactions.filter((r) => !same(r));
    messages.set(m.id, { ...m, reactions });
  });

const onDelete: EventHandler = (s, e) => {
  const ids: number[] = e.message_ids ?? (e.message_id !== undefined ? [e.message_id] : []);
  const gone = new Set(ids);
  const next = withMessages(s, (messages) => ids.forEach((id) => messages.delete(id)));
  const narrows: Record<string, NarrowMessages> = {};
  for (const [k, n] of Object.entries(next.narrows)) narrows[k] = n.ids.some((id) => gone.has(id)) ? { ...n, ids: n.ids.filter((id) => !gone.has(id)) } : n;
  return { ...next, narrows, reg: next.reg && { ...next.reg, unread_msgs: removeUnread(next.reg.unread_msgs, ids), starred_messages: (next.reg.starred_messages ?? []).filter((id) => !gone.has(id)) } };
};

const onUpdateMessage: EventHandler = (s, e) => {
  const ids: number[] = e.message_ids ?? [e.message_id];
  const moved = e.new_stream_id !== undefined || e.subject !== undefined || e.topic !== undefined;
  const newTopic: string | undefined = e.subject ?? e.topic;
  let next = withMessages(s, (messages) => {
    for (const id of ids) {
      const m = messages.get(id);
      if (!m) continue;
      const upd: Message = { ...m };
      if (id === e.message_id && e.rendered_content !== undefined) {
        upd.content = e.rendered_content;
        if (!e.is_me_message === false) upd.is_me_message = true;
        upd.last_edit_timestamp = e.edit_timestamp;
      }
      if (newTopic !== undefined) upd.subject = newTopic;
      if (e.new_stream_id !== undefined) {
        upd.stream_id = e.new_stream_id;
        const sub = s.reg?.subscriptions.find((x) => x.stream_id === e.new_stream_id) ?? s.reg?.streams?.find((x) => x.stream_id === e.new_stream_id);
        if (sub) upd.display_recipient = sub.name;
      }
      if (moved && !e.rendering_only) upd.last_moved_timestamp = e.edit_timestamp;
      if (e.topic_links !== undefined && id === e.message_id) upd.topic_links = e.topic_links;
      messages.set(id, upd);
    }
  });
  if (moved && next.reg) {
    // Re-file the moved messages' unread entries under their new channel and topic.
    const unreadIds = new Set(ids.filter((id) => next.reg!.unread_msgs.streams.some((x) => x.unread_message_ids.includes(id))));
    let unread = removeUnread(next.reg.unread_msgs, unreadIds);
    for (const id of unreadIds) {
      const old = s.reg!.unread_msgs.streams.find((x) => x.unread_message_ids.includes(id))!;
      const m = next.messages.get(id);
      const base: Message = m ?? pseudoMessage(id, { type: 'stream', stream_id: old.stream_id, topic: old.topic }, next.reg.user_id);
      unread = addUnread(unread, { ...base, stream_id: e.new_stream_id ?? old.stream_id, subject: newTopic ?? old.topic, flags: base.flags.filter((f) => f !== 'read') }, next.reg.user_id);
    }
    next = { ...next, reg: { ...next.reg, unread_msgs: unread } };
    // Views are filed by channel and topic: a moved message may leave or join any of them.
    const narrows: Record<string, NarrowMessages> = {};
    for (const [k, n] of Object.entries(next.narrows)) narrows[k] = k.includes('"topic"') || k.includes('"channel"') ? { ...n, foundNewest: false, foundOldest: false, ids: n.ids.filter((id) => !ids.includes(id)) } : n;
    next = { ...next, narrows };
  }
  return next;
};

export const messageHandlers: Record<string, EventHandler> = {
  message: onMessage,
  update_message_flags: onFlags,
  reaction: onReaction,
  delete_message: onDelete,
  update_message: onUpdateMessage,
};
