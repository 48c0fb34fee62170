/**
 * Facts about this server that register's initial state and GET /server_settings give, defined
 * once so the two answers cannot disagree.
 */
import { FEATURE_LEVEL, SERVER_EMOJI_DATA_PATH, SERVER_VERSION, SYSTEM_GROUPS } from '@chat/contracts';
import { STREAM_GROUP_SETTINGS } from './streams';
import { PRESENCE_TIMES } from './presence';
import { THUMBNAIL_FORMATS } from './thumbnails';

/**
 * The version keys, under both names: the family's clients read `zulip_*`, ours `svc_*`.
 * `mergeBase` is the MERGE_BASE configuration (empty: the version itself).
 */
export function versionFields(mergeBase: string): Record<string, string | number> {
  const base = mergeBase || SERVER_VERSION;
  return {
    zulip_version: SERVER_VERSION,
    zulip_feature_level: FEATURE_LEVEL,
    zulip_merge_base: base,
    svc_version: SERVER_VERSION,
    svc_feature_level: FEATURE_LEVEL,
    svc_merge_base: base,
  };
}

/**
 * Built-in kinds of "external account" custom profile field, as the family's server offers
 * them: register's realm_default_external_accounts, and the subtypes a field may choose.
 */
export const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { name: string; text: string; hint: string; url_pattern: string }> = {
  github: { name: 'GitHub', text: 'GitHub', hint: 'Enter your GitHub username', url_pattern: 'https://github.com/%(username)s' },
  twitter: { name: 'Twitter', text: 'Twitter', hint: 'Enter your Twitter username', url_pattern: 'https://twitter.com/%(username)s' },
};

/** Reasons a message may be reported for, in the order clients offer them. */
export const REPORT_MESSAGE_TYPES = [
  { key: 'spam', name: 'Spam' },
  { key: 'harassment', name: 'Harassment' },
  { key: 'inappropriate', name: 'Inappropriate content' },
  { key: 'norms', name: 'Violates community norms' },
  { key: 'other', name: 'Other reason' },
];

/** Typing notification timings clients follow (milliseconds), the family's values. */
export const TYPING_TIMES = { startedExpiryMs: 15000, stoppedWaitMs: 5000, startedWaitMs: 10000 } as const;

/** Video calls of the Jitsi provider go here unless the realm names its own server. */
export const JITSI_SERVER_URL = 'https://meet.jit.si';

/** Days a deactivated realm is kept before deletion may be scheduled (lower bound; no upper). */
export const MIN_DEACTIVATED_REALM_DELETION_DAYS = 14;

interface PermissionSetting {
  require_system_group: boolean;
  allow_internet_group: boolean;
  allow_nobody_group: boolean;
  allow_everyone_group: boolean;
  default_group_name: string;
  default_for_system_groups: string | null;
  allowed_system_groups: string[];
}

function permission(defaultGroup: string, overrides: Partial<PermissionSetting> = {}): PermissionSetting {
  return {
    require_system_group: false,
    allow_internet_group: false,
    allow_nobody_group: true,
    allow_everyone_group: true,
    default_group_name: defaultGroup,
    default_for_system_groups: null,
    allowed_system_groups: [],
    ...overrides,
  };
}

const EVERYONE_REFUSED = { allow_everyone_group: false };

/**
 * How realm settings differ from permission()'s defaults, as the family's
 * Realm.REALM_PERMISSION_GROUP_SETTINGS: who may see everyone takes only "everyone" or
 * "members"; web-public channels only staff or nobody; nobody may not manage all groups or
 * billing; the rest refuse "everyone" where a guest must never hold them.
 */
const REALM_PERMISSION_LIMITS: Record<string, Partial<PermissionSetting>> = {
  can_access_all_users_group: { require_system_group: true, allow_nobody_group: false, allowed_system_groups: [SYSTEM_GROUPS.everyone, SYSTEM_GROUPS.members] },
  can_create_web_public_channel_group: {
    require_system_group: true,
    allow_everyone_group: false,
    allowed_system_groups: [SYSTEM_GROUPS.moderators, SYSTEM_GROUPS.administrators, SYSTEM_GROUPS.owners, SYSTEM_GROUPS.nobody],
  },
  can_manage_all_groups: { allow_nobody_group: false, allow_everyone_group: false },
  can_manage_billing_group: { allow_nobody_group: false, allow_everyone_group: false },
  create_multiuse_invite_group: EVERYONE_REFUSED,
  can_add_subscribers_group: EVERYONE_REFUSED,
  can_add_custom_emoji_group: EVERYONE_REFUSED,
  can_create_bots_group: EVERYONE_REFUSED,
  can_create_groups: EVERYONE_REFUSED,
  can_create_public_channel_group: EVERYONE_REFUSED,
  can_create_private_channel_group: EVERYONE_REFUSED,
  can_create_write_only_bots_group: EVERYONE_REFUSED,
  can_delete_any_message_group: EVERYONE_REFUSED,
  can_invite_users_group: EVERYONE_REFUSED,
  can_move_messages_between_channels_group: EVERYONE_REFUSED,
  can_set_delete_message_policy_group: EVERYONE_REFUSED,
};

