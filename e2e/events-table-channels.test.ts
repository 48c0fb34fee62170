/**
 * The spec's event table, end to end, for channels, subscriptions and messages (the messaging
 * service) and the attachments they link (uploads): as in events-table.test.ts, one queue per
 * seeded user in a cluster of real processes, and for each change exactly those who may see it
 * receive its event, once, with its payload. Channel metadata goes to everyone who may see the
 * channel (for a public one every non-guest and its guest subscribers; for a private one its
 * subscribers and the realm's administrators), messages and their changes to the subscribers
 * with access to them.
 */
import { EVERYONE, EventTable, isType, only, sorted, type Event } from './lib/event-table';

const t = new EventTable();

beforeAll(() => t.start(), 180000);
afterAll(() => t.stop());

describe('a public channel: metadata to everyone who may see it, messages to its subscribers', () => {
  let verona = 0;
  let messageId = 0;
  const onVerona = (e: Event) =>
    e.stream_id === verona || e.stream_ids?.includes(verona) || [...(e.streams ?? []), ...(e.subscriptions ?? [])].some((s: Event) => s.stream_id === verona);
  const subscribers = ['member', 'member2', 'guest'] as const;

  it('stream create, subscription add and peer_add', async () => {
    const got = await t.after(() => t.ok('POST', '/users/me/subscriptions', 'member', {
      subscriptions: [{ name: 'Verona', description: 'Two households' }], principals: [t.idOf('member'), t.idOf('member2'), t.idOf('guest')],
    }));
    verona = (await t.ok('GET', '/get_stream_id', 'member', { stream: 'Verona' })).stream_id;
    const created = t.expectTo(got, EVERYONE, (e) => isType('stream', 'create')(e) && onVerona(e));
    expect(created.guest.streams).toEqual([expect.objectContaining({
      stream_id: verona, name: 'Verona', description: 'Two households', rendered_description: '<p>Two households</p>', invite_only: false,
      is_web_public: false, history_public_to_subscribers: true, creator_id: t.idOf('member'), date_created: expect.any(Number),
      first_message_id: null, folder_id: null, is_archived: false, topics_policy: 'inherit', stream_post_policy: 1,
      can_add_subscribers_group: expect.anything(), can_remove_subscribers_group: expect.anything(),
    })]);
    const added = t.expectTo(got, subscribers, (e) => isType('subscription', 'add')(e) && onVerona(e));
    expect(added.member2.subscriptions).toEqual([expect.objectContaining({
      stream_id: verona, name: 'Verona', subscribers: sorted(t.idOf('member'), t.idOf('member2'), t.idOf('guest')), color: expect.any(String),
      is_muted: false, in_home_view: true, pin_to_top: false, desktop_notifications: null, email_notifications: null,
      push_notifications: null, audible_notifications: null, wildcard_mentions_notify: null,
    })]);
    const peers = t.expectTo(got, ['owner', 'admin', 'moderator', 'bot'], (e) => isType('subscription', 'peer_add')(e) && onVerona(e));
    expect(peers.moderator).toMatchObject({ stream_ids: [verona], user_ids: sorted(t.idOf('member'), t.idOf('member2'), t.idOf('guest')) });
  });

  it('message, with flags for each recipient and local_message_id only in the sender\'s queue', async () => {
    const got = await t.after(async () => {
      messageId = (await t.ok('POST', '/messages', 'member', {
        type: 'stream', to: 'Verona', topic: 'balcony', content: 'But soft! @**Othello**', read_by_sender: true, queue_id: t.queues.get('member')!.queueId, local_id: '7.1',
      })).id;
    });
    const e = t.expectTo(got, subscribers, isType('message'));
    expect(e.member).toMatchObject({ local_message_id: '7.1', flags: expect.arrayContaining(['read']) });
    expect(e.member2).toMatchObject({ flags: expect.arrayContaining(['mentioned']) });
    expect(e.member2).not.toHaveProperty('local_message_id');
    expect(e.guest.flags).toEqual([]);
    expect(e.guest.message).toMatchObject({
      id: messageId, sender_id: t.idOf('member'), sender_email: t.user('member').email, sender_full_name: 'King Hamlet', type: 'stream',
      stream_id: verona, display_recipient: 'Verona', subject: 'balcony', content: expect.stringContaining('But soft!'),
      content_type: 'text/html', timestamp: expect.any(Number), reactions: [], is_me_message: false, client: expect.any(String),
      avatar_url: expect.any(String), recipient_id: expect.any(Number), topic_links: [],
    });
    expect(only(got, 'legacy', isType('message')).message.id).toBe(messageId);
  });

  it('reaction add and remove', async () => {
    const got = await t.after(() => t.ok('POST', `/messages/${messageId}/reactions`, 'member2', { emoji_name: 'heart' }));
    expect(t.expectTo(got, subscribers, isType('reaction', 'add')).guest).toMatchObject({
      message_id: messageId, emoji_name: 'heart', emoji_code: '2764', reaction_type: 'unicode_emoji', user_id: t.idOf('member2'),
    });
    const removed = await t.after(() => t.ok('DELETE', `/messages/${messageId}/reactions`, 'member2', { emoji_name: 'heart' }));
    expect(t.expectTo(removed, subscribers, isType('reaction', 'remove')).member).toMatchObject({ message_id: messageId, user_id: t.idOf('member2') });
  });

  it('update_message, with each recipient\'s flags for the message after the edit', async () => {
    const got = await t.after(() => t.ok('PATCH', `/messages/${messageId}`, 'member', { content: 'But soft, what light' }));
    const e = t.expectTo(got, subscribers, isType('update_message'));
    expect(e.member2).toMatchObject({
      user_id: t.idOf('member'), message_id: messageId, message_ids: [messageId], edit_timestamp: expect.any(Number), rendering_only: false,
      stream_id: verona, orig_content: 'But soft! @**Othello**', content: 'But soft, what light',
      orig_rendered_content: expect.stringContaining('But soft!'), rendered_content: '<p>But soft, what light</p>', is_me_message: false,
    });
    // The edit removed the mention of member2; the sender's copy stays read.
    expect(e.member2.flags).toEqual([]);
    expect(e.member.flags).toEqual(['read']);
    expect(e.guest.flags).toEqual([]);
    expect(only(got, 'legacy', isType('update_message')).flags).toEqual(['read']);
  });

  it('typing and typing_edit_message to every subscriber, the typist included, channel typing only to queues that declared it', async () => {
    const typing = await t.after(() => t.ok('POST', '/typing', 'member', { op: 'start', type: 'stream', stream_id: verona, topic: 'balcony' }));
    expect(t.expectTo(typing, subscribers, isType('typing')).member2).toMatchObject({
      op: 'start', message_type: 'stream', sender: { user_id: t.idOf('member'), email: t.user('member').email }, stream_id: verona, topic: 'balcony',
    });
    expect(typing.legacy!.filter(isType('typing'))).toEqual([]);
    const editing = await t.after(() => t.ok('POST', `/messages/${messageId}/typing`, 'member', { op: 'start' }));
    t.expectTo(editing, subscribers, isType('typing_edit_message'));
    expect(only(editing, 'legacy', isType('typing_edit_message')).sender_id).toBe(t.idOf('member'));
    expect(only(editing, 'guest', isType('typing_edit_message'))).toMatchObject({
      op: 'start', sender_id: t.idOf('member'), message_id: messageId, recipient: { type: 'channel', channel_id: verona, topic: 'balcony' },
    });
  });

  it('update_message_flags, user_topic and subscription update to the user alone', async () => {
    const starred = await t.after(() => t.ok('POST', '/messages/flags', 'member2', { messages: [messageId], op: 'add', flag: 'starred' }));
    expect(t.expectTo(starred, ['member2'], isType('update_message_flags')).member2).toMatchObject({
      op: 'add', operation: 'add', flag: 'starred', messages: [messageId], all: false,
    });
    const read = await t.after(() => t.ok('POST', '/messages/flags', 'guest', { messages: [messageId], op: 'add', flag: 'read' }));
    expect(t.expectTo(read, ['guest'], isType('update_message_flags')).guest).toMatchObject({ op: 'add', flag: 'read', messages: [messageId] });
    const unread = await t.after(() => t.ok('POST', '/messages/flags', 'guest', { messages: [messageId], op: 'remove', flag: 'read' }));
    expect(t.expectTo(unread, ['guest'], isType('update_message_flags')).guest).toMatchObject({
      op: 'remove', flag: 'read', messages: [messageId], message_details: { [messageId]: { type: 'stream', stream_id: verona, topic: 'balcony' } },
    });
    const muted = await t.after(() => t.ok('POST', '/user_topics', 'member2', { stream_id: verona, topic: 'balcony', visibility_policy: 1 }));
    expect(t.expectTo(muted, ['member2'], isType('user_topic')).member2).toMatchObject({
      stream_id: verona, topic_name: 'balcony', visibility_policy: 1, last_updated: expect.any(Number),
    });
    const pinned = await t.after(() => t.ok('POST', '/users/me/subscriptions/properties', 'guest', {
      subscription_data: [{ stream_id: verona, property: 'pin_to_top', value: true }],
    }));
    expect(t.expectTo(pinned, ['guest'], isType('subscription', 'update')).guest).toMatchObject({ stream_id: verona, property: 'pin_to_top', value: true });
  });

  it('stream update to everyone who can see the channel', async () => {
    const got = await t.after(() => t.ok('PATCH', `/streams/${verona}`, 'admin', { description: 'Fair *Verona*' }));
    expect(t.expectTo(got, EVERYONE, isType('stream', 'update')).guest).toMatchObject({
      stream_id: verona, name: 'Verona', property: 'description', value: 'Fair *Verona*', rendered_description: '<p>Fair <em>Verona</em></p>',
    });
  });

  it('the empty topic: "" to queues that declared empty_topic_name, the display name to the others', async () => {
    const got = await t.after(() => t.ok('POST', '/messages', 'member', { type: 'stream', to: 'Verona', topic: '', content: 'Nothing' }));
    expect(t.expectTo(got, subscribers, isType('message')).member.message.subject).toBe('');
    expect(only(got, 'legacy', isType('message')).message.subject).toBe('general chat');
  });

  it('delete_message, one event per message for queues without bulk_message_deletion', async () => {
    const got = await t.after(() => t.ok('DELETE', `/messages/${messageId}`, 'admin'));
    expect(t.expectTo(got, subscribers, isType('delete_message')).guest).toMatchObject({
      message_ids: [messageId], message_type: 'stream', stream_id: verona, topic: 'balcony',
    });
    expect(only(got, 'legacy', isType('delete_message'))).toMatchObject({ message_id: messageId, message_type: 'stream' });
    expect(only(got, 'legacy', isType('delete_message'))).not.toHaveProperty('message_ids');
  });
});

