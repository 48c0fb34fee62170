/**
 * Which service owns which path. The gateway forwards by this table (first match wins, so
 * specific patterns come before general ones); tests check every path of the spec resolves.
 */
export type ServiceName = 'gateway' | 'messaging' | 'users' | 'events' | 'uploads' | 'push';
export const SERVICES: readonly ServiceName[] = ['gateway', 'messaging', 'users', 'events', 'uploads', 'push'];

/**
 * Node options a service must be started with, before its script (`node <these> --import tsx
 * services/<name>/src/main.ts`): every launcher, the deployment files and the tests' process
 * launcher pass them. The gateway's young generation is bounded so that each scavenge stays short while
 * it holds tens of thousands of long-polls whose objects mostly survive (ADR 0004, sized by ADR
 * 0024), objects are never allocated straight into the old generation (ADR 0027), and its old
 * generation is not collected below 64 MB, where a small live heap next to that young
 * generation kept full collections running back to back (ADR 0034). No
 * service runs V8's memory reducer: its full collections in a service gone quiet took both
 * cores from the busy ones beside it, stalling sends and deliveries (ADR 0033).
 */
export const SERVICE_NODE_ARGS: Readonly<Record<ServiceName, readonly string[]>> = {
  gateway: ['--max-semi-space-size=8', '--no-allocation-site-pretenuring', '--no-memory-reducer', '--initial-old-space-size=64'],
  messaging: ['--no-memory-reducer'],
  users: ['--no-memory-reducer'],
  events: ['--no-memory-reducer'],
  uploads: ['--no-memory-reducer'],
  push: ['--no-memory-reducer'],
};

/**
 * none: never authenticated; optional: authenticated when credentials are sent; required;
 * webhook: required, by the `api_key` query parameter or HTTP Basic (what a third-party service
 * can be told to send: docs/integrations.md).
 */
export type AuthMode = 'none' | 'optional' | 'required' | 'webhook';

export interface RouteRule {
  /** Matched against the path below /api/v1 (API routes) or the full path (file routes). */
  pattern: RegExp;
  service: ServiceName;
  auth: AuthMode;
  /** Only these methods take this auth mode; other methods fall through to the next rule. */
  methods?: readonly string[];
}

const id = '\\d+';
const r = (re: string) => new RegExp(`^${re}/?$`);

/** Path of the emoji data file that `server_emoji_data_url` points to (the family's path). */
export const SERVER_EMOJI_DATA_PATH = '/static/generated/emoji/emoji_api.json';

/**
 * The web app (docs/gateway.md): the gateway serves its shell at `/` to a logged-in browser and
 * the files of its build below this prefix, the same for every realm.
 */
export const WEB_APP_ASSET_PREFIX = '/static/app/';

/** `server_emoji_data_url` of a realm, as `POST /register` reports it. */
export function serverEmojiDataUrl(realmUrl: string): string {
  return new URL(SERVER_EMOJI_DATA_PATH, realmUrl).href;
}

/**
 * The account pages at the family's paths: `/login/`, `/register/`, `/join/<key>/` and
 * `/accounts/...` (login, logout, password reset, sign-up by email confirmation, API key, the
 * confirmation link of an email address change).
 * `/` is the web app's (WEB_APP_PATHS).
 */
export const PAGE_PATHS = /^\/(login\/?|register\/?|join\/[^/]+\/?|accounts\/(login|logout|home|register|send_confirm|do_confirm|password|api_key|confirm_new_email)(\/.*)?)$/;

/**
 * Routes under /api/v1, and under /json for the web app, which the gateway authenticates by its
 * browser session instead of HTTP Basic (docs/gateway.md).
 */