/**
 * server_supported_permission_settings: for each group setting of realms, channels and groups,
 * what values it accepts and its default. `realmDefaults` are the realm group settings'
 * defaults (@chat/realm REALM_GROUP_SETTING_DEFAULTS), passed in since wire does not depend on
 * realm.
 */
export function supportedPermissionSettings(realmDefaults: Record<string, string>) {
  const realm = Object.fromEntries(
    Object.entries(realmDefaults).map(([key, group]) => [key, permission(group, REALM_PERMISSION_LIMITS[key] ?? {})]),
  );
  const stream = Object.fromEntries(
    Object.entries(STREAM_GROUP_SETTINGS).map(([key, c]) => [key, permission(c.defaultGroup, { allow_everyone_group: c.allowEveryoneGroup })]),
  );
  const group = Object.fromEntries(
    ['can_add_members_group', 'can_join_group', 'can_leave_group', 'can_manage_group', 'can_mention_group', 'can_remove_members_group'].map((key) => [
      key,
      permission(key === 'can_mention_group' || key === 'can_leave_group' ? SYSTEM_GROUPS.everyone : SYSTEM_GROUPS.nobody, {
        default_for_system_groups: SYSTEM_GROUPS.nobody,
        // Only people who joined the organization may change a group's membership or manage it.
        allow_everyone_group: key === 'can_mention_group' || key === 'can_leave_group',
      }),
    ]),
  );
  return { realm, stream, group };
}

export interface ServerFactsOptions {
  realmUrl: string;
  realmDefaults: Record<string, string>;
}

/** The server_* keys and limits of register's realm section. */
export function serverFacts(opts: ServerFactsOptions): Record<string, unknown> {
  return {
    server_presence_ping_interval_seconds: PRESENCE_TIMES.pingIntervalSecs,
    server_presence_offline_threshold_seconds: PRESENCE_TIMES.offlineThresholdSecs,
    server_typing_started_expiry_period_milliseconds: TYPING_TIMES.startedExpiryMs,
    server_typing_stopped_wait_period_milliseconds: TYPING_TIMES.stoppedWaitMs,
    server_typing_started_wait_period_milliseconds: TYPING_TIMES.startedWaitMs,
    server_min_deactivated_realm_deletion_days: MIN_DEACTIVATED_REALM_DELETION_DAYS,
    server_max_deactivated_realm_deletion_days: null,
    server_inline_image_preview: true,
    // Link previews exist (the messaging service's job); each realm turns them on or not.
    server_inline_url_embed_preview: true,
    // What the uploads service makes of every image (its thumbnail job reads the same list).
    server_thumbnail_formats: THUMBNAIL_FORMATS.map((f) => ({ ...f })),
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_needs_upgrade: false,
    server_web_public_streams_enabled: true,
    server_emoji_data_url: new URL(SERVER_EMOJI_DATA_PATH, opts.realmUrl).toString(),
    server_jitsi_server_url: JITSI_SERVER_URL,
    server_can_summarize_topics: false,
    server_supported_permission_settings: supportedPermissionSettings(opts.realmDefaults),
    server_report_message_types: REPORT_MESSAGE_TYPES,
    realm_default_external_accounts: DEFAULT_EXTERNAL_ACCOUNTS,
  };
}

/** The realm's stored choice (settings.authentication_methods), backend name to on/off. */
function storedBackends(realmSettings: unknown): Record<string, unknown> {
  const stored = (realmSettings as { authentication_methods?: unknown } | null | undefined)?.authentication_methods;
  return stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
}

/** Email and password login, unless the realm switched it off; on where there is no realm. */
export function passwordAuthEnabled(realmSettings: unknown): boolean {
  return storedBackends(realmSettings).Email !== false;
}

/**
 * Login methods offered (server_settings' authentication_methods): email and password where the
 * realm allows it, the development key fetch outside production, and JWT logins set up per realm
 * (which the family does not list here).
 */
export function authenticationMethods(development: boolean, realmSettings?: unknown): Record<string, boolean> {
  const password = passwordAuthEnabled(realmSettings);
  return {
    password,
    dev: development && storedBackends(realmSettings).Dev !== false,
    email: password,
    ldap: false,
    remoteuser: false,
    github: false,
    azuread: false,
    gitlab: false,
    apple: false,
    google: false,
    saml: false,
    'openid connect': false,
  };
}

/** The same methods under the family's backend names, as register's realm_authentication_methods. */
const BACKEND_NAMES: Record<string, string> = {
  email: 'Email', dev: 'Dev', ldap: 'LDAP', remoteuser: 'RemoteUser', github: 'GitHub', azuread: 'AzureAD',
  gitlab: 'GitLab', apple: 'Apple', google: 'Google', saml: 'SAML', 'openid connect': 'OpenID Connect',
};

export function realmAuthenticationMethods(
  development: boolean,
  realmSettings?: unknown,
): Record<string, { enabled: boolean; available: boolean; unavailable_reason?: string }> {
  const methods = authenticationMethods(development, realmSettings);
  const offered = new Set<string>(['Email', ...(development ? ['Dev'] : [])]);
  return Object.fromEntries(
    Object.entries(BACKEND_NAMES).map(([key, name]) => [name, { enabled: methods[key] === true, available: offered.has(name) }]),
  );
}
