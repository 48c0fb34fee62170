/**
 * Writes the web app's state fixtures: real events and register snapshots from a private
 * cluster, so the web app's unit tests (web/src/state/test/replay.test.ts) check its event
 * handlers against the server without running one.
 *
 *   node --import tsx e2e/lib/web-state-fixtures.ts [output.json]
 *
 * (default output web/src/state/test/fixtures/event-replay.json). Needs Postgres and Redis, as
 * the end-to-end tests do. Run it again after a change to what the server sends, and commit the
 * file.
 *
 * Two viewers (a member and an administrator) register as the web app does (its own
 * REGISTER_PARAMS) and keep one event queue through a series of steps, each a change made through
 * the API (messages, moves, flags, channels, people, settings, ...). For each step the file holds
 * every event the viewer's queue got, the fresh register after it, the message pages of a few
 * narrows as GET /messages gives them, and a channel's topics. Snapshots and pages are stored as
 * the keys that changed since the previous step (`changed` and `removed`), which keeps the file
 * small; the test rebuilds them.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { seedRealm, setupTestEnv, startCluster, type Cluster, type SeededRealm, type SeededUser, type TestEnv } from '@chat/testing';
import { REGISTER_PARAMS } from '../../web/src/events/register-params';
import { client, type Body, type Event } from './event-queues';
import { PNG } from './event-table';

type Person = 'owner' | 'admin' | 'member' | 'member2';
const VIEWERS = ['member', 'admin'] as const;
type Viewer = (typeof VIEWERS)[number];

/** Register bookkeeping that is no state (differs on every register). */
const NOT_STATE = ['queue_id', 'last_event_id', 'msg', 'result', 'server_timestamp', 'server_generation'];

interface Delta { changed: Record<string, unknown>; removed: string[] }

interface ViewerRecord {
  user_id: number;
  /** The first register, whole. */
  initial: Record<string, unknown>;
  /** narrowKey-like JSON of each narrow → the first page. */
  initial_pages: Record<string, unknown>;
  initial_topics: unknown;
  steps: Array<{ name: string; events: Event[]; after: Delta; pages: Delta; topics: unknown }>;
}

const out = process.argv[2] ?? path.join(__dirname, '../../web/src/state/test/fixtures/event-replay.json');
let env: TestEnv;
let realm: SeededRealm;
let cluster: Cluster;
const call = client(() => cluster.url);
const skipped: string[] = [];
let markers = 0;

async function ok(method: string, p: string, who: Person, params: Record<string, unknown> = {}, files?: Parameters<typeof call>[4]): Promise<Body> {
  const res = await call(method, p, realm[who], params, files);
  if (res.body.result !== 'success') {
    // A change the server does not make yet is left out of the fixtures, and said so.
    skipped.push(`${method} ${p} as ${who}: ${res.status} ${res.body.msg ?? ''}`);
    return {};
  }
  return res.body;
}

interface Queue { user: SeededUser; queueId: string; lastEventId: number; record: ViewerRecord; lastAfter: Record<string, unknown>; lastPages: Record<string, unknown> }
const queues = new Map<Viewer, Queue>();