describe('a private channel: only its subscribers and the realm\'s administrators hear of it', () => {
  let elsinore = 0;
  let messageId = 0;
  const onElsinore = (e: Event) =>
    e.stream_id === elsinore || e.stream_ids?.includes(elsinore) || [...(e.streams ?? []), ...(e.subscriptions ?? [])].some((s: Event) => s.stream_id === elsinore);
  const of = (type: string, op?: string) => (e: Event) => isType(type, op)(e) && onElsinore(e);

  it('stream create to administrators and subscribers, peer_add to administrators', async () => {
    const got = await t.after(() => t.ok('POST', '/users/me/subscriptions', 'owner', {
      subscriptions: [{ name: 'Elsinore', description: 'Something is rotten' }], invite_only: true, principals: [t.idOf('owner'), t.idOf('member'), t.idOf('member2')],
    }));
    elsinore = (await t.ok('GET', '/get_stream_id', 'owner', { stream: 'Elsinore' })).stream_id;
    expect(t.expectTo(got, ['owner', 'admin', 'member', 'member2'], of('stream', 'create')).admin.streams).toEqual([
      expect.objectContaining({ stream_id: elsinore, name: 'Elsinore', invite_only: true, history_public_to_subscribers: false }),
    ]);
    t.expectTo(got, ['owner', 'member', 'member2'], of('subscription', 'add'));
    expect(t.expectTo(got, ['admin'], of('subscription', 'peer_add')).admin.user_ids).toEqual(sorted(t.idOf('owner'), t.idOf('member'), t.idOf('member2')));
  });

  it('messages and reactions to subscribers only; a later subscriber does not hear of reactions to history it cannot see', async () => {
    const sent = await t.after(async () => (messageId = (await t.ok('POST', '/messages', 'member', { type: 'stream', to: elsinore, topic: 'ghost', content: 'Who\'s there?' })).id));
    expect(t.expectTo(sent, ['owner', 'member', 'member2'], isType('message')).owner.message).toMatchObject({ id: messageId, stream_id: elsinore, display_recipient: 'Elsinore' });
    const joined = await t.after(() => t.ok('POST', '/users/me/subscriptions', 'owner', { subscriptions: [{ name: 'Elsinore' }], principals: [t.idOf('admin')] }));
    t.expectTo(joined, ['admin'], of('subscription', 'add'));
    expect(t.expectTo(joined, ['owner', 'member', 'member2'], of('subscription', 'peer_add')).member.user_ids).toEqual([t.idOf('admin')]);
    expect(t.receivers(joined, of('stream', 'create'))).toEqual([]);
    const reacted = await t.after(() => t.ok('POST', `/messages/${messageId}/reactions`, 'member2', { emoji_name: 'ghost' }));
    t.expectTo(reacted, ['owner', 'member', 'member2'], isType('reaction', 'add'));
  });

  it('stream update to subscribers and administrators', async () => {
    const got = await t.after(() => t.ok('PATCH', `/streams/${elsinore}`, 'owner', { description: 'Rotten' }));
    expect(t.expectTo(got, ['owner', 'admin', 'member', 'member2'], of('stream', 'update')).member).toMatchObject({ property: 'description', value: 'Rotten' });
  });

  it('leaving: subscription remove to the one who left, peer_remove to the rest who can see the channel', async () => {
    const got = await t.after(() => t.ok('DELETE', '/users/me/subscriptions', 'member2', { subscriptions: ['Elsinore'] }));
    expect(t.expectTo(got, ['member2'], of('subscription', 'remove')).member2.subscriptions).toEqual([{ name: 'Elsinore', stream_id: elsinore }]);
    expect(t.expectTo(got, ['owner', 'admin', 'member'], of('subscription', 'peer_remove')).admin).toMatchObject({ stream_ids: [elsinore], user_ids: [t.idOf('member2')] });
  });
});

