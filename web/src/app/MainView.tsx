/** Chooses what the main column shows for the current view. */
import { Suspense, type ReactNode } from 'react';
import type { View } from '../narrow/hash';
import { NarrowView } from '../feed/NarrowView';
import { Compose } from '../compose/Compose';
import { DraftsView } from '../compose/DraftsView';
import { ScheduledView } from '../compose/ScheduledView';

import { InboxView } from '../views/Inbox';
import { RecentView } from '../views/Recent';
import { lazyScreen } from './lazy';

// Organization administration is rarely opened: its code loads only then.
const AdminView = lazyScreen(() => import('../admin/AdminView'));

// Personal settings are a chunk of their own, fetched when first opened.
const SettingsView = lazyScreen(() => import('../settings/SettingsView'));

/**
 * Views that are not a narrow still have the compose box under them, so `c`, `x` and every
 * "new message" button open it wherever the person is.
 */
function WithCompose({ children }: { children: ReactNode }) {
  return (
    <div className="narrow">
      <div className="view-frame">{children}</div>
      <Compose target={null} />
    </div>
  );
}

export function MainView({ view }: { view: View }) {
  switch (view.kind) {
    case 'narrow':
      return <NarrowView terms={view.terms} />;
    case 'feed':
      return <NarrowView terms={[]} />;
    case 'settings':
      return <Suspense fallback={<div className="feed-status" role="status">…</div>}><SettingsView section={view.section} /></Suspense>;
    case 'inbox':
      return <WithCompose><InboxView /></WithCompose>;
    case 'recent':
      return <WithCompose><RecentView /></WithCompose>;
    // These two lay out their own compose box under their lists.
    case 'drafts':
      return <DraftsView />;
    case 'scheduled':
      return <ScheduledView />;
    case 'organization':
      return (
        <Suspense fallback={null}>
          <AdminView section={view.section} />
        </Suspense>
      );
    default:
      // Inbox, recent conversations, drafts, scheduled, settings and administration have
      // views of their own; until one is chosen the combined feed stands in.
      return <NarrowView terms={[]} />;
  }
}
