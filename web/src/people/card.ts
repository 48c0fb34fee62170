/**
 * Which user card is open (one at a time, from anywhere: a name, an avatar, the buddy list),
 * and whether the full profile is shown. Kept apart from the server's store: it is only view.
 */
import { useSyncExternalStore } from 'react';

export interface CardState {
  userId: number | null;
  anchor: HTMLElement | null;
  profile: boolean;
  /** The status dialog (from the personal menu or your own card). */
  status: boolean;
}

let state: CardState = { userId: null, anchor: null, profile: false, status: false };
const listeners = new Set<() => void>();

function set(next: CardState): void {
  state = next;
  for (const l of listeners) l();
}

export function openUserCard(userId: number, anchor: HTMLElement | null = null): void {
  set({ userId, anchor, profile: false, status: false });
}

export function openProfile(userId: number): void {
  set({ userId, anchor: null, profile: true, status: false });
}

export function closeUserCard(): void {
  set({ userId: null, anchor: null, profile: false, status: false });
}

export function openStatus(): void {
  set({ userId: null, anchor: null, profile: false, status: true });
}

export function useUserCardState(): CardState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}
