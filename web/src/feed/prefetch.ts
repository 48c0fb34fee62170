/**
 * The first page of the view on screen is asked for as soon as a snapshot arrives, not after
 * the whole frame has rendered and the view's effect runs: the fetch and the first render
 * overlap. The view then finds its page loading (or loaded) and does not ask again. The event
 * queue exists by then, so no message falls between the page and the events.
 */
import { currentView } from '../app/route';
import { loadNarrow } from '../state/actions';
import { store } from '../state/store';
import { canMarkRead, narrowInfo } from './narrowInfo';

export function prefetchOnRegister(): () => void {
  let generation = store.get().generation;
  return store.subscribe(() => {
    const s = store.get();
    if (s.generation === generation || !s.reg) return;
    generation = s.generation;
    const view = currentView();
    const terms = view.kind === 'narrow' ? view.terms : view.kind === 'feed' ? [] : null;
    if (!terms) return;
    const near = narrowInfo(terms).near;
    // Called within the store's notification, so the request leaves before React's render of the
    // snapshot (scheduled by its own listener) takes the main thread. The nested update (the
    // page marked loading) is safe: every listener reads the store's latest state.
    void loadNarrow(terms, 'initial', near ?? (canMarkRead(terms) ? 'first_unread' : undefined));
  });
}