async function register(user: SeededUser): Promise<Body> {
  const res = await call('POST', '/register', user, REGISTER_PARAMS);
  if (res.body.result !== 'success') throw new Error(`register failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

function stateOf(reg: Body): Record<string, unknown> {
  const s = { ...reg };
  for (const k of NOT_STATE) delete s[k];
  return s;
}

function delta(prev: Record<string, unknown>, next: Record<string, unknown>): Delta {
  const changed: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(next)) if (JSON.stringify(prev[k]) !== JSON.stringify(v)) changed[k] = v;
  return { changed, removed: Object.keys(prev).filter((k) => !(k in next)) };
}

let verona = 0;
let mantua = 0;

/** The narrows whose pages are recorded: the combined feed, a channel, a DM and starred. */
function narrows(): Record<string, Array<{ operator: string; operand: unknown }>> {
  return {
    '[]': [],
    [JSON.stringify([['channel', String(verona)]])]: [{ operator: 'channel', operand: verona }],
    [JSON.stringify([['dm', String(realm.member2.id)]])]: [{ operator: 'dm', operand: [realm.member2.id] }],
    [JSON.stringify([['is', 'starred']])]: [{ operator: 'is', operand: 'starred' }],
  };
}

async function pages(user: SeededUser): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = {};
  for (const [key, narrow] of Object.entries(narrows())) {
    const res = await call('GET', '/messages', user, { anchor: 'newest', num_before: 100, num_after: 0, narrow, apply_markdown: true, client_gravatar: false });
    if (res.body.result !== 'success') throw new Error(`GET /messages failed: ${JSON.stringify(res.body)}`);
    const { messages, found_oldest, found_newest } = res.body;
    result[key] = { messages, found_oldest, found_newest };
  }
  return result;
}

async function topics(user: SeededUser): Promise<unknown> {
  const res = await call('GET', `/users/me/${verona}/topics`, user);
  return res.body.result === 'success' ? res.body.topics : null;
}

/** Every event of the queue up to and including the realm description `marker`. */
async function readThrough(q: Queue, marker: string): Promise<Event[]> {
  const events: Event[] = [];
  const deadline = Date.now() + 20000;
  for (;;) {
    const res = await call('GET', '/events', q.user, { queue_id: q.queueId, last_event_id: String(q.lastEventId), dont_block: 'true' });
    if (res.body.result !== 'success') throw new Error(`GET /events failed: ${JSON.stringify(res.body)}`);
    for (const e of res.body.events as Event[]) {
      q.lastEventId = e.id;
      if (e.type === 'heartbeat') continue;
      events.push(e);
      if (e.type === 'realm' && e.property === 'description' && e.value === marker) return events;
    }
    if (Date.now() > deadline) throw new Error(`the marker never arrived; got ${JSON.stringify(events.map((e) => e.type))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Makes `change`, then records each viewer's events, fresh register, pages and topics. */
async function step(name: string, change: () => Promise<unknown>): Promise<void> {
  await change();
  const marker = `marker ${++markers}`;
  await ok('PATCH', '/realm', 'owner', { description: marker });
  for (const viewer of VIEWERS) {
    const q = queues.get(viewer)!;
    const events = await readThrough(q, marker);
    const fresh = await register(q.user);
    await call('DELETE', '/events', q.user, { queue_id: fresh.queue_id });
    const after = stateOf(fresh);
    const now = await pages(q.user);
    q.record.steps.push({ name, events, after: delta(q.lastAfter, after), pages: delta(q.lastPages, now), topics: await topics(q.user) });
    q.lastAfter = after;
    q.lastPages = now;
  }
  console.log(`${name}: ${queues.get('member')!.record.steps.at(-1)!.events.length} events for the member`);
}

const send = async (who: Person, to: string | number | number[], topicOrContent: string, content?: string): Promise<number> => {
  const params = content === undefined ? { type: 'direct', to, content: topicOrContent } : { type: 'stream', to, topic: topicOrContent, content };
  return (await ok('POST', '/messages', who, params)).id as number;
};

async function main(): Promise<void> {
  env = await setupTestEnv();
  realm = await seedRealm(env.db);
  cluster = await startCluster(env, { env: { EVENTS_HEARTBEAT_SECONDS: '5' } });
  const ids = (who: Person[]) => who.map((p) => realm[p].id);
  await ok('POST', '/users/me/subscriptions', 'owner', { subscriptions: [{ name: 'Verona' }], principals: ids(['owner', 'admin', 'member', 'member2']) });
  await ok('POST', '/users/me/subscriptions', 'owner', { subscriptions: [{ name: 'Mantua' }], principals: ids(['owner', 'admin', 'member']) });
  verona = (await ok('GET', '/get_stream_id', 'member', { stream: 'Verona' })).stream_id;
  mantua = (await ok('GET', '/get_stream_id', 'member', { stream: 'Mantua' })).stream_id;
  const early = await send('member2', 'Verona', 'balcony', 'But soft');
  await send('member2', [realm.member.id], 'Good morrow, my lord');
  await send('admin', [realm.member.id, realm.member2.id], 'A word, both of you');
  await ok('POST', '/messages/flags', 'member', { messages: [early], op: 'add', flag: 'starred' });
  for (const viewer of VIEWERS) {
    const reg = await register(realm[viewer]);
    const initialPages = await pages(realm[viewer]);
    const record: ViewerRecord = { user_id: realm[viewer].id, initial: stateOf(reg), initial_pages: initialPages, initial_topics: await topics(realm[viewer]), steps: [] };
    queues.set(viewer, { user: realm[viewer], queueId: reg.queue_id, lastEventId: reg.last_event_id, record, lastAfter: stateOf(reg), lastPages: initialPages });
  }
  const member = queues.get('member')!;

  let first = 0;
  let second = 0;
  let mention = 0;
  let poll = 0;
  await step('messages: new ones, a mention, DMs and the viewer\'s own with a local id', async () => {
    first = await send('member2', 'Verona', 'balcony', 'What light');
    second = await send('member2', 'Verona', 'balcony', 'through yonder window');
    mention = await send('admin', 'Verona', 'court', '@**King Hamlet** the king is here');
    await send('member2', [realm.member.id], 'Another word');
    await send('admin', [realm.member.id, realm.member2.id], 'And again');
    await ok('POST', '/messages', 'member', { type: 'stream', to: 'Verona', topic: 'court', content: 'Mine own', queue_id: member.queueId, local_id: '17.1' });
    await send('member', [realm.member2.id], 'To myself and Othello');
  });
  await step('an edit of content', () => ok('PATCH', `/messages/${first}`, 'member2', { content: 'What light breaks' }));
  await step('reactions', async () => {
    await ok('POST', `/messages/${second}/reactions`, 'member', { emoji_name: 'heart' });
    await ok('POST', `/messages/${second}/reactions`, 'admin', { emoji_name: 'octopus' });
    await ok('DELETE', `/messages/${second}/reactions`, 'admin', { emoji_name: 'octopus' });
  });
  await step('flags: read, starred', async () => {
    await ok('POST', '/messages/flags', 'member', { messages: [first], op: 'add', flag: 'read' });
    await ok('POST', '/messages/flags', 'member', { messages: [second, mention], op: 'add', flag: 'starred' });
    await ok('POST', '/messages/flags', 'member', { messages: [early], op: 'remove', flag: 'starred' });
  });
  await step('mark as unread from a narrow (message_details)', () =>
    ok('POST', '/messages/flags/narrow', 'member', { anchor: 'oldest', num_before: 0, num_after: 1000, narrow: [{ operator: 'channel', operand: verona }], op: 'remove', flag: 'read', include_anchor: true }),
  );
  await step('a topic moved and resolved', async () => {
    await ok('PATCH', `/messages/${first}`, 'admin', { topic: 'orchard', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false });
    await ok('PATCH', `/messages/${first}`, 'admin', { topic: '✔ orchard', propagate_mode: 'change_all' });
  });
  await step('a message moved to another channel', () => ok('PATCH', `/messages/${second}`, 'admin', { stream_id: mantua, propagate_mode: 'change_one', send_notification_to_old_thread: false, send_notification_to_new_thread: false }));
  await step('a poll and a vote (submessages)', async () => {
    poll = await send('member2', 'Verona', 'votes', '/poll Shall I compare thee?\nYes\nNo');
    await ok('POST', '/submessage', 'member', { message_id: poll, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) });
  });
  await step('deletions: one message and a topic', async () => {
    await ok('DELETE', `/messages/${mention}`, 'admin');
    await send('member2', 'Verona', 'doomed', 'Alas');
    await send('member2', 'Verona', 'doomed', 'Alas again');
    await ok('POST', `/streams/${verona}/delete_topic`, 'admin', { topic_name: 'doomed' });
  });
  await step('mark all as read', () => ok('POST', '/mark_all_as_read', 'member'));
  let elsinore = 0;
  await step('channels: create, join, properties', async () => {
    await ok('POST', '/users/me/subscriptions', 'admin', { subscriptions: [{ name: 'Elsinore', description: 'The *castle*' }] });
    elsinore = (await ok('GET', '/get_stream_id', 'admin', { stream: 'Elsinore' })).stream_id;
    await ok('POST', '/users/me/subscriptions', 'member', { subscriptions: [{ name: 'Elsinore' }] });
    await ok('POST', '/users/me/subscriptions/properties', 'member', {
      subscription_data: [
        { stream_id: elsinore, property: 'color', value: '#c2c2c2' },
        { stream_id: elsinore, property: 'pin_to_top', value: true },
        { stream_id: verona, property: 'is_muted', value: true },
        { stream_id: verona, property: 'desktop_notifications', value: true },
      ],
    });
    await ok('POST', '/users/me/subscriptions', 'owner', { subscriptions: [{ name: 'Mantua' }], principals: ids(['member2']) });
  });
  await step('channels: update, leave, archive', async () => {
    await ok('PATCH', `/streams/${elsinore}`, 'admin', { description: 'Something is *rotten*', new_name: 'Elsinore Castle' });
    await ok('DELETE', '/users/me/subscriptions', 'owner', { subscriptions: ['Mantua'], principals: ids(['member2']) });
    await ok('DELETE', '/users/me/subscriptions', 'member', { subscriptions: ['Mantua'] });
    await ok('POST', '/users/me/subscriptions', 'owner', { subscriptions: [{ name: 'Cyprus' }], invite_only: true, principals: ids(['owner', 'member']) });
    await ok('DELETE', `/streams/${elsinore}`, 'admin');
  });
  let newcomer = 0;
  await step('people: name, role, a newcomer, deactivation', async () => {
    await ok('PATCH', `/users/${realm.member2.id}`, 'admin', { full_name: 'Othello the Moor' });
    await ok('PATCH', `/users/${realm.member2.id}`, 'owner', { role: 300 });
    newcomer = (await ok('POST', '/users', 'admin', { email: 'laertes@chat.test', password: 'poisoned-rapier-at-dawn', full_name: 'Laertes' })).user_id;
    await ok('DELETE', `/users/${newcomer}`, 'admin');
  });
  await step('people: reactivation, profile fields, avatar, timezone', async () => {
    await ok('POST', `/users/${newcomer}/reactivate`, 'admin');
    const field = (await ok('POST', '/realm/profile_fields', 'admin', { name: 'House', field_type: 1, hint: 'Montague or Capulet' })).id;
    if (field) await ok('PATCH', '/users/me/profile_data', 'member2', { data: [{ id: field, value: 'Venice' }] });
    await ok('POST', '/users/me/avatar', 'member2', {}, { files: [{ field: 'file', name: 'me.png', type: 'image/png', data: PNG }] });
    await ok('PATCH', '/settings', 'member2', { timezone: 'Asia/Nicosia' });
    await ok('PATCH', `/users/${realm.member2.id}`, 'owner', { role: 400 });
  });
  await step('bots', async () => {
    const bot = (await ok('POST', '/bots', 'member', { full_name: 'Yorick', short_name: 'yorick' })).user_id;
    if (bot) await ok('PATCH', `/bots/${bot}`, 'member', { full_name: 'Poor Yorick' });
    const other = (await ok('POST', '/bots', 'member', { full_name: 'Osric', short_name: 'osric' })).user_id;
    if (other) await ok('DELETE', `/bots/${other}`, 'member');
  });
  await step('organization settings', async () => {
    const reg = await register(realm.owner);
    await call('DELETE', '/events', realm.owner, { queue_id: reg.queue_id });
    const groups = reg.realm_user_groups as Array<{ id: number; name: string }>;
    const members = groups.find((g) => g.name === 'role:members')!.id;
    await ok('PATCH', '/realm', 'owner', { name: 'Fair Verona', message_content_edit_limit_seconds: 3600, waiting_period_threshold: 3, allow_message_editing: true });
    await ok('PATCH', '/realm', 'owner', { can_move_messages_between_topics_group: JSON.stringify({ new: members }) });
    await ok('PATCH', '/realm', 'owner', { can_delete_own_message_group: JSON.stringify({ new: { direct_members: [realm.member.id], direct_subgroups: [members] } }) });
    await ok('POST', '/realm/icon', 'admin', {}, { files: [{ field: 'file', name: 'icon.png', type: 'image/png', data: PNG }] });
    await ok('PATCH', '/realm/user_settings_defaults', 'admin', { twenty_four_hour_time: true });
  });
  await step('personal settings, alert words, muted people', async () => {
    await ok('PATCH', '/settings', 'member', { twenty_four_hour_time: true, web_mark_read_on_scroll_policy: 2, enter_sends: true });
    await ok('PATCH', '/settings', 'member', { default_language: 'de' });
    await ok('POST', '/users/me/alert_words', 'member', { alert_words: ['yorick', 'skull'] });
    await ok('DELETE', '/users/me/alert_words', 'member', { alert_words: ['skull'] });
    await ok('POST', `/users/me/muted_users/${realm.owner.id}`, 'member');
    await ok('POST', `/users/me/muted_users/${realm.admin.id}`, 'member');
    await ok('DELETE', `/users/me/muted_users/${realm.owner.id}`, 'member');
  });
  await step('presence, status and typing', async () => {
    await ok('POST', '/users/me/presence', 'member2', { status: 'active', new_user_input: true });
    await ok('POST', '/users/me/presence', 'member', { status: 'active', new_user_input: true });
    await ok('POST', '/users/me/presence', 'admin', { status: 'idle' });
    await ok('POST', '/users/me/status', 'member2', { status_text: 'on the battlements', emoji_name: 'ghost' });
    await ok('POST', '/users/me/status', 'member', { status_text: 'thinking', away: true });
    await ok('POST', '/typing', 'member2', { op: 'start', type: 'stream', stream_id: verona, topic: 'balcony' });
    await ok('POST', '/typing', 'member2', { op: 'start', type: 'direct', to: [realm.member.id] });
    await ok('POST', '/typing', 'member2', { op: 'stop', type: 'direct', to: [realm.member.id] });
  });
  await step('drafts and scheduled messages', async () => {
    const now = Math.floor(Date.now() / 1000);
    const drafts = (await ok('POST', '/drafts', 'member', { drafts: [{ type: 'stream', to: [verona], topic: 'balcony', content: 'To be', timestamp: now }, { type: 'private', to: [realm.member2.id], topic: '', content: 'Or not', timestamp: now }] })).ids as number[] | undefined;
    if (drafts) {
      await ok('PATCH', `/drafts/${drafts[0]}`, 'member', { draft: { type: 'stream', to: [verona], topic: 'balcony', content: 'To be, or not', timestamp: now + 1 } });
      await ok('DELETE', `/drafts/${drafts[1]}`, 'member');
    }
    const later = now + 3600;
    const a = (await ok('POST', '/scheduled_messages', 'member', { type: 'stream', to: verona, topic: 'later', content: 'Tomorrow', scheduled_delivery_timestamp: later })).scheduled_message_id;
    const b = (await ok('POST', '/scheduled_messages', 'member', { type: 'direct', to: [realm.member2.id], content: 'And tomorrow', scheduled_delivery_timestamp: later })).scheduled_message_id;
    if (a) await ok('PATCH', `/scheduled_messages/${a}`, 'member', { content: 'Tomorrow, and tomorrow' });
    if (b) await ok('DELETE', `/scheduled_messages/${b}`, 'member');
  });
  await step('topic visibility', async () => {
    await ok('POST', '/user_topics', 'member', { stream_id: verona, topic: 'votes', visibility_policy: 3 });
    await ok('POST', '/user_topics', 'member', { stream_id: verona, topic: 'court', visibility_policy: 1 });
    await ok('POST', '/user_topics', 'member', { stream_id: verona, topic: 'votes', visibility_policy: 0 });
    await ok('POST', '/user_topics', 'member', { stream_id: verona, topic: 'court', visibility_policy: 2 });
  });
  await step('user groups', async () => {
    const group = (await ok('POST', '/user_groups/create', 'admin', { name: 'Capulets', description: 'The house', members: [realm.member2.id] })).group_id;
    const other = (await ok('POST', '/user_groups/create', 'admin', { name: 'Montagues', description: 'The other house', members: [realm.member.id] })).group_id;
    if (!group || !other) return;
    await ok('POST', `/user_groups/${group}/members`, 'admin', { add: [realm.member.id], delete: [realm.member2.id] });
    await ok('POST', `/user_groups/${group}/subgroups`, 'admin', { add: [other] });
    await ok('PATCH', `/user_groups/${group}`, 'admin', { description: 'The house of Capulet' });
    const brief = (await ok('POST', '/user_groups/create', 'admin', { name: 'Players', description: 'For a night', members: [realm.member2.id] })).group_id;
    if (brief) await ok('POST', `/user_groups/${brief}/deactivate`, 'admin');
  });
  await step('realm extras: emoji, linkifiers, playgrounds, default channels, domains, folders, invites', async () => {
    await ok('POST', '/realm/emoji/skull', 'member', {}, { files: [{ field: 'file', name: 'skull.png', type: 'image/png', data: PNG }] });
    await ok('POST', '/realm/emoji/crown', 'member', {}, { files: [{ field: 'file', name: 'crown.png', type: 'image/png', data: PNG }] });
    await ok('DELETE', '/realm/emoji/crown', 'member');
    await ok('POST', '/realm/filters', 'admin', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' });
    await ok('POST', '/realm/playgrounds', 'admin', { name: 'Python', pygments_language: 'python', url_template: 'https://play.example/?code={code}' });
    await ok('POST', '/default_streams', 'admin', { stream_id: verona });
    await ok('POST', '/default_stream_groups/create', 'admin', { group_name: 'Italy', description: 'Fair cities', stream_names: ['Mantua'] });
    await ok('POST', '/realm/domains', 'owner', { domain: 'verona.example', allow_subdomains: false });
    await ok('PATCH', '/realm/domains/verona.example', 'owner', { allow_subdomains: true });
    await ok('POST', '/channel_folders/create', 'admin', { name: 'Castle', description: 'The *rooms*' });
    await ok('POST', '/invites/multiuse', 'admin', { invite_expires_in_minutes: 60 });
  });
  let dm = 0;
  await step('a direct message read, then marked unread (message_details of a DM)', async () => {
    dm = await send('member2', [realm.member.id], 'Read me twice');
    await ok('POST', '/messages/flags', 'member', { messages: [dm], op: 'add', flag: 'read' });
    await ok('POST', '/messages/flags', 'member', { messages: [dm], op: 'remove', flag: 'read' });
  });
  await step('an edit that adds a mention, and a move of later messages only', async () => {
    const a = await send('member2', 'Verona', 'garden', 'Roses');
    await send('member2', 'Verona', 'garden', 'Thorns');
    await ok('PATCH', `/messages/${a}`, 'member2', { content: 'Roses for @**King Hamlet**' });
    await ok('PATCH', `/messages/${a + 1}`, 'admin', { topic: 'greenhouse', propagate_mode: 'change_later', send_notification_to_old_thread: false, send_notification_to_new_thread: false });
  });
  await step('snippets, saved views, folders and domains changed and removed', async () => {
    const snippet = (await ok('POST', '/saved_snippets', 'member', { title: 'Greeting', content: 'Good morrow' })).saved_snippet_id;
    if (snippet) await ok('PATCH', `/saved_snippets/${snippet}`, 'member', { content: 'Good night' });
    const other = (await ok('POST', '/saved_snippets', 'member', { title: 'Farewell', content: 'Adieu' })).saved_snippet_id;
    if (other) await ok('DELETE', `/saved_snippets/${other}`, 'member');
    const fragment = 'narrow/has/link';
    await ok('POST', '/navigation_views', 'member', { fragment, is_pinned: true, name: 'Links' });
    await ok('PATCH', `/navigation_views/${encodeURIComponent(fragment)}`, 'member', { is_pinned: false });
    const folders = (await ok('GET', '/channel_folders', 'admin')).channel_folders as Array<{ id: number }> | undefined;
    if (folders?.[0]) await ok('PATCH', `/channel_folders/${folders[0].id}`, 'admin', { name: 'Keep', description: 'The *keep*' });
    await ok('DELETE', '/realm/domains/verona.example', 'owner');
    await ok('DELETE', '/default_streams', 'admin', { stream_id: verona });
  });
  await step('a channel made private and public again', async () => {
    await ok('PATCH', `/streams/${verona}`, 'owner', { is_private: true });
    await ok('PATCH', `/streams/${verona}`, 'owner', { is_private: false });
  });
  await step('later messages in moved and muted places', async () => {
    await send('member2', 'Verona', '✔ orchard', 'Still here');
    await send('member2', 'Verona', 'court', 'In a muted channel, a followed topic');
    await send('member2', [realm.member.id], 'Farewell');
  });

  const fixtures = { generated_by: 'e2e/lib/web-state-fixtures.ts', skipped, viewers: Object.fromEntries(VIEWERS.map((v) => [v, queues.get(v)!.record])) };
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(fixtures));
  console.log(`wrote ${out}; changes the server refused: ${skipped.length ? `\n  ${skipped.join('\n  ')}` : 'none'}`);
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(async () => {
    await cluster?.stop();
    await env?.close();
  });
