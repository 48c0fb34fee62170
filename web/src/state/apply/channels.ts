/**
 * Channels and one's place in them: subscription (add, remove, update of any property,
 * peer_add, peer_remove), stream (create, delete, update of any property, archiving),
 * default_streams, default_stream_groups, channel_folder, user_topic and muted_topics. The
 * snapshot's lists (subscriptions, unsubscribed, never_subscribed, streams) stay as a fresh
 * /register gives them.
 */
import type { Message, RegisterState, Stream, Subscription, UserTopic } from '@chat/client';
import type { AppState } from '../store';
import type { EventHandler, LooseEvent } from './index';
import { listOf, mapWhere, sortedUnion, upsert, without, withReg } from './util';

const SUB_LISTS = ['subscriptions', 'unsubscribed', 'never_subscribed'] as const;
const ALL_LISTS = [...SUB_LISTS, 'streams'] as const;
type Row = Record<string, unknown> & { stream_id: number };

function take(reg: RegisterState, streamId: number): { reg: RegisterState; found?: Row } {
  let found: Row | undefined;
  const next: Record<string, unknown> = { ...reg };
  for (const list of SUB_LISTS) {
    const rows = listOf<Row>(reg, list);
    const hit = rows.find((r) => r.stream_id === streamId);
    if (hit) {
      found ??= hit;
      next[list] = rows.filter((r) => r !== hit);
    }
  }
  return { reg: next as RegisterState, found };
}

function subscriptionAdd(reg: RegisterState, e: LooseEvent): RegisterState {
  let next = reg;
  for (const added of e.subscriptions as Row[]) {
    next = take(next, added.stream_id).reg;
    next = { ...next, subscriptions: [...listOf<Subscription>(next, 'subscriptions'), added as Subscription] };
    // The channel's metadata for everyone who may see it.
    const { subscribers: _s, partial_subscribers: _p, color: _c, is_muted: _m, in_home_view: _h, pin_to_top: _t, desktop_notifications: _d, audible_notifications: _a, push_notifications: _pn, email_notifications: _e, wildcard_mentions_notify: _w, ...stream } = added;
    const streams = listOf<Row>(next, 'streams');
    next = { ...next, streams: streams.some((x) => x.stream_id === added.stream_id) ? mapWhere(streams, 'stream_id', [added.stream_id], (x) => ({ ...x, subscriber_count: added.subscriber_count ?? x.subscriber_count })) : [...streams, stream] } as RegisterState;
  }
  return next;
}

function subscriptionRemove(reg: RegisterState, e: LooseEvent): RegisterState {
  let next = reg;
  for (const { stream_id } of e.subscriptions as Row[]) {
    const sub = listOf<Row>(next, 'subscriptions').find((x) => x.stream_id === stream_id);
    if (!sub) continue;
    // The one leaving hears no peer_remove about themselves.
    const left: Row = { ...sub, subscriber_count: Math.max(0, Number(sub.subscriber_count ?? 1) - 1) };
    if (Array.isArray(sub.subscribers)) left.subscribers = without(sub.subscribers as number[], [next.user_id]);
    next = { ...next, subscriptions: listOf<Row>(next, 'subscriptions').filter((x) => x !== sub), unsubscribed: [...listOf<Row>(next, 'unsubscribed'), left] } as RegisterState;
    next = { ...next, streams: mapWhere(listOf<Row>(next, 'streams'), 'stream_id', [stream_id], (x) => ({ ...x, subscriber_count: left.subscriber_count })) } as RegisterState;
  }
  return next;
}

function subscriptionUpdate(reg: RegisterState, e: LooseEvent): RegisterState {
  const extra: Record<string, unknown> = { [e.property]: e.value };
  // Two names of one property.
  if (e.property === 'in_home_view') extra.is_muted = !e.value;
  if (e.property === 'is_muted') extra.in_home_view = !e.value;
  return { ...reg, subscriptions: mapWhere(listOf<Row>(reg, 'subscriptions'), 'stream_id', [e.stream_id], (x) => ({ ...x, ...extra })) } as RegisterState;
}

