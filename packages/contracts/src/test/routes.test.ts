import { resolveApiRoute, resolveFileRoute, errors, ApiError, flagBit, flagNames, SERVER_EMOJI_DATA_PATH, serverEmojiDataUrl, WEB_APP_ASSET_PREFIX } from '..';

// Every endpoint path the API spec names, with the service that must own it.
const SPEC_PATHS: Array<[string, string, string]> = [
  ['POST', '/messages', 'messaging'],
  ['GET', '/messages', 'messaging'],
  ['GET', '/messages/12/history', 'messaging'],
  ['POST', '/messages/12/typing', 'messaging'],
  ['DELETE', '/messages/12/reactions', 'messaging'],
  ['POST', '/messages/flags', 'messaging'],
  ['PATCH', '/messages/12', 'messaging'],
  ['POST', '/typing', 'messaging'],
  ['POST', '/drafts', 'messaging'],
  ['PATCH', '/drafts/3', 'messaging'],
  ['GET', '/streams', 'messaging'],
  ['POST', '/users/me/subscriptions', 'messaging'],
  ['PATCH', '/users/me/subscriptions/properties', 'messaging'],
  ['PATCH', '/users/me/subscriptions/muted_topics', 'messaging'],
  ['POST', '/channels/create', 'messaging'],
  ['GET', '/streams/3/email_address', 'messaging'],
  ['POST', '/streams/3/delete_topic', 'messaging'],
  ['POST', '/messages/12/report', 'messaging'],
  ['POST', '/submessage', 'messaging'],
  ['GET', '/users/9/channels', 'messaging'],
  ['POST', '/register', 'events'],
  ['GET', '/events', 'gateway'],
  ['DELETE', '/events', 'gateway'],
  ['PATCH', '/realm/user_settings_defaults', 'users'],
  ['POST', '/channel_folders/create', 'users'],
  ['POST', '/users/9/status', 'users'],
  ['PATCH', '/users/9', 'users'],
  ['GET', '/users/me', 'users'],
  ['PATCH', '/users/me/profile_data', 'users'],
  ['POST', '/users/me/onboarding_steps', 'users'],
  ['POST', '/invites/multiuse', 'users'],
  ['POST', '/jwt/fetch_api_key', 'users'],
  ['PATCH', '/realm/filters/4', 'users'],
  ['POST', '/navigation_views', 'users'],
  ['PATCH', '/navigation_views/inbox', 'users'],
  ['GET', '/server_settings', 'users'],
  ['PUT', '/bot_storage', 'users'],
  ['POST', '/realm/playgrounds', 'users'],
  ['DELETE', '/export/realm/3', 'users'],
  ['POST', '/mobile_push/register', 'push'],
  ['POST', '/mobile_push/e2ee/test_notification', 'push'],
  ['POST', '/mobile_push/test_notification', 'push'],
  ['POST', '/users/me/apns_device_token', 'push'],
  ['POST', '/remove_client_device', 'push'],
  ['POST', '/calls/zoom/create', 'users'],
  ['GET', '/calls/bigbluebutton/create', 'users'],
  ['GET', '/user_groups/5/subgroups', 'users'],
  ['GET', '/user_groups/5/members/9', 'users'],
  ['GET', '/bots/9/api_key', 'users'],
  ['PATCH', '/settings/notifications', 'users'],
  ['POST', '/realm/test_welcome_bot_custom_message', 'messaging'],
  ['POST', '/user_uploads', 'uploads'],
  ['POST', '/tus', 'uploads'],
  ['GET', '/avatar/9', 'uploads'],
  ['GET', '/realm/icon', 'uploads'],
  ['GET', '/realm/logo', 'uploads'],
];

