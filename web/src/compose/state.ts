/**
 * The compose box's own state (open or closed, to whom, the text being typed), separate from
 * the server's store so that a re-register never touches a draft being typed. Other parts of
 * the app open it: `c`/`x`/`r` and the reply, quote and "new topic" buttons.
 *
 * Moving the box to another conversation saves the text as that conversation's draft and
 * brings back the new conversation's draft, if there is one (the family's behaviour).
 */
import { useSyncExternalStore } from 'react';
import { backendOf, composeDrafts, currentBackend, findDraft, type StoredDraft } from './drafts';
import { draftFromCompose } from './draftSaver';
import { sameConversation, type ComposeTarget } from './types';
import { typingNotifier } from './typing';

export type { ComposeTarget } from './types';

export interface ComposeState {
  open: boolean;
  target: ComposeTarget | null;
  content: string;
  /** Bumped on every openCompose, so the box takes focus again. */
  focusTick: number;
  /** Set while the box edits a scheduled message (its id and current delivery time). */
  editingScheduled?: { id: number; at: number };
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

export interface OpenOptions {
  /** Replaces the text (a restored draft, an edited scheduled message). */
  content?: string;
  /** Adds text (a quote) after what is already typed. */
  append?: string;
  /** The saved draft `content` came from, so edits update it rather than make another. */
  draft?: StoredDraft;
  editingScheduled?: { id: number; at: number };
}

/** Opens the box to `target` (null: where it was). */
export function openCompose(target: ComposeTarget | null, opts: OpenOptions = {}): void {
  const next = target ?? state.target;
  let content = state.content;
  const switching = !sameConversation(next, state.target) || opts.content !== undefined || opts.editingScheduled !== undefined || !!state.editingScheduled;
  if (switching) {
    typingNotifier.stop();
    void composeDrafts.detach();
    if (opts.content !== undefined) {
      content = opts.content;
      composeDrafts.adopt(opts.draft?.id, opts.draft ?? null, opts.draft ? backendOf(opts.draft) : undefined);
    } else {
      const draft = findDraft(next);
      content = draft?.content ?? '';
      composeDrafts.adopt(draft?.id, draft ?? null, draft ? backendOf(draft) : undefined);
    }
  }
  if (opts.append) content = `${content}${content && !content.endsWith('\n') ? '\n' : ''}${opts.append}`;
  setCompose({ open: true, target: next, content, focusTick: state.focusTick + 1, editingScheduled: opts.editingScheduled });
  if (opts.append) noteChange();
}

/** Closes the box, keeping what was typed as a draft. */
export function closeCompose(): void {
  typingNotifier.stop();
  void composeDrafts.flush();
  setCompose({ open: false });
}

/** Queues a draft save of the box as it stands (after a pause in typing). */
export function noteChange(): void {
  if (state.editingScheduled) return;
  // A new draft goes where drafts are kept now; a restored one is updated where it lives.
  if (composeDrafts.id === undefined) composeDrafts.setBackend(currentBackend());
  composeDrafts.change(draftFromCompose(state.target, state.content));
}

/** After sending: the text goes and so does its draft. */
export function clearCompose(): void {
  typingNotifier.stop();
  void composeDrafts.discard();
  setCompose({ content: '', editingScheduled: undefined });
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
