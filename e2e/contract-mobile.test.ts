/**
 * The family's mobile app, end to end: what it parses from GET /server_settings, POST /register,
 * GET /messages and each kind of event it dispatches, checked key by key against its model
 * classes (e2e/reference/mobile-contract.json), on data and events made by real calls and
 * long-polled through the gateway with the app's User-Agent.
 */
import { Contract, MOBILE_UA, PNG, type Body } from './lib/contract';
import { CLASSES, classErrors, DISPATCH, eventClass, fieldErrors } from './lib/mobile-contract';
import { maybe } from './lib/pending';

const c = new Contract();
/**
 * What the app declares when it registers (with slim_presence): not simplified_presence_events,
 * as its PresenceEvent reads user_id / server_timestamp / presence.
 */
const CAPABILITIES = {
  notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: true,
  stream_typing_notifications: true, user_settings_object: true, include_deactivated_groups: true,
  empty_topic_name: true,
};
let settings: Body;
let snapshot: Body;
let messages: Body;
const events: Body[] = [];

beforeAll(async () => {
  await c.start();
  settings = (await c.call('GET', '/server_settings', null, {}, { userAgent: MOBILE_UA })).body;
  await c.ok('POST', '/users/me/alert_words', 'member', { alert_words: ['yorick'] });
  await c.ok('POST', `/messages/${c.messageId}/reactions`, 'member2', { emoji_name: 'octopus' });
  await c.ok('POST', '/messages', 'member2', { type: 'direct', to: [c.user('member').id], content: 'alas, poor yorick' });
  snapshot = await c.register('member', { apply_markdown: true, slim_presence: true, client_gravatar: false, client_capabilities: CAPABILITIES }, MOBILE_UA);
  messages = (await c.call('GET', '/messages', 'member', { anchor: 'newest', num_before: 20, num_after: 0, apply_markdown: true, client_gravatar: false }, { userAgent: MOBILE_UA })).body;
  await produceEvents();
  events.push(...(await drain()));
}, 240000);
afterAll(() => c.stop());

