import { SYSTEM_GROUPS } from './groups';

/**
 * Realm policies kept in realms.settings (JSON) rather than in columns, with the values a new
 * realm starts from. A stored value overrides its default; absent keys mean the default.
 * Every service reads policies through realmPolicies() so they agree on the defaults.
 */
export const REALM_POLICY_DEFAULTS = {
  enable_spectator_access: false,
  email_changes_disabled: false,
  name_changes_disabled: false,
  avatar_changes_disabled: false,
  invite_required: true,
  emails_restricted_to_domains: false,
  disallow_disposable_email_addresses: true,
  waiting_period_threshold: 0,
  allow_message_editing: true,
  message_content_edit_limit_seconds: 600 as number | null,
  message_content_delete_limit_seconds: null as number | null,
  move_messages_within_stream_limit_seconds: 604800 as number | null,
  move_messages_between_streams_limit_seconds: 604800 as number | null,
  message_retention_days: -1,
  default_language: 'en',
  default_code_block_language: '',
  inline_image_preview: true,
  inline_url_embed_preview: false,
  digest_emails_enabled: false,
  digest_weekday: 1,
  send_welcome_emails: true,
  message_content_allowed_in_email_notifications: true,
  enable_read_receipts: true,
  enable_guest_user_indicator: true,
  enable_guest_user_dm_warning: true,
  require_unique_names: false,
  video_chat_provider: 1,
  giphy_rating: 2,
  want_advertise_in_communities_directory: false,
  org_type: 0,
  jitsi_server_url: null as string | null,
  moderation_request_channel_id: -1,
  new_stream_announcements_stream_id: -1,
  signup_announcements_stream_id: -1,
  zulip_update_announcements_stream_id: -1,
};

export type RealmPolicies = typeof REALM_POLICY_DEFAULTS;

/**
 * Group-setting policies ("who may do X"): the default is a system group, named here and
 * resolved to the realm's group id when read. A stored value is a group id or
 * {direct_members, direct_subgroups}.
 */
export const REALM_GROUP_SETTING_DEFAULTS: Record<string, string> = {
  can_access_all_users_group: SYSTEM_GROUPS.everyone,
  can_add_custom_emoji_group: SYSTEM_GROUPS.members,
  can_add_subscribers_group: SYSTEM_GROUPS.members,
  can_create_bots_group: SYSTEM_GROUPS.members,
  can_create_groups: SYSTEM_GROUPS.members,
  can_create_private_channel_group: SYSTEM_GROUPS.members,
  can_create_public_channel_group: SYSTEM_GROUPS.members,
  can_create_web_public_channel_group: SYSTEM_GROUPS.owners,
  can_create_write_only_bots_group: SYSTEM_GROUPS.members,
  can_delete_any_message_group: SYSTEM_GROUPS.administrators,
  can_delete_own_message_group: SYSTEM_GROUPS.everyone,
  can_invite_users_group: SYSTEM_GROUPS.members,
  can_manage_all_groups: SYSTEM_GROUPS.owners,
  can_manage_billing_group: SYSTEM_GROUPS.administrators,
  can_mention_many_users_group: SYSTEM_GROUPS.administrators,
  can_move_messages_between_channels_group: SYSTEM_GROUPS.members,
  can_move_messages_between_topics_group: SYSTEM_GROUPS.everyone,
  can_resolve_topics_group: SYSTEM_GROUPS.everyone,
  can_set_delete_message_policy_group: SYSTEM_GROUPS.moderators,
  can_set_topics_policy_group: SYSTEM_GROUPS.moderators,
  can_summarize_topics_group: SYSTEM_GROUPS.everyone,
  create_multiuse_invite_group: SYSTEM_GROUPS.administrators,
  direct_message_initiator_group: SYSTEM_GROUPS.everyone,
  direct_message_permission_group: SYSTEM_GROUPS.everyone,
};

/** A group-setting value: a group id, or an anonymous group of users and subgroups. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** Realm policies with defaults filled in. */
export function realmPolicies(settings: unknown): RealmPolicies {
  const stored = (settings && typeof settings === 'object' ? settings : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...REALM_POLICY_DEFAULTS };
  for (const key of Object.keys(REALM_POLICY_DEFAULTS)) {
    if (key in stored) out[key] = stored[key];
  }
  return out as RealmPolicies;
}

/**
 * Stored group-setting values with defaults filled in; defaults come back as system group
 * names for the caller to resolve (`systemGroupIds`), stored values as they were saved.
 */
export function realmGroupSettings(
  settings: unknown,
  systemGroupIds: Map<string, number>,
): Record<string, GroupSettingValue> {
  const stored = (settings && typeof settings === 'object' ? settings : {}) as Record<string, unknown>;
  const out: Record<string, GroupSettingValue> = {};
  for (const [key, fallback] of Object.entries(REALM_GROUP_SETTING_DEFAULTS)) {
    const v = stored[key];
    out[key] = v !== undefined && v !== null ? (v as GroupSettingValue) : (systemGroupIds.get(fallback) ?? 0);
  }
  return out;
}
