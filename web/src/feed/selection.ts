/**
 * The selected message of the view on screen: where keyboard focus sits in the feed, what
 * j/k and the arrow keys move, and what message shortcuts (reply, react, edit) act on. The
 * list registers its ordered message ids; the shortcuts call selectNext/selectPrev.
 */
import { useSyncExternalStore } from 'react';

interface SelectionState {
  id: number | null;
  /** Bumped when the selection should also take keyboard focus (and scroll into view). */
  focusTick: number;
}

let state: SelectionState = { id: null, focusTick: 0 };
let idsOfList: () => readonly number[] = () => [];
const listeners = new Set<() => void>();

function set(next: SelectionState): void {
  state = next;
  for (const l of listeners) l();
}

/** The list on screen says which messages it shows, oldest first. */
export function registerList(ids: () => readonly number[]): () => void {
  idsOfList = ids;
  return () => {
    if (idsOfList === ids) idsOfList = () => [];
  };
}

export function selectedMessageId(): number | null {
  return state.id;
}

export function selectMessage(id: number | null, focus = false): void {
  if (id === state.id && !focus) return;
  set({ id, focusTick: focus ? state.focusTick + 1 : state.focusTick });
}

function step(delta: number): boolean {
  const ids = idsOfList();
  if (!ids.length) return false;
  const at = state.id === null ? -1 : ids.indexOf(state.id);
  const to = at < 0 ? (delta > 0 ? 0 : ids.length - 1) : Math.max(0, Math.min(ids.length - 1, at + delta));
  selectMessage(ids[to]!, true);
  return to !== at;
}

/** Moves the selection to the next (newer) message; false at the end. */
export function selectNext(): boolean {
  return step(1);
}

/** Moves the selection to the previous (older) message; false at the start. */
export function selectPrev(): boolean {
  return step(-1);
}

export function selectFirst(): void {
  const ids = idsOfList();
  if (ids.length) selectMessage(ids[0]!, true);
}

export function selectLast(): void {
  const ids = idsOfList();
  if (ids.length) selectMessage(ids[ids.length - 1]!, true);
}

/** Page-sized moves (Page Up / Page Down). */
export function selectBy(delta: number): boolean {
  return step(delta);
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useSelection(): SelectionState {
  return useSyncExternalStore(subscribe, () => state);
}

export function useIsSelected(id: number): boolean {
  return useSyncExternalStore(subscribe, () => state.id === id);
}
