/**
 * Request builders for the OpenAPI operations about channels, subscriptions, topics, messages,
 * flags, reactions, drafts, reminders, scheduled messages and typing. A builder makes the data
 * its call needs through the API, by someone allowed to, and returns the call to check.
 */
import type { Contract, Person, Request } from './contract';

export interface Built {
  who: Person | import('@chat/testing').SeededUser | null;
  path: string;
  params?: Record<string, unknown>;
  req?: Request;
}
export type Builder = (c: Contract) => Promise<Built>;

const later = () => Math.floor(Date.now() / 1000) + 3600;
let seq = 0;
const fresh = (what: string) => `${what} ${++seq}`;

export const MESSAGING_OPERATIONS: Record<string, Builder> = {
  'GET /get_stream_id': async (c) => ({ who: 'member', path: '/get_stream_id', params: { stream: c.channelName } }),
  'POST /mark_all_as_read': async () => ({ who: 'member2', path: '/mark_all_as_read' }),
  'POST /mark_stream_as_read': async (c) => ({ who: 'member2', path: '/mark_stream_as_read', params: { stream_id: c.channelId } }),
  'POST /mark_topic_as_read': async (c) => ({ who: 'member2', path: '/mark_topic_as_read', params: { stream_id: c.channelId, topic_name: 'balcony' } }),

  'GET /drafts': async () => ({ who: 'member', path: '/drafts' }),
  'POST /drafts': async (c) => ({ who: 'member', path: '/drafts', params: { drafts: [{ type: 'stream', to: [c.channelId], topic: 'plans', content: 'draft' }] } }),
  'PATCH /drafts/{draft_id}': async (c) => {
    const [id] = (await c.ok('POST', '/drafts', 'member', { drafts: [{ type: '', to: [], topic: '', content: 'x' }] })).ids;
    return { who: 'member', path: `/drafts/${id}`, params: { draft: { type: '', to: [], topic: '', content: 'y' } } };
  },
  'DELETE /drafts/{draft_id}': async (c) => {
    const [id] = (await c.ok('POST', '/drafts', 'member', { drafts: [{ type: '', to: [], topic: '', content: 'x' }] })).ids;
    return { who: 'member', path: `/drafts/${id}` };
  },

  'GET /reminders': async () => ({ who: 'member', path: '/reminders' }),
  'POST /reminders': async (c) => ({ who: 'member', path: '/reminders', params: { message_id: c.messageId, scheduled_delivery_timestamp: later() } }),
  'DELETE /reminders/{reminder_id}': async (c) => {
    const { reminder_id } = await c.ok('POST', '/reminders', 'member', { message_id: c.messageId, scheduled_delivery_timestamp: later() });
    return { who: 'member', path: `/reminders/${reminder_id}` };
  },

  'GET /scheduled_messages': async () => ({ who: 'member', path: '/scheduled_messages' }),
  'POST /scheduled_messages': async (c) => ({
    who: 'member', path: '/scheduled_messages',
    params: { type: 'stream', to: c.channelId, topic: 'later', content: 'tomorrow', scheduled_delivery_timestamp: later() },
  }),
  'PATCH /scheduled_messages/{scheduled_message_id}': async (c) => {
    const { scheduled_message_id } = await c.ok('POST', '/scheduled_messages', 'member', { type: 'direct', to: [c.user('member2').id], content: 'x', scheduled_delivery_timestamp: later() });
    return { who: 'member', path: `/scheduled_messages/${scheduled_message_id}`, params: { content: 'y' } };
  },
  'DELETE /scheduled_messages/{scheduled_message_id}': async (c) => {
    const { scheduled_message_id } = await c.ok('POST', '/scheduled_messages', 'member', { type: 'direct', to: [c.user('member2').id], content: 'x', scheduled_delivery_timestamp: later() });
    return { who: 'member', path: `/scheduled_messages/${scheduled_message_id}` };
  },

  'POST /default_streams': async (c) => ({ who: 'admin', path: '/default_streams', params: { stream_id: await c.channel(fresh('Default')) } }),
  'DELETE /default_streams': async (c) => {
    const id = await c.channel(fresh('Default'));
    await c.ok('POST', '/default_streams', 'admin', { stream_id: id });
    return { who: 'admin', path: '/default_streams', params: { stream_id: id } };
  },

  'GET /messages': async () => ({ who: 'member', path: '/messages', params: { anchor: 'newest', num_before: 10, num_after: 0 } }),
  'POST /messages': async (c) => ({ who: 'member', path: '/messages', params: { type: 'stream', to: c.channelName, topic: 'sent', content: 'hello' } }),
  'GET /messages/{message_id}/history': async (c) => {
    const id = await c.send('member', 'history', 'first draft');
    await c.ok('PATCH', `/messages/${id}`, 'member', { content: 'second draft' });
    return { who: 'member2', path: `/messages/${id}/history` };
  },
  'POST /messages/flags': async (c) => ({ who: 'member2', path: '/messages/flags', params: { messages: [c.messageId], op: 'add', flag: 'starred' } }),
  'POST /messages/flags/narrow': async (c) => ({
    who: 'member2', path: '/messages/flags/narrow',
    params: { anchor: 'oldest', num_before: 0, num_after: 20, narrow: [{ operator: 'channel', operand: c.channelId }], op: 'add', flag: 'read' },
  }),
  'POST /messages/render': async () => ({ who: 'member', path: '/messages/render', params: { content: '**bold** and `code`' } }),
  'POST /messages/{message_id}/reactions': async (c) => ({ who: 'member2', path: `/messages/${c.messageId}/reactions`, params: { emoji_name: 'octopus' } }),
  'DELETE /messages/{message_id}/reactions': async (c) => {
    await c.ok('POST', `/messages/${c.messageId}/reactions`, 'admin', { emoji_name: 'tada' });
    return { who: 'admin', path: `/messages/${c.messageId}/reactions`, params: { emoji_name: 'tada' } };
  },
  'GET /messages/{message_id}/read_receipts': async (c) => ({ who: 'member', path: `/messages/${c.messageId}/read_receipts` }),
  'GET /messages/matches_narrow': async (c) => ({
    who: 'member', path: '/messages/matches_narrow', params: { msg_ids: [c.messageId], narrow: [{ operator: 'channel', operand: c.channelName }] },
  }),
  'DELETE /messages/{message_id}': async (c) => ({ who: 'admin', path: `/messages/${await c.send('member', 'doomed', 'delete me')}` }),
  'GET /messages/{message_id}': async (c) => ({ who: 'member2', path: `/messages/${c.messageId}` }),
  'PATCH /messages/{message_id}': async (c) => ({ who: 'member', path: `/messages/${await c.send('member', 'edits', 'before')}`, params: { content: 'after' } }),
  'POST /messages/{message_id}/report': async (c) => {
    // Reports go to the realm's moderation request channel, which must be set first.
    const moderation = await c.channel('moderation');
    await c.ok('PATCH', '/realm', 'owner', { moderation_request_channel_id: moderation });
    return {
      who: 'member2', path: `/messages/${await c.send('member', 'reports', 'rude')}/report`, params: { report_type: 'spam', description: 'unsolicited' },
    };
  },

  'POST /typing': async (c) => ({ who: 'member', path: '/typing', params: { op: 'start', type: 'direct', to: [c.user('member2').id] } }),
  'POST /messages/{message_id}/typing': async (c) => ({ who: 'member', path: `/messages/${c.messageId}/typing`, params: { op: 'start' } }),

  'GET /streams': async () => ({ who: 'member', path: '/streams' }),
  'GET /streams/{stream_id}': async (c) => ({ who: 'member', path: `/streams/${c.channelId}` }),
  'PATCH /streams/{stream_id}': async (c) => ({ who: 'admin', path: `/streams/${await c.channel(fresh('Patched'))}`, params: { description: 'new words' } }),
  'DELETE /streams/{stream_id}': async (c) => ({ who: 'admin', path: `/streams/${await c.channel(fresh('Archived'))}` }),
  'GET /streams/{stream_id}/members': async (c) => ({ who: 'member', path: `/streams/${c.channelId}/members` }),
  'GET /streams/{stream_id}/email_address': async (c) => ({ who: 'member', path: `/streams/${c.channelId}/email_address` }),
  'POST /streams/{stream_id}/delete_topic': async (c) => {
    await c.send('member', 'gone', 'soon gone');
    return { who: 'admin', path: `/streams/${c.channelId}/delete_topic`, params: { topic_name: 'gone' } };
  },
  'POST /channels/create': async (c) => ({ who: 'admin', path: '/channels/create', params: { name: fresh('Created'), subscribers: [c.user('admin').id, c.user('member').id] } }),

  'GET /users/me/{stream_id}/topics': async (c) => ({ who: 'member', path: `/users/me/${c.channelId}/topics` }),
  'GET /users/me/subscriptions': async () => ({ who: 'member', path: '/users/me/subscriptions', params: { include_subscribers: true } }),
  'POST /users/me/subscriptions': async () => ({ who: 'member', path: '/users/me/subscriptions', params: { subscriptions: [{ name: fresh('Joined') }] } }),
  'PATCH /users/me/subscriptions': async () => ({ who: 'member', path: '/users/me/subscriptions', params: { add: [{ name: fresh('Patched in') }], delete: [] } }),
  'DELETE /users/me/subscriptions': async (c) => {
    const name = fresh('Left');
    await c.ok('POST', '/users/me/subscriptions', 'member', { subscriptions: [{ name }] });
    return { who: 'member', path: '/users/me/subscriptions', params: { subscriptions: [name] } };
  },
  'PATCH /users/me/subscriptions/muted_topics': async (c) => ({
    who: 'member', path: '/users/me/subscriptions/muted_topics', params: { stream_id: c.channelId, topic: 'balcony', op: 'add' },
  }),
  'POST /users/me/subscriptions/properties': async (c) => ({
    who: 'member', path: '/users/me/subscriptions/properties', params: { subscription_data: [{ stream_id: c.channelId, property: 'color', value: '#f00000' }] },
  }),
  'GET /users/{user_id}/subscriptions/{stream_id}': async (c) => ({ who: 'member', path: `/users/${c.user('member2').id}/subscriptions/${c.channelId}` }),
  'POST /user_topics': async (c) => ({ who: 'member2', path: '/user_topics', params: { stream_id: c.channelId, topic: 'balcony', visibility_policy: 3 } }),
};
