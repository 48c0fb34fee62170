/**
 * Events that say a list outside the register snapshot changed and that the store keeps
 * nothing of (realm_export for the data exports): the screen showing the list fetches it again
 * when one arrives. Their handlers leave the state as it is and only tell the screens
 * listening. Only for types the store does not handle: registering one replaces its handler.
 */
import { addHandlers } from '../state/apply';

export type ServerEvent = Record<string, unknown> & { type: string };
type Listener = (event: ServerEvent) => void;

const listeners = new Map<string, Set<Listener>>();

function notify(event: ServerEvent): void {
  for (const l of listeners.get(event.type) ?? []) l(event);
}

export function onServerEvent(type: string, listener: Listener): () => void {
  let set = listeners.get(type);
  if (!set) {
    set = new Set();
    listeners.set(type, set);
    addHandlers({
      [type]: (state, event) => {
        // After the store's update, not during it: listeners start fetches and set React state.
        queueMicrotask(() => notify(event as ServerEvent));
        return state;
      },
    });
  }
  set.add(listener);
  return () => set.delete(listener);
}
