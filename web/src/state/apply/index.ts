/**
 * Applying one event to the store: a pure function per event type, so the same code runs in
 * the browser and in the unit tests (on the server's own event fixtures). An event type the
 * app does not show is ignored; one that changes what a view shows must be handled here.
 */
import type { ClientEvent } from '@chat/client';
import type { AppState } from '../store';
import { messageHandlers } from './messages';

/**
 * An event's fields as the server sent them: the handler of each type reads the fields the
 * family documents for it (typing each of ~80 event shapes buys little over the fixtures).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LooseEvent = ClientEvent & Record<string, any>;

export type EventHandler = (state: AppState, event: LooseEvent) => AppState;

const handlers: Record<string, EventHandler> = {
  ...messageHandlers,
  heartbeat: (s) => s,
};

/** Registers more handlers (each domain's module adds its own). */
export function addHandlers(more: Record<string, EventHandler>): void {
  Object.assign(handlers, more);
}

export function applyEvent(state: AppState, event: ClientEvent): AppState {
  const handler = handlers[event.type];
  return handler ? handler(state, event as LooseEvent) : state;
}

export function applyEvents(state: AppState, events: ClientEvent[]): AppState {
  return events.reduce(applyEvent, state);
}
