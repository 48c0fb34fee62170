/**
 * The strongest check of the event handlers: real events recorded from the server
 * (fixtures/event-replay.json, written by e2e/lib/web-state-fixtures.ts), applied to the
 * register snapshot they followed, must give what a fresh /register gave after them, for the
 * member and the administrator alike; and the message lists and a channel's topics kept by the
 * events must equal the pages GET /messages and GET /users/me/<id>/topics gave.
 */
import type { ClientEvent, Message, RegisterState } from '@chat/client';
import { applyEvents } from '../apply';
import { freshState, indexUsers, initialState, type AppState } from '../store';
import fixtures from './fixtures/event-replay.json';

type State = Record<string, unknown>;
interface Delta { changed: State; removed: string[] }
interface Page { messages: Message[]; found_oldest: boolean; found_newest: boolean }
interface Viewer {
  user_id: number;
  initial: State;
  initial_pages: Record<string, Page>;
  initial_topics: Array<{ name: string; max_id: number }> | null;
  steps: Array<{ name: string; events: ClientEvent[]; after: Delta; pages: Delta; topics: Array<{ name: string; max_id: number }> | null }>;
}

const viewers = (fixtures as unknown as { viewers: Record<string, Viewer> }).viewers;

function rebuild(prev: State, d: Delta): State {
  const next = { ...prev, ...d.changed };
  for (const k of d.removed) delete next[k];
  return next;
}

/**
 * Register keys the app does not keep current from events, each for a reason: bookkeeping that
 * differs on every register, and fields the server derives that no event carries.
 */
const NOT_KEPT = new Set([
  'queue_id', 'last_event_id', 'msg', 'result', 'server_timestamp', 'server_generation', 'presence_last_update_id',
  // Derived from the realm's group settings and one's role; the permission helpers compute them.
  'can_create_public_streams', 'can_create_private_streams', 'can_create_web_public_streams', 'can_create_streams', 'can_subscribe_other_users', 'can_invite_others_to_realm',
]);

const byNum = (key: string) => (a: Record<string, any>, b: Record<string, any>) => a[key] - b[key];
const byStr = (...keys: string[]) => (a: Record<string, any>, b: Record<string, any>) => keys.map((k) => String(a[k]).toLowerCase()).join('\u0000').localeCompare(keys.map((k) => String(b[k]).toLowerCase()).join('\u0000'));

/** The snapshot in a stable order (clients do not depend on the order of these lists). */
function comparable(reg: State): State {
  const out = structuredClone(reg) as Record<string, any>;
  for (const k of NOT_KEPT) delete out[k];
  // The server announces its lazily made notification bot with realm_user add, which no client
  // can tell from a new person; the app indexes both lists alike, so they compare as one.
  const system = new Set((out.cross_realm_bots ?? []).map((u: { user_id: number }) => u.user_id));
  out.realm_users = [...(out.realm_users ?? []), ...(out.cross_realm_bots ?? [])].map(({ is_system_bot: _s, ...u }: Record<string, any>) => u);
  delete out.cross_realm_bots;
  // Its fresh /register also lists those bots in realm_bots, which no realm_bot event announced.
  out.realm_bots = out.realm_bots?.filter((b: { user_id: number }) => !system.has(b.user_id));
  // Deleting the newest message lowers max_message_id, which no event says.
  delete out.max_message_id;
  for (const k of ['subscriptions', 'unsubscribed', 'never_subscribed', 'streams']) out[k]?.sort(byNum('stream_id'));
  for (const k of ['realm_users', 'realm_non_active_users', 'realm_bots']) out[k]?.sort(byNum('user_id'));
  for (const k of ['realm_user_groups', 'drafts', 'channel_folders', 'saved_snippets']) out[k]?.sort(byNum('id'));
  out.scheduled_messages?.sort(byNum('scheduled_message_id'));
  out.user_topics?.sort(byStr('stream_id', 'topic_name'));
  out.realm_domains?.sort(byStr('domain'));
  const u = out.unread_msgs;
  if (u) {
    u.streams.sort(byStr('stream_id', 'topic'));
    u.pms.sort(byNum('other_user_id'));
    u.huddles.sort(byStr('user_ids_string'));
    u.mentions.sort((a: number, b: number) => a - b);
  }
  for (const g of out.realm_user_groups ?? []) {
    g.members.sort((a: number, b: number) => a - b);
    g.direct_subgroup_ids.sort((a: number, b: number) => a - b);
  }
  return out;
}

/** JSON with every object's keys in order (the server's key order is no state). */
function canon(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
}

/** Where the two differ, as `path: got → want` lines, so a failure names what went wrong. */
function differences(got: unknown, want: unknown, path = '', out: string[] = []): string[] {
  if (canon(got) === canon(want)) return out;
  const isObj = (x: unknown) => x !== null && typeof x === 'object';
  if (isObj(got) && isObj(want) && Array.isArray(got) === Array.isArray(want)) {
    const g = got as Record<string, unknown>;
    const w = want as Record<string, unknown>;
    for (const k of new Set([...Object.keys(g), ...Object.keys(w)])) differences(g[k], w[k], `${path}.${k}`, out);
    return out;
  }
  out.push(`${path}: ${canon(got)?.slice(0, 300)} → ${canon(want)?.slice(0, 300)}`);
  return out;
}

