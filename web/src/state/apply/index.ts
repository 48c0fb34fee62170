/**
 * Applying events to the store: a pure function per event type, so the same code runs in the
 * browser and in the unit tests (on real events recorded from the server, test/fixtures). Each
 * domain's handlers live in their own module; an event type the app does not show is ignored.
 *
 * Exports: applyEvent, applyEvents, addHandlers, handledEventTypes, LooseEvent, EventHandler.
 */
import type { ClientEvent } from '@chat/client';
import { unmutedUnreadCount } from '../muting';
import type { AppState } from '../store';
import { channelHandlers } from './channels';
import { flagHandlers } from './flags';
import { messageHandlers } from './messages';
import { moveHandlers } from './moves';
import { peopleHandlers } from './people';
import { personalHandlers } from './personal';
import { realmHandlers } from './realm';

/**
 * An event's fields as the server sent them: each handler reads the fields the family documents
 * for its type (typing each of ~80 event shapes buys little over testing on real ones).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LooseEvent = ClientEvent & Record<string, any>;

export type EventHandler = (state: AppState, event: LooseEvent) => AppState;

const handlers: Record<string, EventHandler> = {
  ...messageHandlers,
  ...moveHandlers,
  ...flagHandlers,
  ...channelHandlers,
  ...peopleHandlers,
  ...realmHandlers,
  ...personalHandlers,
  heartbeat: (s) => s,
};

/**
 * Registers more handlers (a later module may add its own). One for a type the store already
 * handles runs after the store's own, so it can never undo the store's update.
 */
export function addHandlers(more: Record<string, EventHandler>): void {
  for (const [type, handler] of Object.entries(more)) {
    const own = handlers[type];
    handlers[type] = own ? (s, e) => handler(own(s, e), e) : handler;
  }
}

export function handledEventTypes(): string[] {
  return Object.keys(handlers);
}

export function applyEvent(state: AppState, event: ClientEvent): AppState {
  const handler = handlers[event.type];
  if (!handler) return state;
  const next = handler(state, event as LooseEvent);
  const before = state.reg;
  const reg = next.reg;
  // The unread count leaves muted messages out, so it follows mutes as well as messages.
  if (reg && before && (reg.unread_msgs !== before.unread_msgs || reg.subscriptions !== before.subscriptions || reg.user_topics !== before.user_topics)) {
    const count = unmutedUnreadCount(reg);
    if (count !== reg.unread_msgs.count) return { ...next, reg: { ...reg, unread_msgs: { ...reg.unread_msgs, count } } };
  }
  return next;
}

export function applyEvents(state: AppState, events: ClientEvent[]): AppState {
  return events.reduce(applyEvent, state);
}
