/**
 * One's own things and fleeting signals: drafts, scheduled_messages, reminders, saved_snippets,
 * navigation_view, and typing (channel topics and direct conversations, expiring after 15 s;
 * one's own typing, echoed back by the server, is ignored).
 */
import { dmTypingKey, startTyping, stopTyping, streamTypingKey, TYPING_EXPIRY_MS } from '../typing';
import type { EventHandler } from './index';
import { listOf, upsert, withReg } from './util';

type Row = Record<string, unknown>;

function listHandler(key: string, idField: string, opts: { added: string; updated: string; removed: string; sort?: (a: Row, b: Row) => number }): EventHandler {
  return (s, e) =>
    withReg(s, (reg) => {
      let list = listOf<Row>(reg, key);
      const added = e[opts.added] as Row[] | Row;
      if (e.op === 'add') for (const item of Array.isArray(added) ? added : [added]) list = upsert(list, idField, item);
      else if (e.op === 'update') list = upsert(list, idField, e[opts.updated] as Row);
      else if (e.op === 'remove') list = list.filter((x) => x[idField] !== e[opts.removed]);
      else return reg;
      return { ...reg, [key]: opts.sort ? [...list].sort(opts.sort) : list };
    });
}

const byDelivery = (a: Row, b: Row) => Number(a.scheduled_delivery_timestamp) - Number(b.scheduled_delivery_timestamp);

const onTyping: EventHandler = (s, e) => {
  const selfId = s.reg?.user_id;
  const sender: number | undefined = e.sender?.user_id ?? e.sender_id;
  if (sender === undefined || sender === selfId) return s;
  const isStream = e.message_type === 'stream' || e.message_type === 'channel';
  const key = isStream
    ? streamTypingKey(e.stream_id, e.topic ?? '')
    : dmTypingKey(((e.recipients ?? []) as Array<{ user_id: number }>).map((r) => r.user_id), selfId ?? sender);
  const expiry = Number(s.reg?.server_typing_started_expiry_period_milliseconds) || TYPING_EXPIRY_MS;
  const typing = e.op === 'start' ? startTyping(s.typing, key, sender, Date.now(), expiry) : stopTyping(s.typing, key, sender);
  return typing === s.typing ? s : { ...s, typing };
};

export const personalHandlers: Record<string, EventHandler> = {
  drafts: listHandler('drafts', 'id', { added: 'drafts', updated: 'draft', removed: 'draft_id' }),
  scheduled_messages: listHandler('scheduled_messages', 'scheduled_message_id', { added: 'scheduled_messages', updated: 'scheduled_message', removed: 'scheduled_message_id', sort: byDelivery }),
  reminders: listHandler('reminders', 'reminder_id', { added: 'reminders', updated: 'reminder', removed: 'reminder_id', sort: byDelivery }),
  saved_snippets: listHandler('saved_snippets', 'id', { added: 'saved_snippet', updated: 'saved_snippet', removed: 'saved_snippet_id' }),
  navigation_view: (s, e) =>
    withReg(s, (reg) => {
      const views = listOf<Row>(reg, 'navigation_views');
      if (e.op === 'add') return { ...reg, navigation_views: upsert(views, 'fragment', e.navigation_view as Row) };
      if (e.op === 'update') return { ...reg, navigation_views: views.map((v) => (v.fragment === e.fragment ? { ...v, ...e.data } : v)) };
      if (e.op === 'remove') return { ...reg, navigation_views: views.filter((v) => v.fragment !== e.fragment) };
      return reg;
    }),
  typing: onTyping,
};