export const API_ROUTES: readonly RouteRule[] = [
  // Unauthenticated entry points.
  { pattern: r('/server_settings'), service: 'users', auth: 'none' },
  { pattern: r('/jwt/fetch_api_key'), service: 'users', auth: 'none' },
  { pattern: r('/fetch_api_key'), service: 'users', auth: 'none' },
  { pattern: r('/dev_fetch_api_key'), service: 'users', auth: 'none' },
  { pattern: r('/dev_list_users'), service: 'users', auth: 'none' },
  { pattern: r('/register'), service: 'events', auth: 'optional' },
  // The gateway serves GET/DELETE /events itself; registering through GET /events without a
  // queue_id is forwarded to the events service by the gateway's own handler.
  { pattern: r('/events'), service: 'gateway', auth: 'required' },

  // Push devices.
  { pattern: r('/mobile_push(/.*)?'), service: 'push', auth: 'required' },
  { pattern: r('/register_client_device'), service: 'push', auth: 'required' },
  { pattern: r('/remove_client_device'), service: 'push', auth: 'required' },
  { pattern: r('/users/me/apns_device_token'), service: 'push', auth: 'required' },
  { pattern: r('/users/me/android_gcm_reg_id'), service: 'push', auth: 'required' },

  // Uploads, attachments, avatars, custom emoji images.
  { pattern: r('/user_uploads(/.*)?'), service: 'uploads', auth: 'required' },
  { pattern: r('/tus(/.*)?'), service: 'uploads', auth: 'required' },
  { pattern: r('/attachments(/.*)?'), service: 'uploads', auth: 'required' },
  { pattern: r('/users/me/avatar'), service: 'uploads', auth: 'required' },
  { pattern: r('/realm/(icon|logo)'), service: 'uploads', auth: 'required' },
  { pattern: r('/realm/emoji(/.*)?'), service: 'uploads', auth: 'required' },
  // A Welcome Bot message: sent by the service that sends the onboarding messages.
  { pattern: r('/realm/test_welcome_bot_custom_message'), service: 'messaging', auth: 'required' },
  { pattern: r(`/avatar/[^/]+(/medium)?`), service: 'uploads', auth: 'required' },

  // Messaging: channels, subscriptions, topics, messages, flags, reactions, drafts, typing.
  { pattern: r('/messages(/.*)?'), service: 'messaging', auth: 'required' },
  { pattern: r('/message_edit_typing'), service: 'messaging', auth: 'required' },
  { pattern: r('/typing'), service: 'messaging', auth: 'required' },
  { pattern: r('/submessage'), service: 'messaging', auth: 'required' },
  { pattern: r('/drafts(/.*)?'), service: 'messaging', auth: 'required' },
  { pattern: r('/streams(/.*)?'), service: 'messaging', auth: 'required' },
  { pattern: r('/channels(/.*)?'), service: 'messaging', auth: 'required' },
  { pattern: r('/get_stream_id'), service: 'messaging', auth: 'required' },
  { pattern: r('/default_streams(/.*)?'), service: 'messaging', auth: 'required' },
  { pattern: r('/default_stream_groups(/.*)?'), service: 'messaging', auth: 'required' },
  { pattern: r('/users/me/subscriptions(/.*)?'), service: 'messaging', auth: 'required' },
  { pattern: r(`/users/(me|${id})/subscriptions/${id}`), service: 'messaging', auth: 'required' },
  { pattern: r(`/users/${id}/channels`), service: 'messaging', auth: 'required' },
  { pattern: r(`/users/me/${id}/topics`), service: 'messaging', auth: 'required' },
  { pattern: r('/users/me/muted_topics'), service: 'messaging', auth: 'required' },
  { pattern: r('/user_topics'), service: 'messaging', auth: 'required' },
  { pattern: r('/mark_all_as_read'), service: 'messaging', auth: 'required' },
  { pattern: r('/mark_stream_as_read'), service: 'messaging', auth: 'required' },
  { pattern: r('/mark_topic_as_read'), service: 'messaging', auth: 'required' },
  { pattern: r('/scheduled_messages(/.*)?'), service: 'messaging', auth: 'required' },
  { pattern: r('/reminders(/.*)?'), service: 'messaging', auth: 'required' },

  // Incoming webhook integrations (docs/integrations.md): posted by third-party services.
  { pattern: r('/external/[a-z0-9_]+'), service: 'messaging', auth: 'webhook', methods: ['POST'] },

  // Users and realm administration: everything else about people and the organization.
  { pattern: r('/users(/.*)?'), service: 'users', auth: 'required' },
  { pattern: r('/bots(/.*)?'), service: 'users', auth: 'required' },
  { pattern: r('/settings(/.*)?'), service: 'users', auth: 'required' },
  { pattern: r('/realm(/.*)?'), service: 'users', auth: 'required' },
  { pattern: r('/invites(/.*)?'), service: 'users', auth: 'required' },
  { pattern: r('/channel_folders(/.*)?'), service: 'users', auth: 'required' },
  { pattern: r('/navigation_views(/.*)?'), service: 'users', auth: 'required' },
  { pattern: r('/saved_snippets(/.*)?'), service: 'users', auth: 'required' },
  { pattern: r('/user_groups(/.*)?'), service: 'users', auth: 'required' },
  { pattern: r('/export/realm(/.*)?'), service: 'users', auth: 'required' },
  { pattern: r('/calls/(zoom|bigbluebutton)/create'), service: 'users', auth: 'required' },
  { pattern: r('/bot_storage'), service: 'users', auth: 'required' },
];

