/**
 * The compose box's own state (open or closed, to whom, the text being typed), separate from
 * the server's store so that a re-register never touches a draft being typed. Other parts of
 * the app open it: `c`/`x`/`r` and the reply, quote and "new topic" buttons.
 */
import { useSyncExternalStore } from 'react';
import type { ComposeTarget } from './Compose';

export interface ComposeState {
  open: boolean;
  target: ComposeTarget | null;
  content: string;
  /** Bumped on every openCompose, so the box takes focus again. */
  focusTick: number;
}

let state: ComposeState = { open: false, target: null, content: '', focusTick: 0 };
const listeners = new Set<() => void>();

export function getCompose(): ComposeState {
  return state;
}

export function setCompose(update: Partial<ComposeState>): void {
  state = { ...state, ...update };
  for (const l of listeners) l();
}

/** Opens the box to `target`; `append` adds text (a quote) after what is already typed. */
export function openCompose(target: ComposeTarget | null, opts: { content?: string; append?: string } = {}): void {
  const content = opts.content ?? (opts.append ? `${state.content}${state.content && !state.content.endsWith('\n') ? '\n' : ''}${opts.append}` : state.content);
  setCompose({ open: true, target: target ?? state.target, content, focusTick: state.focusTick + 1 });
}

export function closeCompose(): void {
  setCompose({ open: false });
}

export function useCompose(): ComposeState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}