function peers(reg: RegisterState, e: LooseEvent): RegisterState {
  const add = e.op === 'peer_add';
  const userIds: number[] = e.user_ids;
  const next: Record<string, unknown> = { ...reg };
  for (const list of ALL_LISTS) {
    next[list] = mapWhere(listOf<Row>(reg, list), 'stream_id', e.stream_ids as number[], (x) => {
      const row: Row = { ...x };
      if (Array.isArray(x.subscribers)) {
        // The list is exact: the count moves by who really joined or left.
        const before = x.subscribers as number[];
        row.subscribers = add ? sortedUnion(before, userIds) : without(before, userIds);
        const delta = (row.subscribers as number[]).length - before.length;
        row.subscriber_count = Math.max(0, (typeof x.subscriber_count === 'number' ? x.subscriber_count : before.length) + delta);
      } else if (typeof x.subscriber_count === 'number') {
        row.subscriber_count = Math.max(0, x.subscriber_count + (add ? 1 : -1) * userIds.length);
      }
      if (Array.isArray(x.partial_subscribers)) {
        row.partial_subscribers = add ? x.partial_subscribers : without(x.partial_subscribers as number[], userIds);
      }
      return row;
    });
  }
  return next as RegisterState;
}

const onSubscription: EventHandler = (s, e) =>
  withReg(s, (reg) => {
    switch (e.op) {
      case 'add':
        return subscriptionAdd(reg, e);
      case 'remove':
        return subscriptionRemove(reg, e);
      case 'update':
        return subscriptionUpdate(reg, e);
      case 'peer_add':
      case 'peer_remove':
        return peers(reg, e);
      default:
        return reg;
    }
  });

function streamCreate(reg: RegisterState, e: LooseEvent): RegisterState {
  let next = reg;
  for (const created of e.streams as Row[]) {
    next = { ...next, streams: upsert(listOf<Row>(next, 'streams'), 'stream_id', created) } as RegisterState;
    const known = SUB_LISTS.some((list) => listOf<Row>(next, list).some((x) => x.stream_id === created.stream_id));
    // A channel newly visible (created, or made public) that one is not in.
    if (!known) next = { ...next, never_subscribed: [...listOf<Row>(next, 'never_subscribed'), { ...created, subscribers: [] }] } as RegisterState;
  }
  return next;
}

function streamDelete(reg: RegisterState, e: LooseEvent): RegisterState {
  const ids: number[] = e.stream_ids ?? (e.streams as Row[]).map((x) => x.stream_id);
  const gone = new Set(ids);
  const next: Record<string, unknown> = { ...reg };
  for (const list of ALL_LISTS) next[list] = listOf<Row>(reg, list).filter((x) => !gone.has(x.stream_id));
  if (Array.isArray(reg.realm_default_streams)) next.realm_default_streams = (reg.realm_default_streams as number[]).filter((id) => !gone.has(id));
  for (const key of ['realm_new_stream_announcements_stream_id', 'realm_signup_announcements_stream_id', 'realm_zulip_update_announcements_stream_id']) {
    if (gone.has(reg[key] as number)) next[key] = -1;
  }
  return next as RegisterState;
}

function streamUpdate(reg: RegisterState, e: LooseEvent): RegisterState {
  const extra: Record<string, unknown> = { [e.property]: e.value };
  // Derived fields travel beside the value.
  for (const k of ['rendered_description', 'history_public_to_subscribers', 'is_web_public']) if (e[k] !== undefined) extra[k] = e[k];
  if (e.property === 'stream_post_policy') extra.is_announcement_only = e.value === 2;
  const next: Record<string, unknown> = { ...reg };
  for (const list of ALL_LISTS) next[list] = mapWhere(listOf<Row>(reg, list), 'stream_id', [e.stream_id], (x) => ({ ...x, ...extra }));
  return next as RegisterState;
}

