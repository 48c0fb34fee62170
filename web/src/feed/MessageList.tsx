/**
 * The message list, virtualised: only the rows on screen (and a few around them) are in the
 * DOM, so a topic of any length scrolls with flat memory. Rows are measured as they render;
 * the list sticks to the bottom while the reader is there, and loads older pages at the top.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import type { Message } from '@chat/client';
import { t } from '../i18n';
import type { NarrowTerm } from '../narrow/hash';
import { loadNarrow } from '../state/actions';
import { useAppState, type OutboxItem } from '../state/store';
import { MessageRow, PendingRow } from './MessageRow';

export type Row = { kind: 'message'; message: Message; grouped: boolean; dateLabel?: string } | { kind: 'pending'; item: OutboxItem };

function dayOf(ts: number): string {
  return new Date(ts * 1000).toDateString();
}

export function dateLabel(ts: number): string {
  const d = new Date(ts * 1000);
  const today = new Date();
  const yesterday = new Date(Date.now() - 86_400_000);
  if (d.toDateString() === today.toDateString()) return t('feed.today');
  if (d.toDateString() === yesterday.toDateString()) return t('feed.yesterday');
  return d.toLocaleDateString(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
}

export function buildRows(messages: Message[], pending: OutboxItem[]): Row[] {
  const rows: Row[] = [];
  let prev: Message | undefined;
  for (const m of messages) {
    const newDay = !prev || dayOf(prev.timestamp) !== dayOf(m.timestamp);
    const sameConversation = prev && prev.type === m.type && prev.stream_id === m.stream_id && prev.subject === m.subject;
    const grouped = !!prev && !newDay && sameConversation === true && prev.sender_id === m.sender_id && m.timestamp - prev.timestamp < 600;
    rows.push({ kind: 'message', message: m, grouped, ...(newDay ? { dateLabel: dateLabel(m.timestamp) } : {}) });
    prev = m;
  }
  for (const item of pending) rows.push({ kind: 'pending', item });
  return rows;
}

export function MessageList({ narrowKey, terms }: { narrowKey: string; terms: NarrowTerm[] }) {
  const narrow = useAppState((s) => s.narrows[narrowKey]);
  const messagesById = useAppState((s) => s.messages);
  const outbox = useAppState((s) => s.outbox);
  const messages = useMemo(() => (narrow?.ids ?? []).map((id) => messagesById.get(id)).filter((m): m is Message => !!m), [narrow?.ids, messagesById]);
  const rows = useMemo(() => buildRows(messages, outbox), [messages, outbox]);
  const parent = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parent.current,
    estimateSize: () => 64,
    overscan: 8,
    getItemKey: (i) => {
      const r = rows[i]!;
      return r.kind === 'message' ? r.message.id : `local-${r.item.localId}`;
    },
  });
  useEffect(() => {
    if (atBottom.current && rows.length) virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [rows.length, virtualizer]);
  const onScroll = () => {
    const el = parent.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    if (el.scrollTop < 200 && narrow && !narrow.foundOldest && !narrow.loading) void loadNarrow(terms, 'older');
  };
  if (!narrow || (narrow.loading && !messages.length)) return <div className="feed-status" role="status">{t('feed.loading')}</div>;
  if (narrow.error && !messages.length) return <div className="feed-status" role="alert">{t('misc.error', { error: narrow.error })}</div>;
  return (
    <div className="message-list" ref={parent} onScroll={onScroll} role="log" aria-label={t('feed.messages')} aria-live="polite" tabIndex={0}>
      {narrow.foundOldest && <div className="feed-start">{rows.length ? t('feed.start') : t('feed.empty')}</div>}
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((v) => {
          const row = rows[v.index]!;
          return (
            <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${v.start}px)` }}>
              {row.kind === 'message' ? <MessageRow row={row} /> : <PendingRow item={row.item} />}
            </div>
          );
        })}
      </div>
    </div>
  );
}
