/** Chooses what the main column shows for the current view. */
import type { View } from '../narrow/hash';
import { NarrowView } from '../feed/NarrowView';

export function MainView({ view }: { view: View }) {
  switch (view.kind) {
    case 'narrow':
      return <NarrowView terms={view.terms} />;
    case 'feed':
      return <NarrowView terms={[]} />;
    default:
      // Inbox, recent conversations, drafts, scheduled, settings and administration have
      // views of their own; until one is chosen the combined feed stands in.
      return <NarrowView terms={[]} />;
  }
}
