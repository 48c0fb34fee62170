/**
 * Request builders for the OpenAPI operations about accounts, people, the organization, event
 * queues, uploads, push devices, invitations, groups and folders (see operations-messaging.ts).
 */
import { PNG, type Contract } from './contract';
import type { Builder } from './operations-messaging';

let seq = 0;
const fresh = (what: string) => `${what}${++seq}`;
const file = { files: [{ field: 'file', name: 'notes.txt', type: 'text/plain', data: Buffer.from('Alas, poor Yorick') }] };

async function upload(c: Contract): Promise<string> {
  return (await c.ok('POST', '/user_uploads', 'member', {}, file)).uri;
}
async function group(c: Contract): Promise<number> {
  const name = fresh('Players');
  await c.ok('POST', '/user_groups/create', 'admin', { name, description: 'they act', members: [c.user('member').id] });
  const { user_groups } = await c.ok('GET', '/user_groups', 'admin');
  return user_groups.find((g: { name: string }) => g.name === name).id;
}
async function invite(c: Contract): Promise<number> {
  const email = `${fresh('guest')}@elsewhere.test`;
  await c.ok('POST', '/invites', 'admin', { invitee_emails: email, stream_ids: [] });
  const { invites } = await c.ok('GET', '/invites', 'admin');
  return invites.find((i: { email: string }) => i.email === email).id;
}

