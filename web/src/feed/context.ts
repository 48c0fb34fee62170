/** What every row of a list shares, computed once per snapshot change rather than per row. */
import { createContext, useContext, useRef } from 'react';
import type { RegisterState } from '@chat/client';
import { useReg } from '../state/store';
import type { NarrowTerm } from '../narrow/hash';
import type { RenderContext } from './Rendered';

export interface FeedContextValue {
  selfId: number;
  reg: RegisterState;
  render: RenderContext;
  terms: NarrowTerm[];
  narrowKey: string;
  mutedUsers: ReadonlySet<number>;
  /** A search view: messages show the server's highlighted match_content and match_subject. */
  search: boolean;
  /** The ids the list holds (for "mark as unread from here"). */
  loadedIds: () => readonly number[];
}

export const FeedContext = createContext<FeedContextValue | null>(null);

export function useFeed(): FeedContextValue {
  const v = useContext(FeedContext);
  if (!v) throw new Error('useFeed outside a message list');
  return v;
}

/**
 * Parts of the snapshot that change with almost every event (unread counts with each message,
 * presence every minute per person) and that no row reads: rows take their own flags.
 */
const ROW_BLIND = new Set(['unread_msgs', 'max_message_id', 'presences', 'recent_private_conversations', 'starred_messages', 'drafts', 'scheduled_messages', 'user_status', 'reminders']);

/** Whether two snapshots differ in anything the rows read. */
export function changedForRows(a: RegisterState, b: RegisterState): boolean {
  if (a === b) return false;
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  for (const k in y) if (!ROW_BLIND.has(k) && x[k] !== y[k]) return true;
  for (const k in x) if (!ROW_BLIND.has(k) && !(k in y)) return true;
  return false;
}

/**
 * The snapshot as the rows see it: the same object until something they read changes, so a new
 * message or a presence ping does not redraw every row on screen (the list's context would).
 */
export function useRowReg(): RegisterState {
  const reg = useReg();
  const kept = useRef(reg);
  if (changedForRows(kept.current, reg)) kept.current = reg;
  return kept.current;
}