describe('direct messages', () => {
  let messageId = 0;

  it('message, typing and delete_message to the participants only', async () => {
    const sent = await t.after(async () => (messageId = (await t.ok('POST', '/messages', 'member', { type: 'direct', to: [t.idOf('member2')], content: 'Get thee to a nunnery' })).id));
    const e = t.expectTo(sent, ['member', 'member2'], isType('message'));
    expect(e.member2.message).toMatchObject({
      id: messageId, type: 'private', sender_id: t.idOf('member'), subject: '',
      display_recipient: expect.arrayContaining([expect.objectContaining({ id: t.idOf('member'), email: t.user('member').email, full_name: 'King Hamlet' })]),
    });
    expect(e.member2.message.display_recipient).toHaveLength(2);
    const typing = await t.after(() => t.ok('POST', '/typing', 'member', { op: 'start', type: 'direct', to: [t.idOf('member2')] }));
    expect(t.expectTo(typing, ['member', 'member2'], isType('typing')).member2).toMatchObject({
      op: 'start', message_type: 'direct', sender: { user_id: t.idOf('member'), email: t.user('member').email },
      recipients: expect.arrayContaining([{ user_id: t.idOf('member'), email: t.user('member').email }, { user_id: t.idOf('member2'), email: t.user('member2').email }]),
    });
    expect(only(typing, 'legacy', isType('typing')).message_type).toBe('direct');
    // Someone who turned typing notifications off hears none.
    await t.ok('PATCH', '/settings', 'member2', { receives_typing_notifications: false });
    const quiet = await t.after(() => t.ok('POST', '/typing', 'member', { op: 'stop', type: 'direct', to: [t.idOf('member2')] }));
    expect(t.receivers(quiet, isType('typing'))).toEqual(['member']);
    await t.ok('PATCH', '/settings', 'member2', { receives_typing_notifications: true });
    const editing = await t.after(() => t.ok('POST', `/messages/${messageId}/typing`, 'member', { op: 'stop' }));
    expect(t.expectTo(editing, ['member', 'member2'], isType('typing_edit_message')).member2).toMatchObject({
      op: 'stop', sender_id: t.idOf('member'), message_id: messageId, recipient: { type: 'direct', user_ids: sorted(t.idOf('member'), t.idOf('member2')) },
    });
    const deleted = await t.after(() => t.ok('DELETE', `/messages/${messageId}`, 'member'));
    expect(t.expectTo(deleted, ['member', 'member2'], isType('delete_message')).member2).toMatchObject({ message_ids: [messageId], message_type: 'private' });
  });
});

