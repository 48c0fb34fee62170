/**
 * A client's bookkeeping, for the event replay test: applies an event from GET /events to the
 * state a POST /register returned, the way the family's clients keep each register key current.
 * Only the keys the replay test fetches are handled; an event that would change a fetched key
 * and is not handled here throws, so a new kind of event cannot slip through unreplayed.
 *
 * The event shapes are the ones the services produce (@chat/contracts events.ts), read through
 * Pick<> where only part matters.
 */
import type {
  MessageEvent,
  RealmUserEvent,
  SubscriptionEvent,
  SubscriptionObject,
  UserTopicEvent,
} from '@chat/contracts';
import { ROLE, TOPIC_VISIBILITY } from '@chat/contracts';

export type State = Record<string, any>;

/** Who replays: the viewer, and whether their register asked for subscriber lists. */
export interface Viewer {
  userId: number;
  includeSubscribers: boolean;
}
/** An event as GET /events returns it. */
type Event = Record<string, any>;

/** The register keys the replay keeps current (with `fetch_event_types` of the same names). */
export const REPLAYED_EVENT_TYPES = ['message', 'subscription', 'realm_user', 'user_group', 'user_topic', 'realm', 'custom_profile_fields'];

/** Events that change none of the replayed keys (the message list itself is not part of register). */
const NO_STATE = new Set(['update_message', 'delete_message', 'reaction', 'muted_topics', 'heartbeat']);

const SUB_LISTS = ['subscriptions', 'unsubscribed', 'never_subscribed'] as const;

function takeSub(state: State, list: (typeof SUB_LISTS)[number], streamId: number): SubscriptionObject | undefined {
  const i = (state[list] as SubscriptionObject[]).findIndex((s) => s.stream_id === streamId);
  return i < 0 ? undefined : (state[list] as SubscriptionObject[]).splice(i, 1)[0];
}

function applySubscription(state: State, e: SubscriptionEvent, viewer: Viewer): void {
  switch (e.op) {
    case 'add':
      for (const added of e.subscriptions) {
        for (const list of SUB_LISTS) takeSub(state, list, added.stream_id);
        // The event always lists the subscribers; a client that did not ask for them drops them.
        const { subscribers, ...sub } = added;
        state.subscriptions.push(viewer.includeSubscribers ? { ...sub, subscribers } : sub);
      }
      return;
    case 'remove':
      for (const { stream_id } of e.subscriptions) {
        const sub = takeSub(state, 'subscriptions', stream_id);
        if (!sub) continue;
        // The one leaving hears no peer_remove about themselves.
        sub.subscriber_count = Number(sub.subscriber_count) - 1;
        if (Array.isArray(sub.subscribers)) sub.subscribers = sub.subscribers.filter((id: number) => id !== viewer.userId);
        state.unsubscribed.push(sub);
      }
      return;
    case 'update': {
      const sub = (state.subscriptions as SubscriptionObject[]).find((s) => s.stream_id === e.stream_id);
      if (!sub) throw new Error(`subscription update for ${e.stream_id}, which the client is not subscribed to`);
      sub[e.property] = e.value;
      // Two names of one property: the client keeps both.
      if (e.property === 'in_home_view') sub.is_muted = !e.value;
      if (e.property === 'is_muted') sub.in_home_view = !e.value;
      return;
    }
    case 'peer_add':
    case 'peer_remove':
      for (const list of SUB_LISTS) {
        for (const sub of state[list] as SubscriptionObject[]) {
          if (!e.stream_ids.includes(sub.stream_id)) continue;
          const sign = e.op === 'peer_add' ? 1 : -1;
          sub.subscriber_count = Number(sub.subscriber_count) + sign * e.user_ids.length;
          if (Array.isArray(sub.subscribers)) {
            const ids = new Set<number>(sub.subscribers);
            for (const id of e.user_ids) if (sign > 0) ids.add(id); else ids.delete(id);
            sub.subscribers = [...ids].sort((a, b) => a - b);
          }
        }
      }
  }
}

function applyRealmUser(state: State, e: RealmUserEvent, viewer: Viewer): void {
  const people = state.realm_users as Array<Record<string, any>>;
  if (e.op === 'add') {
    people.push(e.person);
    return;
  }
  if (e.op === 'remove') {
    state.realm_users = people.filter((p) => p.user_id !== e.person.user_id);
    return;
  }
  const person = [...people, ...(state.realm_non_active_users as Array<Record<string, any>>)].find((p) => p.user_id === e.person.user_id);
  if (!person) throw new Error(`realm_user update for unknown user ${e.person.user_id}`);
  const { user_id: _id, custom_profile_field: field, ...changed } = e.person as Record<string, any>;
  if (field) {
    if (field.value === null) delete person.profile_data[field.id];
    else person.profile_data[field.id] = { value: field.value, ...(field.rendered_value !== undefined ? { rendered_value: field.rendered_value } : {}) };
  }
  Object.assign(person, changed);
  if ('is_active' in changed) {
    // (De)activation moves the person between the two lists.
    const [from, to] = changed.is_active ? ['realm_non_active_users', 'realm_users'] : ['realm_users', 'realm_non_active_users'];
    state[from] = state[from].filter((p: Record<string, any>) => p !== person);
    state[to].push(person);
  }
  if ('role' in changed) {
    // The User object's older role flags, and the viewer's own top-level ones.
    person.is_owner = changed.role === ROLE.OWNER;
    person.is_admin = changed.role === ROLE.OWNER || changed.role === ROLE.ADMINISTRATOR;
    person.is_guest = changed.role === ROLE.GUEST;
    if (e.person.user_id === viewer.userId) Object.assign(state, { user_role: changed.role, is_owner: person.is_owner, is_admin: person.is_admin, is_guest: person.is_guest });
  }
}