export const USERS_OPERATIONS: Record<string, Builder> = {
  'POST /fetch_api_key': async (c) => {
    // Someone who has a password: made with one by an administrator.
    const email = `${fresh('login')}@chat.test`;
    const password = 'a long and unusual passphrase 7';
    await c.ok('POST', '/users', 'admin', { email, full_name: 'Login Person', password });
    return { who: null, path: '/fetch_api_key', params: { username: email, password } };
  },
  // The test cluster runs in development mode, where the development login answers.
  'POST /dev_fetch_api_key': async (c) => ({ who: null, path: '/dev_fetch_api_key', params: { username: c.user('member').email } }),
  'GET /server_settings': async () => ({ who: null, path: '/server_settings' }),
  'POST /register': async () => ({ who: 'member', path: '/register', params: { apply_markdown: true, client_gravatar: false } }),
  'GET /events': async (c) => {
    const q = await c.register('member', { event_types: ['message'] });
    return { who: 'member', path: '/events', params: { queue_id: q.queue_id, last_event_id: q.last_event_id, dont_block: true } };
  },
  'DELETE /events': async (c) => ({ who: 'member', path: '/events', params: { queue_id: (await c.register('member', { event_types: ['message'] })).queue_id } }),

  'GET /attachments': async (c) => (await upload(c), { who: 'member', path: '/attachments' }),
  'DELETE /attachments/{attachment_id}': async (c) => {
    await upload(c);
    const { attachments } = await c.ok('GET', '/attachments', 'member');
    return { who: 'member', path: `/attachments/${attachments[0].id}` };
  },
  'POST /user_uploads': async () => ({ who: 'member', path: '/user_uploads', req: file }),
  'GET /user_uploads/{realm_id_str}/{filename}': async (c) => ({ who: 'member', path: await upload(c) }),

  'GET /navigation_views': async () => ({ who: 'member', path: '/navigation_views' }),
  'POST /navigation_views': async () => ({ who: 'member', path: '/navigation_views', params: { fragment: `narrow/is/${fresh('starred')}`, is_pinned: true, name: fresh('View') } }),
  'PATCH /navigation_views/{fragment}': async (c) => {
    const fragment = `narrow/has/${fresh('link')}`;
    await c.ok('POST', '/navigation_views', 'member', { fragment, is_pinned: true, name: fresh('View') });
    return { who: 'member', path: `/navigation_views/${encodeURIComponent(fragment)}`, params: { is_pinned: false } };
  },
  'DELETE /navigation_views/{fragment}': async (c) => {
    const fragment = `narrow/has/${fresh('image')}`;
    await c.ok('POST', '/navigation_views', 'member', { fragment, is_pinned: true, name: fresh('View') });
    return { who: 'member', path: `/navigation_views/${encodeURIComponent(fragment)}` };
  },
  'GET /saved_snippets': async () => ({ who: 'member', path: '/saved_snippets' }),
  'POST /saved_snippets': async () => ({ who: 'member', path: '/saved_snippets', params: { title: 'Hi', content: 'Good morrow' } }),
  'PATCH /saved_snippets/{saved_snippet_id}': async (c) => {
    const { saved_snippet_id } = await c.ok('POST', '/saved_snippets', 'member', { title: 'Bye', content: 'Adieu' });
    return { who: 'member', path: `/saved_snippets/${saved_snippet_id}`, params: { content: 'Farewell' } };
  },
  'DELETE /saved_snippets/{saved_snippet_id}': async (c) => {
    const { saved_snippet_id } = await c.ok('POST', '/saved_snippets', 'member', { title: 'Bye', content: 'Adieu' });
    return { who: 'member', path: `/saved_snippets/${saved_snippet_id}` };
  },

  'GET /users': async () => ({ who: 'member', path: '/users' }),
  'POST /users': async () => ({ who: 'owner', path: '/users', params: { email: `${fresh('new')}@chat.test`, password: 'Gertrude-1600', full_name: 'New Person' } }),
  'GET /users/me': async () => ({ who: 'member', path: '/users/me' }),
  'DELETE /users/me': async (c) => ({ who: await c.newMember(), path: '/users/me' }),
  'GET /users/{user_id}': async (c) => ({ who: 'member', path: `/users/${c.user('member2').id}` }),
  'GET /users/{email}': async (c) => ({ who: 'member', path: `/users/${encodeURIComponent(c.user('member2').email)}` }),
  'PATCH /users/{user_id}': async (c) => ({ who: 'admin', path: `/users/${(await c.newMember()).id}`, params: { full_name: 'Renamed' } }),
  'PATCH /users/{email}': async (c) => ({ who: 'admin', path: `/users/${encodeURIComponent((await c.newMember()).email)}`, params: { full_name: 'Renamed' } }),
  'DELETE /users/{user_id}': async (c) => ({ who: 'admin', path: `/users/${(await c.newMember()).id}` }),
  'POST /users/{user_id}/reactivate': async (c) => {
    const u = await c.newMember();
    await c.ok('DELETE', `/users/${u.id}`, 'admin');
    return { who: 'admin', path: `/users/${u.id}/reactivate` };
  },
  'GET /users/{user_id}/status': async (c) => ({ who: 'member', path: `/users/${c.user('member2').id}/status` }),
  'POST /users/{user_id}/status': async (c) => ({ who: 'admin', path: `/users/${c.user('member2').id}/status`, params: { status_text: 'on stage' } }),
  'POST /users/me/status': async () => ({ who: 'member', path: '/users/me/status', params: { status_text: 'reading', emoji_name: 'book' } }),
  'GET /users/{user_id_or_email}/presence': async (c) => {
    await c.ok('POST', '/users/me/presence', 'member2', { status: 'active' });
    return { who: 'member', path: `/users/${c.user('member2').id}/presence` };
  },
  'POST /users/me/presence': async () => ({ who: 'member', path: '/users/me/presence', params: { status: 'active', last_update_id: -1 } }),
  'GET /realm/presence': async () => ({ who: 'member', path: '/realm/presence' }),
  'GET /users/me/alert_words': async () => ({ who: 'member', path: '/users/me/alert_words' }),
  'POST /users/me/alert_words': async () => ({ who: 'member', path: '/users/me/alert_words', params: { alert_words: ['ghost'] } }),
  'DELETE /users/me/alert_words': async () => ({ who: 'member', path: '/users/me/alert_words', params: { alert_words: ['ghost'] } }),
  'POST /users/me/muted_users/{muted_user_id}': async (c) => ({ who: 'member', path: `/users/me/muted_users/${c.user('guest').id}` }),
  'DELETE /users/me/muted_users/{muted_user_id}': async (c) => {
    await c.ok('POST', `/users/me/muted_users/${c.user('moderator').id}`, 'member2');
    return { who: 'member2', path: `/users/me/muted_users/${c.user('moderator').id}` };
  },
  'PATCH /settings': async () => ({ who: 'member', path: '/settings', params: { enter_sends: true } }),

  'POST /mobile_push/test_notification': async () => ({ who: 'member', path: '/mobile_push/test_notification' }),
  'POST /users/me/apns_device_token': async () => ({ who: 'member', path: '/users/me/apns_device_token', params: { token: 'c0ffee', appid: 'org.zulip.Zulip' } }),
  'DELETE /users/me/apns_device_token': async (c) => {
    await c.ok('POST', '/users/me/apns_device_token', 'member2', { token: 'feed', appid: 'org.zulip.Zulip' });
    return { who: 'member2', path: '/users/me/apns_device_token', params: { token: 'feed' } };
  },
  'POST /users/me/android_gcm_reg_id': async () => ({ who: 'member', path: '/users/me/android_gcm_reg_id', params: { token: 'gcm-token' } }),
  'DELETE /users/me/android_gcm_reg_id': async (c) => {
    await c.ok('POST', '/users/me/android_gcm_reg_id', 'member2', { token: 'gcm-other' });
    return { who: 'member2', path: '/users/me/android_gcm_reg_id', params: { token: 'gcm-other' } };
  },

  'GET /realm/emoji': async () => ({ who: 'member', path: '/realm/emoji' }),
  'POST /realm/emoji/{emoji_name}': async () => ({ who: 'member', path: `/realm/emoji/${fresh('skull')}`, req: { files: [{ field: 'file', name: 'e.png', type: 'image/png', data: PNG }] } }),
  'DELETE /realm/emoji/{emoji_name}': async (c) => {
    const name = fresh('crown');
    await c.ok('POST', `/realm/emoji/${name}`, 'member', {}, { files: [{ field: 'file', name: 'e.png', type: 'image/png', data: PNG }] });
    return { who: 'member', path: `/realm/emoji/${name}` };
  },
  'GET /realm/profile_fields': async () => ({ who: 'member', path: '/realm/profile_fields' }),
  'POST /realm/profile_fields': async () => ({ who: 'admin', path: '/realm/profile_fields', params: { name: fresh('Role'), hint: 'on stage', field_type: 1 } }),
  'PATCH /realm/profile_fields': async (c) => {
    const { custom_fields } = await c.ok('GET', '/realm/profile_fields', 'admin');
    return { who: 'admin', path: '/realm/profile_fields', params: { order: custom_fields.map((f: { id: number }) => f.id).reverse() } };
  },
  'PATCH /realm/user_settings_defaults': async () => ({ who: 'admin', path: '/realm/user_settings_defaults', params: { enter_sends: true } }),
  'GET /realm/linkifiers': async () => ({ who: 'member', path: '/realm/linkifiers' }),
  'POST /realm/filters': async () => ({ who: 'admin', path: '/realm/filters', params: { pattern: `#${fresh('T')}(?P<id>[0-9]+)`, url_template: 'https://tracker.test/{id}' } }),
  'PATCH /realm/filters/{filter_id}': async (c) => {
    const { id } = await c.ok('POST', '/realm/filters', 'admin', { pattern: `#${fresh('P')}(?P<id>[0-9]+)`, url_template: 'https://a.test/{id}' });
    return { who: 'admin', path: `/realm/filters/${id}`, params: { pattern: `#${fresh('Q')}(?P<id>[0-9]+)`, url_template: 'https://b.test/{id}' } };
  },
  'DELETE /realm/filters/{filter_id}': async (c) => {
    const { id } = await c.ok('POST', '/realm/filters', 'admin', { pattern: `#${fresh('D')}(?P<id>[0-9]+)`, url_template: 'https://d.test/{id}' });
    return { who: 'admin', path: `/realm/filters/${id}` };
  },
  'PATCH /realm/linkifiers': async (c) => {
    const { linkifiers } = await c.ok('GET', '/realm/linkifiers', 'admin');
    return { who: 'admin', path: '/realm/linkifiers', params: { ordered_linkifier_ids: linkifiers.map((l: { id: number }) => l.id).reverse() } };
  },
  'POST /realm/playgrounds': async () => ({ who: 'admin', path: '/realm/playgrounds', params: { name: fresh('Python'), pygments_language: 'Python', url_template: 'https://run.test/?code={code}' } }),
  'DELETE /realm/playgrounds/{playground_id}': async (c) => {
    const { id } = await c.ok('POST', '/realm/playgrounds', 'admin', { name: fresh('Rust'), pygments_language: 'Rust', url_template: 'https://run.test/?code={code}' });
    return { who: 'admin', path: `/realm/playgrounds/${id}` };
  },
  'POST /realm/test_welcome_bot_custom_message': async () => ({ who: 'admin', path: '/realm/test_welcome_bot_custom_message', params: { welcome_message_custom_text: 'Welcome to Elsinore' } }),
  'GET /export/realm': async () => ({ who: 'owner', path: '/export/realm' }),
  'POST /export/realm': async () => ({ who: 'owner', path: '/export/realm', params: { export_type: 1 } }),
  'GET /export/realm/consents': async () => ({ who: 'owner', path: '/export/realm/consents' }),

  'GET /invites': async () => ({ who: 'admin', path: '/invites' }),
  'POST /invites': async () => ({ who: 'admin', path: '/invites', params: { invitee_emails: `${fresh('invitee')}@elsewhere.test`, stream_ids: [] } }),
  'POST /invites/multiuse': async () => ({ who: 'admin', path: '/invites/multiuse', params: { stream_ids: [] } }),
  'DELETE /invites/{invite_id}': async (c) => ({ who: 'admin', path: `/invites/${await invite(c)}` }),
  'POST /invites/{invite_id}/resend': async (c) => ({ who: 'admin', path: `/invites/${await invite(c)}/resend` }),
  'DELETE /invites/multiuse/{invite_id}': async (c) => {
    const { invite_link } = await c.ok('POST', '/invites/multiuse', 'admin', { stream_ids: [] });
    const { invites } = await c.ok('GET', '/invites', 'admin');
    const link = invites.find((i: { link_url?: string }) => i.link_url === invite_link);
    return { who: 'admin', path: `/invites/multiuse/${link.id}` };
  },

  'GET /user_groups': async () => ({ who: 'member', path: '/user_groups' }),
  'POST /user_groups/create': async (c) => ({ who: 'admin', path: '/user_groups/create', params: { name: fresh('Court'), description: 'courtiers', members: [c.user('member').id] } }),
  'PATCH /user_groups/{user_group_id}': async (c) => ({ who: 'admin', path: `/user_groups/${await group(c)}`, params: { description: 'new' } }),
  'GET /user_groups/{user_group_id}/members': async (c) => ({ who: 'member', path: `/user_groups/${await group(c)}/members` }),
  'POST /user_groups/{user_group_id}/members': async (c) => ({ who: 'admin', path: `/user_groups/${await group(c)}/members`, params: { add: [c.user('member2').id] } }),
  'GET /user_groups/{user_group_id}/members/{user_id}': async (c) => ({ who: 'member', path: `/user_groups/${await group(c)}/members/${c.user('member').id}` }),
  'GET /user_groups/{user_group_id}/subgroups': async (c) => ({ who: 'member', path: `/user_groups/${await group(c)}/subgroups` }),
  'POST /user_groups/{user_group_id}/subgroups': async (c) => ({ who: 'admin', path: `/user_groups/${await group(c)}/subgroups`, params: { add: [await group(c)] } }),
  'POST /user_groups/{user_group_id}/deactivate': async (c) => ({ who: 'admin', path: `/user_groups/${await group(c)}/deactivate` }),

  'GET /channel_folders': async () => ({ who: 'member', path: '/channel_folders' }),
  'POST /channel_folders/create': async () => ({ who: 'admin', path: '/channel_folders/create', params: { name: fresh('Folder'), description: 'plays' } }),
  'PATCH /channel_folders/{channel_folder_id}': async (c) => {
    const { channel_folder_id } = await c.ok('POST', '/channel_folders/create', 'admin', { name: fresh('Folder'), description: 'x' });
    return { who: 'admin', path: `/channel_folders/${channel_folder_id}`, params: { description: 'y' } };
  },
  'PATCH /channel_folders': async (c) => {
    const { channel_folders } = await c.ok('GET', '/channel_folders', 'admin');
    return { who: 'admin', path: '/channel_folders', params: { order: channel_folders.map((f: { id: number }) => f.id).reverse() } };
  },
  'GET /calls/bigbluebutton/create': async () => ({ who: 'member', path: '/calls/bigbluebutton/create', params: { meeting_name: 'Rehearsal' } }),
};
