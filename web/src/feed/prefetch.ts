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
    // Out of the store's notification, so the fetch's own updates are not nested in it.
    queueMicrotask(() => void loadNarrow(terms, 'initial', near ?? (canMarkRead(terms) ? 'first_unread' : undefined)));
  });
}