function applyUserGroup(state: State, e: Event): void {
  const groups = state.realm_user_groups as Array<Record<string, any>>;
  if (e.op === 'add') return void groups.push(e.group);
  const group = groups.find((g) => g.id === e.group_id);
  if (!group) throw new Error(`user_group ${e.op} for unknown group ${e.group_id}`);
  const sortedUnion = (a: number[], b: number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y);
  switch (e.op) {
    case 'remove':
      state.realm_user_groups = groups.filter((g) => g !== group);
      return;
    case 'update':
      Object.assign(group, e.data);
      return;
    case 'add_members':
      group.members = sortedUnion(group.members, e.user_ids);
      return;
    case 'remove_members':
      group.members = group.members.filter((id: number) => !e.user_ids.includes(id));
      return;
    case 'add_subgroups':
      group.direct_subgroup_ids = sortedUnion(group.direct_subgroup_ids, e.direct_subgroup_ids);
      return;
    case 'remove_subgroups':
      group.direct_subgroup_ids = group.direct_subgroup_ids.filter((id: number) => !e.direct_subgroup_ids.includes(id));
      return;
    default:
      throw new Error(`user_group op ${e.op} is not replayed`);
  }
}

function applyUserTopic(state: State, e: UserTopicEvent): void {
  const topics = state.user_topics as Array<Omit<UserTopicEvent, 'type'>>;
  const same = (t: Pick<UserTopicEvent, 'stream_id' | 'topic_name'>) => t.stream_id === e.stream_id && t.topic_name.toLowerCase() === e.topic_name.toLowerCase();
  const existing = topics.find(same);
  const { type: _type, id: _id, ...entry } = e as UserTopicEvent & { id: number };
  if (e.visibility_policy === TOPIC_VISIBILITY.INHERIT) state.user_topics = topics.filter((t) => !same(t));
  else if (existing) Object.assign(existing, entry);
  else topics.push(entry);
}

function applyRealm(state: State, e: Event): void {
  if (e.op === 'update') state[`realm_${e.property}`] = e.value;
  else if (e.op === 'update_dict') for (const [k, v] of Object.entries(e.data as object)) state[`realm_${k}`] = v;
  else throw new Error(`realm op ${e.op} is not replayed`);
}

/** Applies one event (as GET /events returned it) to `state`, in place. */
export function applyEvent(state: State, event: Event, viewer: Viewer): void {
  switch (event.type) {
    case 'message':
      state.max_message_id = Math.max(state.max_message_id, (event as Pick<MessageEvent, 'message'>).message.id);
      return;
    case 'subscription':
      return applySubscription(state, event as SubscriptionEvent, viewer);
    case 'realm_user':
      return applyRealmUser(state, event as RealmUserEvent, viewer);
    case 'user_group':
      return applyUserGroup(state, event);
    case 'user_topic':
      return applyUserTopic(state, event as UserTopicEvent);
    case 'realm':
      return applyRealm(state, event);
    case 'custom_profile_fields':
      state.custom_profile_fields = event.fields;
      return;
    default:
      if (!NO_STATE.has(event.type)) throw new Error(`no replay for ${event.type} events`);
  }
}

/** A copy of `state` with `events` applied in order. */
export function replay(state: State, events: Event[], viewer: Viewer): State {
  const out = structuredClone(state);
  for (const e of events) applyEvent(out, e, viewer);
  return out;
}

/** Register bookkeeping that is no state: the queue, and when the answer was made (server_generation is that time here). */
const NOT_STATE = ['queue_id', 'last_event_id', 'msg', 'result', 'server_timestamp', 'server_generation'];

/** The comparable form of a register state: lists in a stable order (clients do not depend on it). */
export function comparable(state: State): State {
  const out = structuredClone(state);
  for (const k of NOT_STATE) delete out[k];
  const byKey = (key: string) => (a: Record<string, any>, b: Record<string, any>) => a[key] - b[key];
  for (const list of SUB_LISTS) out[list]?.sort(byKey('stream_id'));
  out.realm_users?.sort(byKey('user_id'));
  out.realm_non_active_users?.sort(byKey('user_id'));
  out.realm_user_groups?.sort(byKey('id'));
  return out;
}