describe('attachments', () => {
  it('attachment add, update when a message links it, and remove, to its owner only', async () => {
    let attachmentId = 0;
    let pathId = '';
    const uploaded = await t.after(async () => (pathId = (await t.ok('POST', '/user_uploads', 'member2', {}, { files: [{ field: 'file', name: 'letter.txt', type: 'text/plain', data: Buffer.from('Doubt thou the stars are fire') }] })).url));
    const added = t.expectTo(uploaded, ['member2'], isType('attachment', 'add')).member2;
    attachmentId = added.attachment.id;
    expect(added).toMatchObject({
      attachment: { id: expect.any(Number), name: 'letter.txt', path_id: pathId.replace('/user_uploads/', ''), size: 29, create_time: expect.any(Number), messages: [] },
      upload_space_used: expect.any(Number),
    });
    // The uploads service links files from the message stream, after the send has committed.
    const sent = await t.ok('POST', '/messages', 'member2', { type: 'direct', to: [t.idOf('member')], content: `[letter](${pathId})` });
    const seen: Event[] = [];
    for (let tries = 0; !seen.some(isType('attachment', 'update')); tries++) {
      if (tries > 50) throw new Error('no attachment update arrived');
      const got = await t.after(async () => undefined);
      expect(t.receivers(got, isType('attachment')).filter((n) => n !== 'member2')).toEqual([]);
      seen.push(...got.member2!.filter(isType('attachment')));
    }
    expect(seen).toEqual([expect.objectContaining({ op: 'update', attachment: expect.objectContaining({ id: attachmentId, messages: [{ id: sent.id, date_sent: expect.any(Number) }] }) })]);
    const removed = await t.after(() => t.ok('DELETE', `/attachments/${attachmentId}`, 'member2'));
    expect(t.expectTo(removed, ['member2'], isType('attachment', 'remove')).member2).toMatchObject({ attachment: { id: attachmentId }, upload_space_used: expect.any(Number) });
  });
});