describe('route ownership', () => {
  it.each(SPEC_PATHS)('%s %s belongs to %s', (method, path, service) => {
    expect(resolveApiRoute(path, method)?.service).toBe(service);
  });
  it('leaves unauthenticated only what the spec allows', () => {
    expect(resolveApiRoute('/server_settings', 'GET')?.auth).toBe('none');
    expect(resolveApiRoute('/jwt/fetch_api_key', 'POST')?.auth).toBe('none');
    expect(resolveApiRoute('/register', 'POST')?.auth).toBe('optional');
    expect(resolveApiRoute('/messages', 'GET')?.auth).toBe('required');
    expect(resolveApiRoute('/external/github', 'POST')).toMatchObject({ service: 'messaging', auth: 'webhook' });
    expect(resolveApiRoute('/external/github', 'GET')).toBeUndefined();
  });
  it('does not resolve unknown paths', () => {
    expect(resolveApiRoute('/nonexistent/thing', 'GET')).toBeUndefined();
    expect(resolveFileRoute('/user_uploads/1/ab/file.txt')?.service).toBe('uploads');
    expect(resolveFileRoute(`/external_content/${'a'.repeat(40)}/6874747073`)).toMatchObject({ service: 'messaging', auth: 'optional' });
    expect(resolveFileRoute('/user_avatars/exports/2/abc/chat-export-x.tar.gz')?.service).toBe('users');
    expect(resolveFileRoute('/user_avatars/2/emoji/images/1.png')?.service).toBe('uploads');
    expect(resolveFileRoute('/calls/bigbluebutton/join')?.service).toBe('users');
    expect(resolveFileRoute('/calls/zoom/deauthorize')?.auth).toBe('none');
  });
  it('sends the account pages to the users service, unauthenticated', () => {
    for (const path of ['/login/', '/login', '/register/', '/join/abc123/', '/accounts/login/', '/accounts/logout/',
      '/accounts/password/reset/', '/accounts/password/reset/MTI/abcdef/', '/accounts/password/done/', '/accounts/home/',
      '/accounts/do_confirm/abc', '/accounts/register/', '/accounts/api_key/', '/accounts/api_key/zuliprc', '/accounts/login/subdomain/tok',
      '/accounts/confirm_new_email/abc/']) {
      expect(resolveFileRoute(path)).toMatchObject({ service: 'users', auth: 'none' });
    }
    expect(resolveFileRoute('/accounts/other/')).toBeUndefined();
    expect(resolveFileRoute('/accounts/unsubscribe/missed_messages/12-Ab_c')).toMatchObject({ service: 'users', auth: 'none' });
    expect(resolveFileRoute('/accounts/unsubscribe/digest/../x')).toBeUndefined();
    expect(resolveFileRoute('/loginx')).toBeUndefined();
  });
  it('has the gateway serve the web app: its shell at / and its build below /static/app/', () => {
    expect(resolveFileRoute('/')).toMatchObject({ service: 'gateway', auth: 'none' });
    expect(resolveFileRoute(`${WEB_APP_ASSET_PREFIX}assets/index-abc123.js`)).toMatchObject({ service: 'gateway', auth: 'none' });
    expect(resolveFileRoute(WEB_APP_ASSET_PREFIX)).toBeUndefined();
    expect(resolveFileRoute('/static/other.js')).toBeUndefined();
  });
  it('has the gateway serve the emoji data file to anyone, at the family\'s path', () => {
    expect(SERVER_EMOJI_DATA_PATH).toBe('/static/generated/emoji/emoji_api.json');
    expect(resolveFileRoute(SERVER_EMOJI_DATA_PATH)).toMatchObject({ service: 'gateway', auth: 'none' });
    expect(resolveFileRoute('/static/generated/emoji/emoji_apixjson')).toBeUndefined();
    expect(resolveFileRoute('/static/generated/emoji/other.json')).toBeUndefined();
    expect(serverEmojiDataUrl('https://chat.example.com')).toBe('https://chat.example.com/static/generated/emoji/emoji_api.json');
    expect(serverEmojiDataUrl('https://chat.example.com/')).toBe('https://chat.example.com/static/generated/emoji/emoji_api.json');
  });
});

describe('catalogue', () => {
  it('renders the envelope with extra keys', () => {
    const e = errors.badEventQueueId('abc');
    expect(e).toBeInstanceOf(ApiError);
    expect(e.toJSON()).toEqual({ result: 'error', code: 'BAD_EVENT_QUEUE_ID', msg: 'Bad event queue ID: abc', queue_id: 'abc' });
  });
  it('maps flag bits to wire names', () => {
    expect(flagNames(flagBit('read') | flagBit('stream_wildcard_mentioned'))).toEqual(['read', 'stream_wildcard_mentioned', 'wildcard_mentioned']);
  });
});