/** Makes one event of (nearly) every kind the app dispatches reach the member's queue. */
async function produceEvents(): Promise<void> {
  const member = c.user('member').id;
  const member2 = c.user('member2').id;
  const id = await c.send('member', 'events', 'to be edited');
  await c.ok('PATCH', `/messages/${id}`, 'member', { content: 'edited' });
  await c.ok('POST', `/messages/${id}/reactions`, 'member2', { emoji_name: 'heart' });
  await c.ok('DELETE', `/messages/${id}/reactions`, 'member2', { emoji_name: 'heart' });
  await c.ok('POST', '/messages/flags', 'member', { messages: [id], op: 'add', flag: 'starred' });
  await c.ok('POST', '/messages/flags', 'member', { messages: [id], op: 'remove', flag: 'starred' });
  await c.ok('POST', '/messages', 'member2', { type: 'direct', to: [member], content: 'a direct one' });
  await c.ok('POST', '/typing', 'member2', { op: 'start', type: 'direct', to: [member] });
  await c.ok('POST', '/typing', 'member2', { op: 'stop', type: 'direct', to: [member] });
  await c.ok('DELETE', `/messages/${await c.send('member', 'events', 'doomed')}`, 'admin');
  // Channels and subscriptions.
  await c.ok('POST', '/users/me/subscriptions', 'admin', { subscriptions: [{ name: 'Padua' }], principals: [c.user('admin').id, member] });
  const padua = (await c.ok('GET', '/get_stream_id', 'admin', { stream: 'Padua' })).stream_id;
  await c.ok('PATCH', `/streams/${padua}`, 'admin', { description: 'fair Padua' });
  await c.ok('POST', '/users/me/subscriptions/properties', 'member', { subscription_data: [{ stream_id: padua, property: 'pin_to_top', value: true }] });
  await c.ok('POST', '/users/me/subscriptions', 'admin', { subscriptions: [{ name: 'Padua' }], principals: [member2] });
  await c.ok('DELETE', '/users/me/subscriptions', 'admin', { subscriptions: ['Padua'], principals: [member2] });
  await c.ok('DELETE', '/users/me/subscriptions', 'member', { subscriptions: ['Padua'] });
  await c.ok('DELETE', `/streams/${padua}`, 'admin');
  // Groups.
  await c.ok('POST', '/user_groups/create', 'admin', { name: 'Players', description: 'they act', members: [member] });
  await c.ok('POST', '/user_groups/create', 'admin', { name: 'Extras', description: 'they walk on', members: [member2] });
  const groups = (await c.ok('GET', '/user_groups', 'admin')).user_groups as Body[];
  const players = groups.find((g) => g.name === 'Players')!.id;
  const extras = groups.find((g) => g.name === 'Extras')!.id;
  await c.ok('PATCH', `/user_groups/${players}`, 'admin', { description: 'they act well' });
  await c.ok('POST', `/user_groups/${players}/members`, 'admin', { add: [member2] });
  await c.ok('POST', `/user_groups/${players}/members`, 'admin', { delete: [member2] });
  await c.ok('POST', `/user_groups/${players}/subgroups`, 'admin', { add: [extras] });
  await c.ok('POST', `/user_groups/${players}/subgroups`, 'admin', { delete: [extras] });
  await c.ok('POST', `/user_groups/${extras}/deactivate`, 'admin');
  // People, settings and personal data.
  await c.newMember();
  await c.ok('PATCH', `/users/${member2}`, 'admin', { full_name: 'Othello the Moor' });
  await c.ok('POST', '/users/me/alert_words', 'member', { alert_words: ['ghost'] });
  await c.ok('PATCH', '/settings', 'member', { display_emoji_reaction_users: false });
  const { saved_snippet_id } = await c.ok('POST', '/saved_snippets', 'member', { title: 'Hi', content: 'Good morrow' });
  await c.ok('PATCH', `/saved_snippets/${saved_snippet_id}`, 'member', { content: 'Good night' });
  await c.ok('DELETE', `/saved_snippets/${saved_snippet_id}`, 'member');
  await c.ok('POST', '/users/me/status', 'member2', { status_text: 'jealous', emoji_name: 'angry' });
  await c.ok('POST', '/user_topics', 'member', { stream_id: c.channelId, topic: 'events', visibility_policy: 1 });
  await c.ok('POST', `/users/me/muted_users/${c.user('guest').id}`, 'member');
  await c.ok('POST', '/realm/emoji/yorick_skull', 'admin', {}, { files: [{ field: 'file', name: 'e.png', type: 'image/png', data: PNG }] });
  await c.ok('POST', '/realm/profile_fields', 'admin', { name: 'Part', hint: 'the role played', field_type: 1 });
  await c.ok('POST', '/users/me/presence', 'member2', { status: 'active' });
  const { channel_folder_id } = await c.ok('POST', '/channel_folders/create', 'admin', { name: 'Tragedies', description: 'sad' });
  await c.ok('PATCH', `/channel_folders/${channel_folder_id}`, 'admin', { description: 'very sad' });
  await c.ok('PATCH', '/channel_folders', 'admin', { order: [channel_folder_id] });
  const { device_id } = await c.ok('POST', '/register_client_device', 'member');
  // Endpoints still missing (PENDING below): called without stopping the rest.
  await c.call('POST', '/remove_client_device', 'member', { device_id });
  await c.call('POST', '/submessage', 'member', { message_id: id, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: '1,1', vote: 1 }) });
}

/** Long-polls the member's queue (as the app does) until the marker realm event arrives. */
async function drain(): Promise<Body[]> {
  const marker = 'end of contract events';
  await c.ok('PATCH', '/realm', 'owner', { description: marker });
  const got: Body[] = [];
  const q = { queue_id: snapshot.queue_id as string, last_event_id: snapshot.last_event_id as number };
  await c.waitFor('member', q, (e) => {
    got.push(e);
    return e.type === 'realm' && e.value === marker;
  }, MOBILE_UA, 60000);
  return got;
}

const fieldsOf = (name: string) => Object.keys(CLASSES[name]!.fields);

/** One test per field of `cls`, each skipped while "mobile: <cls>.<key>" is PENDING. */
function eachField(cls: string, value: () => Body): void {
  for (const key of fieldsOf(cls)) {
    maybe(`mobile: ${cls}.${key}`)(key, () => expect(fieldErrors(cls, key, value())).toEqual([]));
  }
}

describe('GET /server_settings parses as GetServerSettingsResult', () => {
  eachField('GetServerSettingsResult', () => settings);
});

