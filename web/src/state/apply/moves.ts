/**
 * update_message: content edits (one message) and moves (to another topic, resolved topics
 * with their `✔ ` prefix included, or another channel; one, later or all messages of a topic
 * by propagate_mode). A move re-files unread counts, message lists and topic lists, and is
 * remembered in `lastMove` so an open view of the old topic can follow it.
 */
import type { Message, Stream } from '@chat/client';
import type { AppState, TopicMove } from '../store';
import { dropTopic, noteTopic, sameTopic, setTopicMax } from '../topics';
import { addUnread, MENTION_FLAGS, removeUnread } from '../unread';
import { noteChannelMessage } from './channels';
import type { EventHandler, LooseEvent } from './index';
import { refile } from './narrows';
import { listOf } from './util';


function streamName(s: AppState, id: number): string | undefined {
  if (!s.reg) return undefined;
  for (const key of ['subscriptions', 'unsubscribed', 'never_subscribed', 'streams']) {
    const found = listOf<Stream>(s.reg, key).find((x) => x.stream_id === id);
    if (found) return found.name;
  }
  return undefined;
}

function editContent(s: AppState, e: LooseEvent): AppState {
  const m = s.messages.get(e.message_id);
  let next = s;
  if (m) {
    const flags: string[] = Array.isArray(e.flags) ? e.flags : m.flags;
    const upd: Message = {
      ...m,
      content: e.rendered_content,
      is_me_message: e.is_me_message ?? m.is_me_message,
      flags,
      ...(e.rendering_only ? {} : { last_edit_timestamp: e.edit_timestamp }),
      ...(e.topic_links !== undefined && e.subject === undefined ? { topic_links: e.topic_links } : {}),
    };
    const messages = new Map(s.messages);
    messages.set(m.id, upd);
    next = { ...s, messages };
  }
  // An edit that adds or removes a mention changes the unread mentions.
  if (next.reg && Array.isArray(e.flags)) {
    const u = next.reg.unread_msgs;
    const unread = u.streams.some((x) => x.unread_message_ids.includes(e.message_id)) || u.pms.some((x) => x.unread_message_ids.includes(e.message_id)) || u.huddles.some((x) => x.unread_message_ids.includes(e.message_id));
    const mentioned = (e.flags as string[]).some((f) => MENTION_FLAGS.includes(f));
    const listed = u.mentions.includes(e.message_id);
    if (unread && mentioned !== listed) {
      const mentions = mentioned ? [...u.mentions, e.message_id].sort((a, b) => a - b) : u.mentions.filter((id) => id !== e.message_id);
      next = { ...next, reg: { ...next.reg, unread_msgs: { ...u, mentions } } };
    }
  }
  return next;
}

function move(s: AppState, e: LooseEvent): AppState {
  const ids: number[] = e.message_ids ?? [e.message_id];
  const newStreamId: number | undefined = e.new_stream_id;
  const newTopic: string | undefined = e.subject ?? e.topic;
  const newName = newStreamId !== undefined ? streamName(s, newStreamId) : undefined;
  const messages = new Map(s.messages);
  const moved: Message[] = [];
  const unknown: number[] = [];
  for (const id of ids) {
    const m = messages.get(id);
    if (!m) {
      unknown.push(id);
      continue;
    }
    const upd: Message = {
      ...m,
      ...(newTopic !== undefined ? { subject: newTopic } : {}),
      ...(newStreamId !== undefined ? { stream_id: newStreamId, ...(newName !== undefined ? { display_recipient: newName } : {}) } : {}),
      ...(e.topic_links !== undefined ? { topic_links: e.topic_links } : {}),
      last_moved_timestamp: e.edit_timestamp,
    };
    messages.set(id, upd);
    moved.push(upd);
  }
  let next: AppState = { ...s, messages };
  next = { ...next, narrows: refile(next, moved, unknown) };

  const oldStreamId: number | undefined = e.stream_id ?? moved[0]?.stream_id;
  const oldTopic: string | undefined = e.orig_subject;
  if (next.reg) {
    // Unread entries follow their messages; a mention stays a mention.
    const u = next.reg.unread_msgs;
    const idSet = new Set(ids);
    const unreadMoved = u.streams.flatMap((x) => x.unread_message_ids.filter((id) => idSet.has(id)).map((id) => ({ id, entry: x })));
    if (unreadMoved.length) {
      let unread = removeUnread(u, unreadMoved.map((x) => x.id));
      for (const { id, entry } of unreadMoved) {
        const known = next.messages.get(id);
        const flags = u.mentions.includes(id) ? ['mentioned'] : [];
        const pseudo = { ...(known ?? ({ id, type: 'stream', display_recipient: '' } as unknown as Message)), stream_id: newStreamId ?? entry.stream_id, subject: newTopic ?? entry.topic, flags };
        unread = addUnread(unread, pseudo, next.reg.user_id);
      }
      next = { ...next, reg: { ...next.reg, unread_msgs: unread } };
    }
  }
  if (next.reg && newStreamId !== undefined) next = { ...next, reg: noteChannelMessage(next.reg, newStreamId, Math.min(...ids)) };
  // Topic lists: the new topic gains the messages; the old one goes when all of it moved.
  const topics = { ...next.topics };
  const target = newStreamId ?? oldStreamId;
  if (target !== undefined && topics[target]) topics[target] = noteTopic(topics[target], newTopic ?? oldTopic ?? '', Math.max(...ids));
  if (oldStreamId !== undefined && oldTopic !== undefined && topics[oldStreamId]) {
    if (e.propagate_mode === 'change_all') {
      topics[oldStreamId] = dropTopic(topics[oldStreamId]!, oldTopic);
    } else {
      // Part of the topic moved: its newest message is now the newest one left that the store knows.
      const old = topics[oldStreamId]!.topics.find((t) => sameTopic(t.name, oldTopic));
      const movedIds = new Set(ids);
      if (old && movedIds.has(old.max_id)) {
        const left = [...next.messages.values()].filter((m) => m.type === 'stream' && m.stream_id === oldStreamId && sameTopic(m.subject, oldTopic) && !movedIds.has(m.id)).map((m) => m.id);
        if (left.length) topics[oldStreamId] = setTopicMax(topics[oldStreamId]!, oldTopic, Math.max(...left));
      }
    }
    if (target !== undefined && topics[target]) topics[target] = noteTopic(topics[target], newTopic ?? oldTopic, Math.max(...ids));
  }
  const lastMove: TopicMove | undefined = oldStreamId !== undefined && oldTopic !== undefined
    ? { streamId: oldStreamId, topic: oldTopic, newStreamId: target ?? oldStreamId, newTopic: newTopic ?? oldTopic, propagateMode: e.propagate_mode ?? 'change_one', messageIds: ids }
    : next.lastMove;
  return { ...next, topics, lastMove };
}

const onUpdateMessage: EventHandler = (s, e) => {
  let next = s;
  if (e.rendered_content !== undefined) next = editContent(next, e);
  const moved = (e.new_stream_id !== undefined && e.new_stream_id !== e.stream_id) || e.subject !== undefined;
  if (moved) next = move(next, e);
  return next;
};

export const moveHandlers: Record<string, EventHandler> = {
  update_message: onUpdateMessage,
};
