/**
 * Events about messages: new ones (with the local echo they acknowledge), reactions,
 * submessages (poll and todo widgets) and deletions. Edits and moves are in ./moves.ts, flags
 * in ./flags.ts.
 */
import type { Message, RegisterState } from '@chat/client';
import type { AppState } from '../store';
import { dmPeople } from '../match';
import { noteTopic, sameTopic, setTopicMax } from '../topics';
import { addUnread, removeUnread } from '../unread';
import { noteChannelMessage } from './channels';
import type { EventHandler } from './index';
import { dropFromNarrows, refile } from './narrows';

export function withMessages(s: AppState, update: (m: Map<number, Message>) => void): AppState {
  const messages = new Map(s.messages);
  update(messages);
  return { ...s, messages };
}

/** The register's recent_private_conversations after a direct message: newest first. */
function noteConversation(reg: RegisterState, m: Message): RegisterState['recent_private_conversations'] {
  const list = reg.recent_private_conversations ?? [];
  const others = [...new Set(dmPeople(m))].filter((id) => id !== reg.user_id).sort((a, b) => a - b);
  const key = others.join(',');
  const old = list.find((c) => [...c.user_ids].sort((a, b) => a - b).join(',') === key);
  if (old && old.max_message_id >= m.id) return list;
  const rest = list.filter((c) => c !== old);
  return [{ max_message_id: m.id, user_ids: others }, ...rest].sort((a, b) => b.max_message_id - a.max_message_id);
}

const onMessage: EventHandler = (s, e) => {
  const message: Message = { ...e.message, flags: e.flags ?? [] };
  const selfId = s.reg?.user_id ?? 0;
  const messages = new Map(s.messages);
  messages.set(message.id, message);
  let next: AppState = { ...s, messages };
  next = { ...next, narrows: refile(next, [message]) };
  // The pending copy goes: by its local id in the sender's tab, by the id the send answered elsewhere.
  const outbox = s.outbox.filter((o) => !(e.local_message_id && o.localId === e.local_message_id) && o.messageId !== message.id);
  const topics = message.type === 'stream' && message.stream_id !== undefined && s.topics[message.stream_id]
    ? { ...s.topics, [message.stream_id]: noteTopic(s.topics[message.stream_id], message.subject, message.id) }
    : s.topics;
  const base = s.reg && message.type === 'stream' && message.stream_id !== undefined ? noteChannelMessage(s.reg, message.stream_id, message.id) : s.reg;
  const reg = base && {
    ...base,
    unread_msgs: addUnread(base.unread_msgs, message, selfId),
    max_message_id: Math.max(base.max_message_id ?? 0, message.id),
    ...(message.type === 'private' ? { recent_private_conversations: noteConversation(base, message) } : {}),
  };
  return { ...next, reg, outbox: outbox.length === s.outbox.length ? s.outbox : outbox, topics };
};

const onReaction: EventHandler = (s, e) => {
  const m = s.messages.get(e.message_id);
  if (!m) return s;
  const same = (r: { emoji_code: string; reaction_type: string; user_id: number }) => r.emoji_code === e.emoji_code && r.reaction_type === e.reaction_type && r.user_id === e.user_id;
  const has = m.reactions.some(same);
  if (e.op === 'add' ? has : !has) return s;
  const reactions = e.op === 'add'
    ? [...m.reactions, { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type, user_id: e.user_id, user: e.user ?? { id: e.user_id, email: '', full_name: '', is_mirror_dummy: false } }]
    : m.reactions.filter((r) => !same(r));
  return withMessages(s, (messages) => messages.set(m.id, { ...m, reactions }));
};

/** A widget's new state (a vote, a task), appended in the message's `submessages` as GET /messages lists them. */
const onSubmessage: EventHandler = (s, e) => {
  const m = s.messages.get(e.message_id);
  if (!m) return s;
  const subs = (m.submessages ?? []) as Array<{ id: number }>;
  if (subs.some((x) => x.id === e.submessage_id)) return s;
  const sub = { id: e.submessage_id, message_id: e.message_id, sender_id: e.sender_id, msg_type: e.msg_type, content: e.content };
  return withMessages(s, (messages) => messages.set(m.id, { ...m, submessages: [...subs, sub].sort((a, b) => a.id - b.id) } as Message));
};

const onDelete: EventHandler = (s, e) => {
  const ids: number[] = e.message_ids ?? (e.message_id !== undefined ? [e.message_id] : []);
  if (!ids.length) return s;
  const gone = new Set(ids);
  const removed = ids.map((id) => s.messages.get(id)).filter((m): m is Message => !!m);
  let next = withMessages(s, (messages) => ids.forEach((id) => messages.delete(id)));
  next = { ...next, narrows: dropFromNarrows(next, ids) };
  // A topic whose newest message went shows its newest remaining one, or goes when none is known.
  const streamId: number | undefined = e.stream_id ?? removed.find((m) => m.type === 'stream')?.stream_id;
  const topicNames: string[] = e.topic !== undefined ? [e.topic] : [...new Set(removed.filter((m) => m.type === 'stream').map((m) => m.subject))];
  const entry = streamId !== undefined ? next.topics[streamId] : undefined;
  if (entry && streamId !== undefined) {
    let updated = entry;
    for (const name of topicNames) {
      const t = updated.topics.find((x) => sameTopic(x.name, name));
      if (!t || !gone.has(t.max_id)) continue;
      const left = [...next.messages.values()].filter((m) => m.type === 'stream' && m.stream_id === streamId && sameTopic(m.subject, name)).map((m) => m.id);
      updated = setTopicMax(updated, name, left.length ? Math.max(...left) : undefined);
    }
    if (updated !== entry) next = { ...next, topics: { ...next.topics, [streamId]: updated } };
  }
  return {
    ...next,
    reg: next.reg && {
      ...next.reg,
      unread_msgs: removeUnread(next.reg.unread_msgs, ids),
      starred_messages: (next.reg.starred_messages ?? []).filter((id) => !gone.has(id)),
    },
  };
};

export const messageHandlers: Record<string, EventHandler> = {
  message: onMessage,
  reaction: onReaction,
  submessage: onSubmessage,
  delete_message: onDelete,
};