/** What a message list shows of a message. */
function shown(m: Message): State {
  return {
    id: m.id,
    type: m.type,
    stream_id: m.stream_id,
    display_recipient: typeof m.display_recipient === 'string' ? m.display_recipient : (m.display_recipient as Array<{ id: number }>).map((u) => u.id).sort(),
    subject: m.subject,
    content: m.content,
    sender_full_name: m.sender_full_name,
    flags: [...m.flags].sort(),
    reactions: m.reactions.map((r) => `${r.emoji_code}/${r.reaction_type}/${r.user_id}`).sort(),
    submessages: ((m.submessages ?? []) as Array<{ id: number; content: string }>).map((x) => `${x.id}:${x.content}`),
  };
}

function withPages(s: AppState, pages: Record<string, Page>): AppState {
  const messages = new Map(s.messages);
  const narrows = { ...s.narrows };
  for (const [key, page] of Object.entries(pages)) {
    for (const m of page.messages) messages.set(m.id, m);
    narrows[key] = { ids: page.messages.map((m) => m.id), foundOldest: page.found_oldest, foundNewest: page.found_newest, loading: false };
  }
  return { ...s, messages, narrows };
}

function channelOf(pages: Record<string, Page>): number {
  const key = Object.keys(pages).find((k) => k.startsWith('[["channel"'))!;
  return Number((JSON.parse(key) as string[][])[0]![1]);
}

describe.each(Object.keys(viewers))('events replayed for the %s', (name) => {
  const viewer = viewers[name]!;
  const channel = channelOf(viewer.initial_pages);
  let state = withPages(freshState(initialState, viewer.initial as unknown as RegisterState), viewer.initial_pages);
  if (viewer.initial_topics) state = { ...state, topics: { [channel]: { topics: viewer.initial_topics, complete: true } } };
  let want = viewer.initial;
  let pages = viewer.initial_pages;
  // Each step starts from the previous fresh register (so a failure names its own step) and
  // the message lists the events have kept so far, as in the browser.
  const steps = viewer.steps.map((step) => {
    const before = want as unknown as RegisterState;
    state = applyEvents({ ...state, reg: before, users: indexUsers(before) }, step.events);
    want = rebuild(want, step.after);
    pages = rebuild(pages, step.pages) as Record<string, Page>;
    return { step, state, want, pages };
  });

  it.each(steps.map((x) => [x.step.name, x] as const))('%s: the snapshot equals a fresh register', (_n, { state: s, want: w }) => {
    expect(differences(comparable(s.reg as unknown as State), comparable(w))).toEqual([]);
  });

  it.each(steps.map((x) => [x.step.name, x] as const))('%s: message lists equal fresh pages', (_n, { state: s, pages: p }) => {
    for (const [key, page] of Object.entries(p)) {
      const n = s.narrows[key]!;
      // A list the events could not keep exact says so and refetches.
      if (n.stale) continue;
      const got = n.ids.map((id) => shown(s.messages.get(id)!));
      expect({ narrow: key, messages: got }).toEqual({ narrow: key, messages: page.messages.map(shown) });
    }
  });

  it('keeps every message list exact (none had to be marked stale)', () => {
    const stale = steps.flatMap((x) => Object.entries(x.state.narrows).filter(([, n]) => n.stale).map(([k]) => `${x.step.name}: ${k}`));
    expect(stale).toEqual([]);
  });

  it.each(steps.map((x) => [x.step.name, x] as const))('%s: the channel\'s topics equal the server\'s', (_n, { state: s, step }) => {
    if (!step.topics) return;
    expect(s.topics[channel]?.topics.map((t) => [t.name, t.max_id])).toEqual(step.topics.map((t) => [t.name, t.max_id]));
  });
});

it('the fixtures hold every kind of event the app shows', () => {
  const types = new Set(Object.values(viewers).flatMap((v) => v.steps).flatMap((x) => x.events.map((e) => (e as { op?: string }).op ? `${e.type}/${(e as { op?: string }).op}` : e.type)));
  for (const t of ['message', 'update_message', 'delete_message', 'update_message_flags/add', 'update_message_flags/remove', 'reaction/add', 'reaction/remove', 'submessage', 'subscription/add', 'subscription/remove', 'subscription/update', 'subscription/peer_add', 'subscription/peer_remove', 'stream/create', 'stream/update', 'realm_user/add', 'realm_user/update', 'user_group/add', 'user_group/add_members', 'user_group/remove_members', 'user_group/add_subgroups', 'user_group/update', 'realm/update', 'realm/update_dict', 'user_settings/update', 'typing/start', 'typing/stop', 'presence', 'user_status', 'drafts/add', 'drafts/update', 'drafts/remove', 'scheduled_messages/add', 'scheduled_messages/update', 'scheduled_messages/remove', 'user_topic', 'muted_users', 'realm_emoji/update', 'alert_words', 'realm_linkifiers', 'realm_playgrounds', 'custom_profile_fields', 'default_streams', 'realm_domains/add', 'realm_domains/change', 'realm_domains/remove', 'channel_folder/add', 'channel_folder/update', 'default_stream_groups', 'realm_bot/add', 'realm_bot/update', 'realm_user_settings_defaults/update', 'invites_changed', 'saved_snippets/add', 'saved_snippets/update', 'saved_snippets/remove', 'navigation_view/add', 'navigation_view/update']) {
    expect({ type: t, recorded: types.has(t) }).toEqual({ type: t, recorded: true });
  }
});
