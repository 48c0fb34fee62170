/** What every row of a list shares, computed once per snapshot change rather than per row. */
import { createContext, useContext } from 'react';
import type { RegisterState } from '@chat/client';
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
