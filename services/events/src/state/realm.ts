/**
 * realm: the organization's own settings under their realm_* names, every one with its stored
 * value or its default, and the server facts the family's server gives in the same section.
 */
import type { Db } from '@chat/db';
import { LIMITS, SYSTEM_GROUPS } from '@chat/contracts';
import { realmGroupSettings, realmPolicies, REALM_GROUP_SETTING_DEFAULTS, systemGroupIds, type GroupSettingValue } from '@chat/realm';
import {
  JITSI_SERVER_URL, passwordAuthEnabled, realmAuthenticationMethods, realmIconSource, realmIconUrl, realmLogoSource, realmLogoUrl, serverFacts,
} from '@chat/wire';
import { incomingWebhookBots } from '@chat/webhooks';
import type { StateOptions, Want } from '.';

/** The legacy wildcard_mention_policy a group setting value amounts to (1 everyone ... 7 moderators). */
const WILDCARD_POLICY_BY_GROUP: Record<string, number> = {
  [SYSTEM_GROUPS.everyone]: 1,
  [SYSTEM_GROUPS.members]: 2,
  [SYSTEM_GROUPS.fullMembers]: 3,
  [SYSTEM_GROUPS.administrators]: 5,
  [SYSTEM_GROUPS.owners]: 5,
  [SYSTEM_GROUPS.nobody]: 6,
  [SYSTEM_GROUPS.moderators]: 7,
};

function wildcardMentionPolicy(value: GroupSettingValue, groupNames: Map<number, string>): number {
  // An anonymous group or a user-defined one has no legacy equivalent: the administrators' is
  // the closest that never grants too much.
  if (typeof value !== 'number') return 5;
  return WILDCARD_POLICY_BY_GROUP[groupNames.get(value) ?? ''] ?? 5;
}

const VIDEO_CHAT_PROVIDERS = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
};

const GIPHY_RATING_OPTIONS = {
  disabled: { name: 'GIPHY integration disabled', id: 0 },
  y: { name: 'Allow GIFs rated Y (Very young audience)', id: 1 },
  g: { name: 'Allow GIFs rated G (General audience)', id: 2 },
  pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 3 },
  pg13: { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 4 },
};

export async function realmSection(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  if (want('realm_embedded_bots')) out.realm_embedded_bots = [];
  // The integrations this server offers (docs/integrations.md), the same for every realm.
  if (want('realm_incoming_webhook_bots')) out.realm_incoming_webhook_bots = incomingWebhookBots();
  if (want('video_calls')) out.has_zoom_token = false;
  if (!want('realm')) return out;
  const r = opts.realm;
  const stored = (r.settings ?? {}) as Record<string, unknown>;
  const groupIds = await systemGroupIds(db, r.id);
  const policies = realmPolicies(stored);
  const groupSettings = realmGroupSettings(stored, groupIds);
  // Settings without a column of their own are stored under their API names; the ones with a
  // default are given with it when never set.
  for (const [key, value] of Object.entries({ ...stored, ...policies, ...groupSettings })) {
    if (key !== 'user_defaults' && key !== 'default_stream_ids') out[`realm_${key}`] = value;
  }
  const server = opts.server;
  const host = new URL(opts.identity.realmUrl).hostname;
  return {
    ...out,
    ...serverFacts({ realmUrl: opts.identity.realmUrl, realmDefaults: REALM_GROUP_SETTING_DEFAULTS }),
    realm_name: r.name,
    realm_description: r.description,
    realm_welcome_message_custom_text: typeof stored.welcome_message_custom_text === 'string' ? stored.welcome_message_custom_text : '',
    realm_icon_url: realmIconUrl(r),
    realm_icon_source: realmIconSource(r),
    realm_logo_url: realmLogoUrl(r, false),
    realm_logo_source: realmLogoSource(r, false),
    realm_night_logo_url: realmLogoUrl(r, true),
    realm_night_logo_source: realmLogoSource(r, true),
    // MiB; null is unlimited. The quota itself is set in GiB, as the uploads service applies it.
    realm_upload_quota_mib: r.customUploadQuotaGb === null ? null : r.customUploadQuotaGb * 1024,
    realm_url: opts.identity.realmUrl,
    realm_uri: opts.identity.realmUrl,
    realm_bot_domain: host,
    realm_date_created: Math.floor(r.dateCreated.getTime() / 1000),
    realm_allow_edit_history: r.allowEditHistory,
    realm_message_edit_history_visibility_policy: r.allowEditHistory ? 'all' : 'none',
    realm_topics_policy: r.topicsPolicy,
    realm_mandatory_topics: r.topicsPolicy === 'disable_empty_topic',
    realm_wildcard_mention_policy: wildcardMentionPolicy(groupSettings.can_mention_many_users_group, new Map([...groupIds].map(([name, id]) => [id, name]))),
    realm_name_in_email_notifications_policy: 1,
    realm_web_public_access_enabled: policies.enable_spectator_access === true,
    realm_presence_disabled: stored.presence_disabled === true,
    realm_require_e2ee_push_notifications: stored.require_e2ee_push_notifications === true,
    realm_available_video_chat_providers: VIDEO_CHAT_PROVIDERS,
    realm_authentication_methods: realmAuthenticationMethods(server.development, stored),
    realm_email_auth_enabled: passwordAuthEnabled(stored),
    realm_password_auth_enabled: passwordAuthEnabled(stored),
    realm_push_notifications_enabled: server.pushNotificationsEnabled,
    realm_push_notifications_enabled_end_timestamp: null,
    // Self-hosted: no plan limits.
    realm_plan_type: 1,
    zulip_plan_is_not_limited: true,
    max_avatar_file_size_mib: 5,
    max_icon_file_size_mib: 5,
    max_logo_file_size_mib: 5,
    max_file_upload_size_mib: LIMITS.maxFileUploadSizeMib,
    jitsi_server_url: policies.jitsi_server_url ?? JITSI_SERVER_URL,
    giphy_api_key: '',
    giphy_rating_options: GIPHY_RATING_OPTIONS,
    development_environment: server.development,
    password_min_length: 6,
    password_max_length: 100,
    password_min_guesses: 10000,
    settings_send_digest_emails: false,
    upgrade_text_for_wide_organization_logo: '',
    navigation_tour_video_url: null,
    server_generation: Math.floor(Date.now() / 1000),
  };
}