/**
 * Routes outside /api/v1 (and /json, the web app's name for it): served files, realm exports,
 * the web app and the account pages.
 */
export const FILE_ROUTES: readonly RouteRule[] = [
  // The Unicode emoji names mobile clients download (server_emoji_data_url): the gateway serves
  // it itself, to anyone, as the family's servers serve it among their static files.
  { pattern: new RegExp(`^${SERVER_EMOJI_DATA_PATH.replace(/[.]/g, '\\.')}$`), service: 'gateway', auth: 'none' },
  // The web app's shell (any query string; the gateway checks the session itself) and its files.
  { pattern: /^\/$/, service: 'gateway', auth: 'none' },
  { pattern: /^\/static\/app\/.+$/, service: 'gateway', auth: 'none' },
  { pattern: /^\/user_uploads\/.+$/, service: 'uploads', auth: 'optional' },
  // The image proxy (the family's camo path): external images of messages, signed by messaging.
  { pattern: /^\/external_content\/[0-9a-f]+\/[0-9a-f]+$/, service: 'messaging', auth: 'optional' },
  // Realm export tarballs live below /user_avatars/ as on the family's server, but the users service writes them.
  { pattern: /^\/user_avatars\/exports\/.+$/, service: 'users', auth: 'optional' },
  { pattern: /^\/user_avatars\/.+$/, service: 'uploads', auth: 'optional' },
  { pattern: /^\/avatar\/[^/]+(\/medium)?\/?$/, service: 'uploads', auth: 'optional' },
  // Browser pages for people (sign-up, login, password reset, API key): the users service keeps
  // their sessions itself (a cookie and Redis), so the gateway passes them through unauthenticated.
  { pattern: PAGE_PATHS, service: 'users', auth: 'none' },
  // One-click unsubscribe links of mails: the signed token in the path is the permission.
  { pattern: /^\/accounts\/unsubscribe\/[a-z_]+\/[A-Za-z0-9_-]+\/?$/, service: 'users', auth: 'none' },
  // Video-call browser flows; the provider's callback and deauthorization carry no credentials.
  { pattern: /^\/calls\/zoom\/deauthorize\/?$/, service: 'users', auth: 'none' },
  { pattern: /^\/calls\/(zoom\/(register|complete)|bigbluebutton\/join)\/?$/, service: 'users', auth: 'optional' },
];

export function resolveApiRoute(subpath: string, method: string): RouteRule | undefined {
  return API_ROUTES.find((rule) => rule.pattern.test(subpath) && (!rule.methods || rule.methods.includes(method)));
}

export function resolveFileRoute(path: string): RouteRule | undefined {
  return FILE_ROUTES.find((rule) => rule.pattern.test(path));
}
