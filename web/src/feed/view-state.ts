/**
 * The feed's own view state, none of it the server's: which message is being edited, which
 * dialog is open for which message, the image shown full size, and the muted senders'
 * messages the reader chose to show.
 */
import { useSyncExternalStore } from 'react';

export type FeedDialog =
  | { kind: 'emoji'; messageId: number; anchor: HTMLElement | null }
  | { kind: 'move'; messageId: number }
  | { kind: 'delete'; messageId: number }
  | { kind: 'history'; messageId: number }
  | { kind: 'receipts'; messageId: number };

export interface FeedViewState {
  editingId: number | null;
  dialog: FeedDialog | null;
  lightbox: { src: string; alt: string; href: string } | null;
  revealed: ReadonlySet<number>;
  /** A passing notice ("Link copied"), announced politely. */
  notice: string | null;
}

let state: FeedViewState = { editingId: null, dialog: null, lightbox: null, revealed: new Set(), notice: null };
const listeners = new Set<() => void>();

export function getFeedView(): FeedViewState {
  return state;
}

export function setFeedView(update: Partial<FeedViewState>): void {
  state = { ...state, ...update };
  for (const l of listeners) l();
}

export function openDialog(dialog: FeedDialog): void {
  setFeedView({ dialog });
}

export function closeDialog(): void {
  setFeedView({ dialog: null });
}

export function reveal(id: number): void {
  setFeedView({ revealed: new Set([...state.revealed, id]) });
}

let noticeTimer: ReturnType<typeof setTimeout> | null = null;

export function notify(text: string): void {
  setFeedView({ notice: text });
  if (noticeTimer) clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => setFeedView({ notice: null }), 4000);
}

export function useFeedView<T>(select: (s: FeedViewState) => T): T {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => select(state),
  );
}
