/**
 * The message list, virtualised: only the rows on screen (and a few around them) are in the
 * DOM, so a topic of any length scrolls with flat memory. Rows are measured as they render.
 * On entry the list opens at the `near` message or the first unread one (else the newest),
 * keeps its place when older pages load above, sticks to the bottom while the reader is there,
 * marks what is seen as read, and moves the selected message with j/k and the arrow keys.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Message } from '@chat/client';
import { t } from '../i18n';
import type { NarrowTerm } from '../narrow/hash';
import { loadNarrow } from '../state/actions';
import { isInGroup } from '../state/permissions';
import { pendingFor, shouldMarkReadOnScroll } from '../state/selectors';
import { useAppState } from '../state/store';
import { anyLayerOpen, isTypingTarget } from '../ui/focus';
import { useTimeFormat } from '../ui/time';
import { FeedContext, useRowReg, type FeedContextValue } from './context';
import { EmptyState } from './EmptyState';
import { MessageRow, PendingRow } from './MessageRow';
import { canMarkRead, narrowInfo } from './narrowInfo';
import { isReadingPaused, markSeen } from './read';
import { buildRows, firstUnreadIndex, indexNear, indexOfMessage, rowKey } from './rows';
import { registerList, selectBy, selectFirst, selectLast, selectMessage, selectNext, selectPrev, useSelection } from './selection';

const EDGE_PX = 300;

export function MessageList({ narrowKey, terms }: { narrowKey: string; terms: NarrowTerm[] }) {
  const reg = useRowReg();
  const narrow = useAppState((s) => s.narrows[narrowKey]);
  const messagesById = useAppState((s) => s.messages);
  const outbox = useAppState((s) => pendingFor(s, terms));
  const time = useTimeFormat();
  const selection = useSelection();
  const info = useMemo(() => narrowInfo(terms), [terms]);
  const selfId = reg.user_id;

  const messages = useMemo(() => (narrow?.ids ?? []).map((id) => messagesById.get(id)).filter((m): m is Message => !!m), [narrow?.ids, messagesById]);
  // Messages being sent belong after the newest message, so only once the list reaches it.
  const pending = useMemo(() => (narrow?.foundNewest ? outbox : []), [outbox, narrow?.foundNewest]);
  const rows = useMemo(() => buildRows(messages, pending, reg.user_id), [messages, pending, reg.user_id]);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  const feed = useMemo<FeedContextValue>(() => {
    const groups = reg.realm_user_groups ?? [];
    const myGroups = new Set(groups.filter((g) => !g.is_system_group && isInGroup(reg, g.id)).map((g) => g.id));
    return {
      selfId,
      reg,
      render: { selfId, myGroups, alertWords: reg.alert_words ?? [], time },
      terms,
      narrowKey,
      mutedUsers: new Set((reg.muted_users ?? []).map((m) => m.id)),
      search: terms.some((x) => x.operator === 'search' && !x.negated),
      loadedIds: () => rowsRef.current.flatMap((r) => (r.kind === 'message' ? [r.message.id] : [])),
    };
  }, [reg, selfId, time, terms, narrowKey]);

  const parent = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const positioned = useRef(false);
  /** The first row on screen and its distance from the top, to keep the reader's place when rows are added above. */
  const anchor = useRef<{ key: string | number; offset: number } | null>(null);
  const [showJump, setShowJump] = useState(false);

  // Index 0 is the top row (load older / start of the conversation); message rows follow.
  const virtualizer = useVirtualizer({
    count: rows.length + 1,
    getScrollElement: () => parent.current,
    estimateSize: (i) => (i === 0 ? 48 : 60),
    overscan: 6,
    getItemKey: (i) => (i === 0 ? 'top' : rowKey(rows[i - 1]!)),
  });

  useEffect(() => registerList(() => rowsRef.current.flatMap((r) => (r.kind === 'message' ? [r.message.id] : []))), []);

  const loaded = !!narrow && !narrow.loading && (narrow.ids.length > 0 || narrow.foundOldest || narrow.foundNewest || !!narrow.error);

  // Entry: open at the near message, else the first unread, else the newest.
  useLayoutEffect(() => {
    if (positioned.current || !loaded) return;
    positioned.current = true;
    if (!rows.length) return;
    const near = info.near !== undefined ? indexNear(rows, info.near) : -1;
    const unread = near < 0 ? firstUnreadIndex(rows) : -1;
    const target = near >= 0 ? near : unread;
    if (target >= 0 && target < rows.length - 1) {
      atBottom.current = false;
      virtualizer.scrollToIndex(target + 1, { align: near >= 0 ? 'center' : 'start' });
    } else {
      virtualizer.scrollToIndex(rows.length, { align: 'end' });
    }
    const row = rows[target >= 0 ? target : rows.length - 1];
    if (row?.kind === 'message') selectMessage(row.message.id);
  }, [loaded, rows, info.near, virtualizer]);

  // Later row changes: stay at the bottom if there, else keep the first visible row in place.
  useLayoutEffect(() => {
    if (!positioned.current || !rows.length) return;
    if (atBottom.current && narrow?.foundNewest) {
      virtualizer.scrollToIndex(rows.length, { align: 'end' });
      return;
    }
    const a = anchor.current;
    if (!a) return;
    const index = virtualizer.measurementsCache.findIndex((m) => m.key === a.key);
    if (index < 0) return;
    const want = virtualizer.measurementsCache[index]!.start - a.offset;
    if (Math.abs((parent.current?.scrollTop ?? 0) - want) > 1) virtualizer.scrollToOffset(want);
    // Only the rows are watched: the anchor follows every scroll.
  }, [rows]);

  // The list's own height changes (the compose box opens, a notice shows under it): a reader
  // at the bottom stays there.
  useEffect(() => {
    const el = parent.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let height = el.clientHeight;
    const observer = new ResizeObserver(() => {
      if (el.clientHeight === height) return;
      height = el.clientHeight;
      if (atBottom.current && positioned.current && rowsRef.current.length) virtualizer.scrollToIndex(rowsRef.current.length, { align: 'end' });
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [rows.length > 0, virtualizer]);

  const checkRead = () => {
    const el = parent.current;
    if (!el || !positioned.current || !canMarkRead(terms) || !shouldMarkReadOnScroll(reg, terms) || isReadingPaused(narrowKey)) return;
    if (document.visibilityState !== 'visible' || !document.hasFocus()) return;
    const top = el.scrollTop;
    const bottom = top + el.clientHeight;
    const seen: number[] = [];
    for (const v of virtualizer.getVirtualItems()) {
      if (v.index === 0 || v.end <= top || v.start >= bottom) continue;
      const row = rowsRef.current[v.index - 1];
      if (row?.kind === 'message' && !row.message.flags.includes('read')) seen.push(row.message.id);
    }
    if (seen.length) markSeen(seen);
  };

  /** A list that does not fill the screen cannot be scrolled to its edges: fetch more at once. */
  const fillScreen = () => {
    const el = parent.current;
    if (!el || !narrow || narrow.loading || !positioned.current || narrow.error) return;
    if (el.scrollHeight > el.clientHeight + EDGE_PX) return;
    if (!narrow.foundNewest) void loadNarrow(terms, 'newer');
    else if (!narrow.foundOldest) void loadNarrow(terms, 'older');
  };

  useEffect(() => {
    const timer = setTimeout(() => {
      checkRead();
      fillScreen();
    }, 150);
    window.addEventListener('focus', checkRead);
    document.addEventListener('visibilitychange', checkRead);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('focus', checkRead);
      document.removeEventListener('visibilitychange', checkRead);
    };
  });

  const onScroll = () => {
    const el = parent.current;
    if (!el) return;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    atBottom.current = distance < 40;
    setShowJump(distance > el.clientHeight * 1.5 || (!narrow?.foundNewest && distance > 40));
    const first = virtualizer.getVirtualItems().find((v) => v.end > el.scrollTop);
    anchor.current = first ? { key: first.key as string | number, offset: first.start - el.scrollTop } : null;
    if (!narrow || narrow.loading || !positioned.current) return;
    if (el.scrollTop < EDGE_PX && !narrow.foundOldest) void loadNarrow(terms, 'older');
    else if (distance < EDGE_PX && !narrow.foundNewest) void loadNarrow(terms, 'newer');
  };

  // The selection takes focus (and comes into view) when moved by keys.
  useEffect(() => {
    if (selection.id === null || !selection.focusTick) return;
    const index = indexOfMessage(rowsRef.current, selection.id);
    if (index < 0) return;
    virtualizer.scrollToIndex(index + 1, { align: 'auto' });
    const frame = requestAnimationFrame(() => parent.current?.querySelector<HTMLElement>(`[data-message-id="${selection.id}"]`)?.focus({ preventScroll: true }));
    return () => cancelAnimationFrame(frame);
  }, [selection.focusTick]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey || anyLayerOpen() || isTypingTarget(e.target) || (e.target as HTMLElement).closest('[role="menu"], [role="toolbar"] button')) return;
    const page = Math.max(1, Math.floor((parent.current?.clientHeight ?? 600) / 80));
    const keys: Record<string, () => unknown> = {
      j: selectNext, ArrowDown: selectNext, k: selectPrev, ArrowUp: selectPrev,
      Home: selectFirst, End: selectLast, PageDown: () => selectBy(page), PageUp: () => selectBy(-page),
    };
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    e.stopPropagation();
    action();
  };

  const jumpToBottom = () => {
    if (narrow && !narrow.foundNewest) void loadNarrow(terms, 'initial');
    atBottom.current = true;
    virtualizer.scrollToIndex(rows.length, { align: 'end' });
    selectLast();
  };

  if (!narrow || (narrow.loading && !rows.length)) return <div className="feed-status" role="status">{t('feed.loading')}</div>;
  if (narrow.error && !rows.length) return <div className="feed-status" role="alert">{t('misc.error', { error: narrow.error })}</div>;
  if (!rows.length && narrow.foundOldest && narrow.foundNewest) return <EmptyState info={info} />;

  return (
    <FeedContext.Provider value={feed}>
      <div className="message-list-wrap">
        <div className="message-list" ref={parent} onScroll={onScroll} onKeyDown={onKeyDown} role="region" aria-label={t('feed.messages')} aria-busy={narrow.loading} data-testid="message-list">
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => {
              const row = v.index === 0 ? null : rows[v.index - 1]!;
              return (
                <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} className="message-slot" style={{ transform: `translateY(${v.start}px)` }}>
                  {row === null ? (
                    <TopRow foundOldest={narrow.foundOldest} loading={narrow.loading} onLoad={() => void loadNarrow(terms, 'older')} />
                  ) : row.kind === 'message' ? (
                    <MessageRow row={row} selected={selection.id === row.message.id} />
                  ) : (
                    <PendingRow row={row} />
                  )}
                </div>
              );
            })}
          </div>
        </div>
        {showJump && (
          <button type="button" className="jump-bottom button" onClick={jumpToBottom}>
            {t('feed.jump_bottom')}
          </button>
        )}
      </div>
    </FeedContext.Provider>
  );
}

function TopRow({ foundOldest, loading, onLoad }: { foundOldest: boolean; loading: boolean; onLoad: () => void }) {
  if (foundOldest) return <div className="feed-start">{t('feed.start')}</div>;
  return (
    <div className="feed-start">
      <button type="button" className="button" onClick={onLoad} disabled={loading} data-testid="load-older">
        {loading ? t('feed.older') : t('feed.load_older')}
      </button>
    </div>
  );
}