describe('POST /register parses as InitialSnapshot', () => {
  eachField('InitialSnapshot', () => snapshot);

  it('realm_users, realm_non_active_users and cross_realm_bots are lists of User', () => {
    expect([...snapshot.realm_users, ...snapshot.realm_non_active_users].flatMap((u: Body, i: number) => classErrors('User', u, `user[${i}]`))).toEqual([]);
    expect(snapshot.realm_users.map((u: Body) => u.user_id)).toEqual(expect.arrayContaining([c.user('member').id, c.user('bot').id]));
  });

  it('subscriptions carry a "#rrggbb" color the app converts', () => {
    expect(snapshot.subscriptions.length).toBeGreaterThan(0);
    for (const s of snapshot.subscriptions) expect(s.color).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it('an unread direct message and its sender show up in unread_msgs', () => {
    const dm = snapshot.unread_msgs.pms.find((p: Body) => p.other_user_id === c.user('member2').id);
    expect(dm?.unread_message_ids.length).toBeGreaterThan(0);
    expect(snapshot.unread_msgs.count).toBeGreaterThan(0);
  });

  it('the alert word and the presence map are as the app expects', () => {
    expect(snapshot.alert_words).toEqual(['yorick']);
    for (const [id, p] of Object.entries(snapshot.presences as Record<string, Body>)) {
      expect(id).toMatch(/^\d+$/);
      expect(classErrors('PerUserPresence', p)).toEqual([]);
    }
  });
});

describe('GET /messages parses as GetMessagesResult', () => {
  eachField('GetMessagesResult', () => messages);

  it('every message parses as a StreamMessage or a DmMessage, with its reactions', () => {
    const kinds = new Set<string>();
    for (const m of messages.messages as Body[]) {
      kinds.add(m.type);
      expect(['stream', 'private']).toContain(m.type);
      expect(classErrors(m.type === 'stream' ? 'StreamMessage' : 'DmMessage', m, `message ${m.id}`)).toEqual([]);
      expect(Array.isArray(m.flags)).toBe(true);
      expect(Array.isArray(m.reactions)).toBe(true);
      for (const r of m.reactions) expect(classErrors('Reaction', r)).toEqual([]);
      if (m.type === 'stream') {
        // StreamConversation is read from these top-level keys.
        expect(m).toMatchObject({ stream_id: expect.any(Number), subject: expect.any(String), display_recipient: expect.any(String) });
      } else {
        expect(m.display_recipient).toEqual(expect.arrayContaining([expect.objectContaining({ id: expect.any(Number), email: expect.any(String), full_name: expect.any(String) })]));
      }
    }
    expect([...kinds].sort()).toEqual(['private', 'stream']);
    const reacted = (messages.messages as Body[]).find((m) => m.id === c.messageId)!;
    expect(reacted.reactions).toEqual([expect.objectContaining({ emoji_name: 'octopus', reaction_type: 'unicode_emoji', user_id: c.user('member2').id })]);
  });
});

/** Every event class the app dispatches to, and the (type, op) our actions above produce for it. */
const EXPECTED: Array<[string, string, string?]> = [
  ['MessageEvent', 'message'], ['UpdateMessageEvent', 'update_message'], ['DeleteMessageEvent', 'delete_message'],
  ['ReactionEvent', 'reaction', 'add'], ['UpdateMessageFlagsAddEvent', 'update_message_flags', 'add'],
  ['UpdateMessageFlagsRemoveEvent', 'update_message_flags', 'remove'], ['TypingEvent', 'typing', 'start'],
  ['ChannelCreateEvent', 'stream', 'create'], ['ChannelUpdateEvent', 'stream', 'update'], ['ChannelDeleteEvent', 'stream', 'delete'],
  ['SubscriptionAddEvent', 'subscription', 'add'], ['SubscriptionUpdateEvent', 'subscription', 'update'],
  ['SubscriptionPeerAddEvent', 'subscription', 'peer_add'], ['SubscriptionPeerRemoveEvent', 'subscription', 'peer_remove'],
  ['SubscriptionRemoveEvent', 'subscription', 'remove'], ['UserGroupAddEvent', 'user_group', 'add'],
  ['UserGroupUpdateEvent', 'user_group', 'update'], ['UserGroupAddMembersEvent', 'user_group', 'add_members'],
  ['UserGroupRemoveMembersEvent', 'user_group', 'remove_members'], ['UserGroupAddSubgroupsEvent', 'user_group', 'add_subgroups'],
  ['UserGroupRemoveSubgroupsEvent', 'user_group', 'remove_subgroups'], ['RealmUserAddEvent', 'realm_user', 'add'],
  ['RealmUserUpdateEvent', 'realm_user', 'update'], ['AlertWordsEvent', 'alert_words'], ['UserSettingsUpdateEvent', 'user_settings', 'update'],
  ['SavedSnippetsAddEvent', 'saved_snippets', 'add'], ['SavedSnippetsUpdateEvent', 'saved_snippets', 'update'],
  ['SavedSnippetsRemoveEvent', 'saved_snippets', 'remove'], ['UserStatusEvent', 'user_status'], ['UserTopicEvent', 'user_topic'],
  ['MutedUsersEvent', 'muted_users'], ['RealmEmojiUpdateEvent', 'realm_emoji', 'update'], ['CustomProfileFieldsEvent', 'custom_profile_fields'],
  ['PresenceEvent', 'presence'], ['ChannelFolderAddEvent', 'channel_folder', 'add'], ['ChannelFolderUpdateEvent', 'channel_folder', 'update'],
  ['ChannelFolderReorderEvent', 'channel_folder', 'reorder'], ['DeviceAddEvent', 'device', 'add'],
  ['DeviceRemoveEvent', 'device', 'remove'], ['SubmessageEvent', 'submessage'], ['HeartbeatEvent', 'heartbeat'],
];

/** Event classes of the app's dispatcher no test here produces, and why. */
const NOT_PRODUCED: Record<string, string> = {
  RealmEmojiAddEvent: 'sent only to clients declaring individual_emoji_changes; the app is checked on the full-map update',
  RealmEmojiUpdateOneEvent: 'sent only to clients declaring individual_emoji_changes',
  DeviceUpdateEvent: 'needs a push registration through the push relay, an external service',
  UserGroupRemoveEvent: 'the family deactivates groups (an update event) rather than removing them',
  RealmUserRemoveEvent: 'not described by the contract (no required keys beyond id)',
};

describe('events long-polled with the app\'s User-Agent parse as their classes', () => {
  it('every class of the app\'s dispatcher is produced here or listed with a reason', () => {
    const classes = Object.values(DISPATCH).flatMap((ops) => Object.values(ops));
    const covered = [...EXPECTED.map(([cls]) => cls), ...Object.keys(NOT_PRODUCED)];
    expect(classes.filter((cls) => !covered.includes(cls))).toEqual([]);
  });

  for (const [cls, type, op] of EXPECTED.filter(([cls]) => cls !== 'HeartbeatEvent')) {
    maybe(`mobile: ${cls}`)(cls, () => {
      const matching = events.filter((e) => e.type === type && (op === undefined || e.op === op));
      expect(matching.length).toBeGreaterThan(0);
      for (const e of matching) {
        expect(eventClass(e as { type: string; op?: string })).toBe(cls);
        expect(classErrors(cls, e, `${type}${op ? `/${op}` : ''}`)).toEqual([]);
      }
    });
  }

  it('every event received parses (unknown ones need an integer id)', () => {
    expect(events.length).toBeGreaterThan(EXPECTED.length);
    for (const e of events) {
      const cls = eventClass(e as { type: string; op?: string });
      expect(Number.isInteger(e.id)).toBe(true);
      if (cls) expect(classErrors(cls, e, `${e.type}/${e.op ?? ''}`)).toEqual([]);
    }
  });

  it('reaction_type stays within the app\'s enum and update_message flags within its flag enum', () => {
    const allowed = ['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji'];
    const reactions = events.filter((e) => e.type === 'reaction');
    expect(reactions.length).toBeGreaterThan(0);
    for (const r of reactions) expect(allowed).toContain(r.reaction_type);
    const flagsEnum = /^List<enum\[(.*)\]>$/.exec(CLASSES.UpdateMessageEvent!.fields.flags!.type)![1]!.split(',').map((s) => s.trim().slice(1, -1));
    const edits = events.filter((e) => e.type === 'update_message');
    expect(edits.length).toBeGreaterThan(0);
    for (const e of edits) for (const f of e.flags) expect(flagsEnum).toContain(f);
  });

  // The server's own extra emoji are svc_extra_emoji in its native dialect; the app knows only
  // zulip_extra_emoji and drops its whole queue on anything else.
  maybe('mobile: extra emoji reaction_type')('a reaction with the server\'s extra emoji reaches the app as zulip_extra_emoji', async () => {
    const q = await c.register('member', { event_types: ['reaction'], client_capabilities: CAPABILITIES }, MOBILE_UA);
    const id = await c.send('member2', 'extra', 'react with the logo');
    await c.ok('POST', `/messages/${id}/reactions`, 'member2', { emoji_name: 'zulip' });
    const e = await c.waitFor('member', { queue_id: q.queue_id, last_event_id: q.last_event_id }, (ev) => ev.type === 'reaction', MOBILE_UA);
    expect(e).toMatchObject({ emoji_name: 'zulip', reaction_type: 'zulip_extra_emoji' });
    const { message } = await c.ok('GET', `/messages/${id}`, 'member', {}, { userAgent: MOBILE_UA });
    expect(message.reactions).toEqual([expect.objectContaining({ emoji_name: 'zulip', reaction_type: 'zulip_extra_emoji' })]);
  });

  it('a blocking poll with nothing to say answers a HeartbeatEvent', async () => {
    const q = await c.register('member2', { event_types: ['message'] }, MOBILE_UA);
    const res = await c.ok('GET', '/events', 'member2', { queue_id: q.queue_id, last_event_id: q.last_event_id }, { userAgent: MOBILE_UA });
    expect(res.events).toEqual([expect.objectContaining({ type: 'heartbeat' })]);
    expect(classErrors('HeartbeatEvent', res.events[0])).toEqual([]);
  });
});

/**
 * Message HTML as the app's content parser reads it (its lib/model/content.dart, code_block.dart
 * and katex.dart): a code block is div.codehilite > pre > (empty span) + code holding only text
 * and flat spans of Pygments token classes (else the whole block is its "unimplemented" box);
 * math is span.katex (in span.katex-display for a block) > span.katex-mathml > math >
 * semantics > … annotation[encoding="application/x-tex"], then span.katex-html.
 */
describe('message HTML has the shapes the app draws', () => {
  const PYGMENTS = new Set(
    ('w esc err x k kc kd kn kp kr kt n na nb bp nc no nd ni ne nf fm py nl nn nx nt nv vc vg vi vm l ld s sa sb sc dl sd s2 se sh si sx sr s1 ss ' +
      'm mb mf mh mi il mo o ow p pm c ch cm cp cpf c1 cs g gd ge gr gh gi go gp gs gu ges gt').split(' '),
  );

  it('code in several languages, inline and display math, strikethrough and :zulip: as sent and fetched with the app', async () => {
    const source = [
      '```python\n@dataclass\nclass A:\n    def f(self, x=0x1F):\n        return f"{x}" # note\n```',
      '```rust\nfn main() {\n    print!("world!\\n");\n}\n```',
      '```inventedlanguage\nplain\n```',
      '$$\\Phi_E = \\oint E \\cdot dA$$ and ~~old~~ :zulip:',
      '```math\na^2 = b^2 + c^2\n```',
    ].join('\n\n');
    const id = await c.send('member', 'shapes', source);
    const got = await c.ok('GET', `/messages/${id}`, 'member2', {}, { userAgent: MOBILE_UA });
    const html: string = got.message.content;

    const blocks = [...html.matchAll(/<div class="codehilite"(?: data-code-language="([^"]*)")?><pre><span><\/span><code>([\s\S]*?)<\/code><\/pre><\/div>/g)];
    expect(blocks.map((b) => b[1])).toEqual(['Python', 'Rust', 'inventedlanguage']);
    for (const [, , body] of blocks) {
      const span = /<span class="([^"]+)">[^<]*<\/span>/g;
      expect(body!.replace(span, '')).not.toContain('<');
      const classes = [...body!.matchAll(span)].flatMap((m) => m[1]!.split(' '));
      expect(classes.filter((cls) => !PYGMENTS.has(cls))).toEqual([]);
    }
    expect(blocks[0]![2]).toContain('<span class="k">def</span>');

    expect(html).toContain('<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics>');
    expect(html).toContain('<annotation encoding="application/x-tex">\\Phi_E = \\oint E \\cdot dA</annotation></semantics></math></span><span class="katex-html" aria-hidden="true"><span class="base"><span class="strut"');
    expect(html).toContain('<p><span class="katex-display"><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics>');
    expect(html).toContain('<annotation encoding="application/x-tex">a^2 = b^2 + c^2</annotation>');
    expect(html).toContain('<del>old</del>');
    expect(html).toContain('<img alt=":zulip:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/zulip.png" title="zulip">');
    expect(html).not.toMatch(/hljs|katex-base|katex-strut|<s>/);
  });
});
