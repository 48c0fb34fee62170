/**
 * The app's one store. Everything it holds came from the server: the /register snapshot, kept
 * current by applying events (state/apply/*), and the message pages and topic lists fetched for
 * the views; the only local additions are messages being sent (local echo) and who is typing.
 * Components read it through `useAppState(selector)`.
 *
 * Exports: AppState (status, reg, users, messages, narrows, outbox, typing, topics,
 * invitesVersion, lastMove, generation), TopicMove, ChannelTopics, store, useAppState, useReg, indexUsers, initialState, freshState.
 */
import { useSyncExternalStore } from 'react';
import type { Message, RegisterState, User } from '@chat/client';

export type ConnectionStatus = 'connecting' | 'live' | 'reconnecting' | 'fatal';

/** The message ids known for one narrow, oldest first, and whether either end is reached. */
export interface NarrowMessages {
  ids: number[];
  foundOldest: boolean;
  foundNewest: boolean;
  loading: boolean;
  error?: string;
  /**
   * Set when an event changed which messages belong here in a way the app cannot work out
   * alone (a move of messages it has not fetched, a search view): the view refetches.
   */
  stale?: boolean;
}

/** A message sent and not yet acknowledged by its own `message` event (local echo). */
export interface OutboxItem {
  localId: string;
  queueId: string | null;
  params: { type: 'stream'; to: number; topic: string; content: string } | { type: 'direct'; to: number[]; content: string };
  timestamp: number;
  /** Set once the server answered with the message's id. */
  messageId?: number;
  failed?: string;
}

export interface TypingEntry {
  /** typingKey(): `stream:<id>:<topic lowercased>` or `dm:<sorted ids of everyone>` */
  key: string;
  userId: number;
  /** Date.now() after which the entry no longer counts (the family's 15 s). */
  expires: number;
}

/** The latest move of messages between topics or channels (an open view of the old topic may follow). */
export interface TopicMove {
  streamId: number;
  topic: string;
  newStreamId: number;
  newTopic: string;
  propagateMode: 'change_one' | 'change_later' | 'change_all';
  messageIds: number[];
}

/** A channel's topics, newest first: from GET /users/me/<id>/topics and the messages seen since. */
export interface ChannelTopics {
  topics: Array<{ name: string; max_id: number }>;
  /** True once the server's list arrived (before that only topics seen in messages are known). */
  complete: boolean;
  loading?: boolean;
}

export interface AppState {
  status: ConnectionStatus;
  statusMessage?: string;
  reg: RegisterState | null;
  /** Active and deactivated people and bots by id, from the snapshot and realm_user events. */
  users: Map<number, User>;
  messages: Map<number, Message>;
  /** By narrowKey(). */
  narrows: Record<string, NarrowMessages>;
  outbox: OutboxItem[];
  typing: TypingEntry[];
  /** By channel id. */
  topics: Record<number, ChannelTopics>;
  lastMove?: TopicMove;
  /** Bumped by each invites_changed event: the invitations list refetches when it changes. */
  invitesVersion: number;
  /** Bumped whenever a fresh snapshot replaces the old one (re-register): views refetch. */
  generation: number;
}

export const initialState: AppState = {
  status: 'connecting',
  reg: null,
  users: new Map(),
  messages: new Map(),
  narrows: {},
  outbox: [],
  typing: [],
  topics: {},
  invitesVersion: 0,
  generation: 0,
};

/**
 * The state after a fresh /register: views refetch (messages, pages and topics go, the
 * generation moves on), and messages still being sent stay in the outbox.
 */
export function freshState(s: AppState, reg: RegisterState): AppState {
  return {
    ...s,
    reg,
    users: indexUsers(reg),
    status: 'live',
    statusMessage: undefined,
    messages: new Map(),
    narrows: {},
    topics: {},
    typing: [],
    // Acknowledged ones go when a fetched page or their event shows the message itself.
    outbox: s.outbox,
    generation: s.generation + 1,
  };
}

type Listener = () => void;

export class Store {
  private state: AppState = initialState;
  private readonly listeners = new Set<Listener>();

  get = (): AppState => this.state;

  set(update: (s: AppState) => AppState): void {
    const next = update(this.state);
    if (next === this.state) return;
    this.state = next;
    for (const l of this.listeners) l();
  }

  subscribe = (l: Listener): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
}

export const store = new Store();

/** Re-renders the caller when the selected value changes (by Object.is). */
export function useAppState<T>(select: (s: AppState) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.get()));
}

/** The snapshot; components under <Ready> may rely on it being there. */
export function useReg(): RegisterState {
  const reg = useAppState((s) => s.reg);
  if (!reg) throw new Error('useReg outside a registered app');
  return reg;
}

export function indexUsers(reg: RegisterState): Map<number, User> {
  const users = new Map<number, User>();
  for (const u of [...reg.realm_users, ...(reg.realm_non_active_users ?? []), ...(reg.cross_realm_bots ?? [])]) users.set(u.user_id, u);
  return users;
}