describe('who may see a channel changes', () => {
  const on = (id: () => number) => (e: Event) =>
    e.stream_id === id() || e.stream_ids?.includes(id()) || [...(e.streams ?? []), ...(e.subscriptions ?? [])].some((s: Event) => s.stream_id === id());
  let wittenberg = 0;
  let cyprus = 0;
  const inWittenberg = on(() => wittenberg);
  const inCyprus = on(() => cyprus);

  it('a public channel without guests: metadata to non-guests only, peer_add to guests who subscribe elsewhere', async () => {
    const got = await t.after(() => t.ok('POST', '/users/me/subscriptions', 'admin', { subscriptions: [{ name: 'Wittenberg' }] }));
    wittenberg = (await t.ok('GET', '/get_stream_id', 'admin', { stream: 'Wittenberg' })).stream_id;
    t.expectTo(got, ['owner', 'admin', 'moderator', 'member', 'member2', 'bot'], (e) => isType('stream', 'create')(e) && inWittenberg(e));
    t.expectTo(got, ['owner', 'moderator', 'member', 'member2', 'bot'], (e) => isType('subscription', 'peer_add')(e) && inWittenberg(e));
    const sent = await t.after(() => t.ok('POST', '/messages', 'admin', { type: 'stream', to: 'Wittenberg', topic: 'school', content: 'Words, words, words' }));
    t.expectTo(sent, ['admin'], isType('message'));
    // Verona has a guest subscriber: the guest hears of its new subscribers.
    const verona = (await t.ok('GET', '/get_stream_id', 'admin', { stream: 'Verona' })).stream_id;
    const joined = await t.after(() => t.ok('POST', '/users/me/subscriptions', 'admin', { subscriptions: [{ name: 'Verona' }] }));
    t.expectTo(joined, ['owner', 'moderator', 'member', 'member2', 'guest', 'bot'], (e) => isType('subscription', 'peer_add')(e) && e.stream_ids?.includes(verona));
  });

  it('archiving: is_archived to queues that know archived channels, delete to the others', async () => {
    const got = await t.after(() => t.ok('DELETE', `/streams/${wittenberg}`, 'admin'));
    const viewers = ['owner', 'admin', 'moderator', 'member', 'member2', 'bot'] as const;
    expect(t.expectTo(got, viewers, (e) => e.type === 'stream' && inWittenberg(e)).bot).toMatchObject({ op: 'update', property: 'is_archived', value: true });
    expect(only(got, 'legacy', (e) => e.type === 'stream' && inWittenberg(e))).toMatchObject({ op: 'delete', stream_ids: [wittenberg] });
  });

  it('making a private channel public: stream create to those who gain it', async () => {
    const created = await t.after(() => t.ok('POST', '/users/me/subscriptions', 'owner', { subscriptions: [{ name: 'Cyprus' }], invite_only: true }));
    cyprus = (await t.ok('GET', '/get_stream_id', 'owner', { stream: 'Cyprus' })).stream_id;
    t.expectTo(created, ['owner', 'admin'], (e) => isType('stream', 'create')(e) && inCyprus(e));
    const opened = await t.after(() => t.ok('PATCH', `/streams/${cyprus}`, 'owner', { is_private: false }));
    expect(t.expectTo(opened, ['moderator', 'member', 'member2', 'bot'], (e) => isType('stream', 'create')(e) && inCyprus(e)).bot.streams)
      .toEqual([expect.objectContaining({ stream_id: cyprus, invite_only: false })]);
    const update = (e: Event) => isType('stream', 'update')(e) && inCyprus(e) && e.property === 'invite_only';
    expect(t.receivers(opened, update)).toEqual(expect.arrayContaining(['admin', 'owner']));
    expect(t.receivers(opened, update)).not.toContain('guest');
    expect(only(opened, 'owner', update)).toMatchObject({ value: false, history_public_to_subscribers: true, is_web_public: false });
    const closed = await t.after(() => t.ok('PATCH', `/streams/${cyprus}`, 'owner', { is_private: true }));
    expect(t.expectTo(closed, ['moderator', 'member', 'member2', 'bot'], (e) => isType('stream', 'delete')(e) && inCyprus(e)).member)
      .toMatchObject({ stream_ids: [cyprus] });
  });

  it('a web-public channel: metadata and peers to guests too; a guest may join it', async () => {
    let globe = 0;
    const inGlobe = on(() => globe);
    const created = await t.after(() => t.ok('POST', '/users/me/subscriptions', 'owner', { subscriptions: [{ name: 'Globe' }], is_web_public: true }));
    globe = (await t.ok('GET', '/get_stream_id', 'guest', { stream: 'Globe' })).stream_id;
    expect(t.expectTo(created, EVERYONE, (e) => isType('stream', 'create')(e) && inGlobe(e)).guest.streams)
      .toEqual([expect.objectContaining({ stream_id: globe, is_web_public: true, invite_only: false })]);
    const updated = await t.after(() => t.ok('PATCH', `/streams/${globe}`, 'owner', { description: 'All the world' }));
    t.expectTo(updated, EVERYONE, (e) => isType('stream', 'update')(e) && inGlobe(e));
    const joined = await t.after(() => t.ok('POST', '/users/me/subscriptions', 'guest', { subscriptions: [{ name: 'Globe' }] }));
    t.expectTo(joined, ['guest'], (e) => isType('subscription', 'add')(e) && inGlobe(e));
    expect(t.expectTo(joined, ['owner', 'admin', 'moderator', 'member', 'member2', 'bot'], (e) => isType('subscription', 'peer_add')(e) && inGlobe(e)).member.user_ids)
      .toEqual([t.idOf('guest')]);
    const sent = await t.after(() => t.ok('POST', '/messages', 'owner', { type: 'stream', to: 'Globe', topic: 'stage', content: 'All the world\'s a stage' }));
    t.expectTo(sent, ['owner', 'guest'], isType('message'));
  });

  it('a role change shows or hides private channels', async () => {
    const promoted = await t.after(() => t.ok('PATCH', `/users/${t.idOf('member2')}`, 'owner', { role: 200 }));
    // Elsinore too: member2 left that private channel earlier.
    expect(t.expectTo(promoted, ['member2'], (e) => isType('stream', 'create')(e) && inCyprus(e)).member2.streams)
      .toEqual(expect.arrayContaining([expect.objectContaining({ stream_id: cyprus, invite_only: true, name: 'Cyprus' })]));
    const demoted = await t.after(() => t.ok('PATCH', `/users/${t.idOf('member2')}`, 'owner', { role: 400 }));
    expect(t.expectTo(demoted, ['member2'], (e) => isType('stream', 'delete')(e) && inCyprus(e)).member2.stream_ids).toContain(cyprus);
  });
});