const onStream: EventHandler = (s, e) => {
  let next = withReg(s, (reg) => (e.op === 'create' ? streamCreate(reg, e) : e.op === 'delete' ? streamDelete(reg, e) : e.op === 'update' ? streamUpdate(reg, e) : reg));
  if (e.op === 'update' && e.property === 'name') {
    // Messages show their channel's name.
    const messages = new Map(next.messages);
    for (const m of messages.values()) if (m.type === 'stream' && m.stream_id === e.stream_id) messages.set(m.id, { ...m, display_recipient: e.value } as Message);
    next = { ...next, messages };
  }
  return next;
};

const onUserTopic: EventHandler = (s, e) =>
  withReg(s, (reg) => {
    const topics = reg.user_topics ?? [];
    const same = (t: UserTopic) => t.stream_id === e.stream_id && t.topic_name.toLowerCase() === String(e.topic_name).toLowerCase();
    const entry: UserTopic = { stream_id: e.stream_id, topic_name: e.topic_name, last_updated: e.last_updated, visibility_policy: e.visibility_policy };
    const rest = topics.filter((t) => !same(t));
    return { ...reg, user_topics: e.visibility_policy === 0 ? rest : [...rest, entry] };
  });

const onChannelFolder: EventHandler = (s, e) =>
  withReg(s, (reg) => {
    const folders = listOf<Record<string, unknown> & { id: number; order?: number }>(reg, 'channel_folders');
    switch (e.op) {
      case 'add':
        return { ...reg, channel_folders: upsert(folders, 'id', e.channel_folder) };
      case 'update':
        return { ...reg, channel_folders: mapWhere(folders, 'id', [e.channel_folder_id], (f) => ({ ...f, ...e.data })) };
      case 'reorder': {
        const order: number[] = e.order;
        return { ...reg, channel_folders: folders.map((f) => ({ ...f, order: order.indexOf(f.id) >= 0 ? order.indexOf(f.id) : f.order })) };
      }
      default:
        return reg;
    }
  });

export const channelHandlers: Record<string, EventHandler> = {
  subscription: onSubscription,
  stream: onStream,
  user_topic: onUserTopic,
  muted_topics: (s, e) => withReg(s, (reg) => ({ ...reg, muted_topics: e.muted_topics })),
  default_streams: (s, e) => withReg(s, (reg) => ({ ...reg, realm_default_streams: e.default_streams })),
  default_stream_groups: (s, e) => withReg(s, (reg) => ({ ...reg, realm_default_stream_groups: e.default_stream_groups })),
  channel_folder: onChannelFolder,
};

/** Channel lookups the handlers of other modules share. */
export function findStream(s: AppState, id: number): Stream | undefined {
  if (!s.reg) return undefined;
  for (const list of ALL_LISTS) {
    const found = listOf<Stream>(s.reg, list).find((x) => x.stream_id === id);
    if (found) return found;
  }
  return undefined;
}

/**
 * A message reached a channel (sent or moved there): an empty channel gets its first message id,
 * and any channel counts as recently active, as a fresh /register would say.
 */
export function noteChannelMessage(reg: RegisterState, streamId: number, messageId: number): RegisterState {
  const next: Record<string, unknown> = { ...reg };
  let changed = false;
  for (const list of ALL_LISTS) {
    const rows = listOf<Row>(reg, list);
    const updated = mapWhere(rows, 'stream_id', [streamId], (x) => {
      const first = x.first_message_id === null || x.first_message_id === undefined || Number(x.first_message_id) > messageId ? messageId : x.first_message_id;
      return first === x.first_message_id && x.is_recently_active !== false ? x : { ...x, first_message_id: first, is_recently_active: true };
    });
    if (updated !== rows) {
      next[list] = updated;
      changed = true;
    }
  }
  return changed ? (next as RegisterState) : reg;
}
