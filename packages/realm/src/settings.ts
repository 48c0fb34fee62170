/**
 * Personal settings and their defaults, named as in the realm user-settings defaults table.
 * A new user starts from the realm's defaults (realm.settings.user_defaults) over these.
 */
export const DEFAULT_USER_SETTINGS: Record<string, boolean | number | string> = {
  starred_message_counts: true,
  receives_typing_notifications: true,
  web_suggest_update_timezone: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  enable_drafts_synchronization: true,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  web_escape_navigates_to_home_view: true,
  left_side_userlist: false,
  hide_ai_features: false,
  web_inbox_show_channel_folders: true,
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_audible_notifications: true,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_digest_emails: true,
  enable_login_emails: true,
  message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  enable_followed_topic_wildcard_mentions_notify: true,
  automatically_follow_topics_where_mentioned: true,
  presence_enabled: true,
  enter_sends: false,
  twenty_four_hour_time: false,
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
  allow_private_data_export: false,
  web_navigate_to_sent_message: true,
  web_channel_default_view: 1,
  color_scheme: 1,
  demote_inactive_streams: 1,
  user_list_style: 2,
  web_stream_unreads_count_display_policy: 2,
  desktop_icon_count_display: 1,
  automatically_follow_topics_policy: 3,
  automatically_unmute_topics_in_muted_streams_policy: 3,
  email_address_visibility: 1,
  web_font_size_px: 16,
  web_line_height_percent: 140,
  email_notifications_batching_period_seconds: 120,
  realm_name_in_email_notifications_policy: 1,
  web_home_view: 'inbox',
  emojiset: 'google',
  web_animate_image_previews: 'on_hover',
  resolved_topic_notice_auto_read_policy: 'except_followed',
  notification_sound: 'zulip',
  default_language: 'en',
  timezone: '',
};

export function initialUserSettings(realmSettings: unknown): Record<string, boolean | number | string> {
  const defaults = (realmSettings as { user_defaults?: Record<string, boolean | number | string> } | null)?.user_defaults;
  return { ...DEFAULT_USER_SETTINGS, ...(defaults ?? {}) };
}

/** Emoji sets a user may choose (`emojiset`), with the names clients show for them. */
export const EMOJISET_CHOICES: ReadonlyArray<{ key: string; text: string }> = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
];

/** Notification sounds clients offer, sorted; `notification_sound` may also be "none". */
export const NOTIFICATION_SOUNDS: readonly string[] = [
  'chime-sequence', 'chord', 'cloud', 'ding', 'early-morning', 'mallet', 'marimba', 'peace', 'rich-chime', 'sedate',
  'simple', 'sprightly', 'tri-tone', 'two-tone', 'woodpecker', 'zulip',
];

/** What people who join later start with: every personal setting except the time zone. */
export function realmUserSettingsDefaults(realmSettings: unknown): Record<string, boolean | number | string> {
  const { timezone: _timezone, ...rest } = initialUserSettings(realmSettings);
  return rest;
}
