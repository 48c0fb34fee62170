import { errors } from '@chat/contracts';
import { DEFAULT_USER_SETTINGS, EMOJISET_CHOICES, NOTIFICATION_SOUNDS as SOUNDS } from '@chat/realm';
import { EMAIL_VISIBILITY_VALUES } from './emails';

/**
 * Every personal setting with its type and allowed values, shared by PATCH /settings and
 * PATCH /realm/user_settings_defaults. Names and values are those of the spec's defaults table.
 */
export type SettingKind =
  | { kind: 'bool' }
  | { kind: 'int'; allowed?: readonly number[]; min?: number; max?: number }
  | { kind: 'string'; allowed?: readonly string[]; check?: (v: string) => boolean; invalid?: (v: string) => string };

const bool = { kind: 'bool' } as const;
const intIn = (...allowed: number[]) => ({ kind: 'int', allowed }) as const;
const strIn = (...allowed: string[]) => ({ kind: 'string', allowed }) as const;

/** Notification sounds clients offer (@chat/realm, also register's available_notification_sounds), plus "none". */
export const NOTIFICATION_SOUNDS = ['none', ...SOUNDS];

/** Interface languages offered, by code, with the name user_settings events carry. */
export const LANGUAGES: Record<string, string> = {
  en: 'English', 'en-gb': 'British English', de: 'Deutsch', es: 'español', fr: 'français', it: 'italiano',
  ja: '日本語', ko: '한국어', nl: 'Nederlands', pl: 'polski', pt: 'português', 'pt-br': 'Português Brasileiro',
  ru: 'Русский', sv: 'svenska', tr: 'Türkçe', uk: 'українська', zh_hans: '简体中文', zh_hant: '繁體中文', hi: 'हिंदी', id: 'Bahasa Indonesia',
};

export const SETTINGS: Record<string, SettingKind> = {
  starred_message_counts: bool,
  receives_typing_notifications: bool,
  web_suggest_update_timezone: bool,
  fluid_layout_width: bool,
  high_contrast_mode: bool,
  enable_drafts_synchronization: bool,
  translate_emoticons: bool,
  display_emoji_reaction_users: bool,
  web_escape_navigates_to_home_view: bool,
  left_side_userlist: bool,
  hide_ai_features: bool,
  web_inbox_show_channel_folders: bool,
  enable_stream_desktop_notifications: bool,
  enable_stream_email_notifications: bool,
  enable_stream_push_notifications: bool,
  enable_stream_audible_notifications: bool,
  enable_desktop_notifications: bool,
  enable_sounds: bool,
  enable_followed_topic_desktop_notifications: bool,
  enable_followed_topic_email_notifications: bool,
  enable_followed_topic_push_notifications: bool,
  enable_followed_topic_audible_notifications: bool,
  enable_offline_email_notifications: bool,
  enable_offline_push_notifications: bool,
  enable_online_push_notifications: bool,
  enable_digest_emails: bool,
  enable_login_emails: bool,
  message_content_in_email_notifications: bool,
  pm_content_in_desktop_notifications: bool,
  wildcard_mentions_notify: bool,
  enable_followed_topic_wildcard_mentions_notify: bool,
  automatically_follow_topics_where_mentioned: bool,
  presence_enabled: bool,
  allow_private_data_export: bool,
  enter_sends: bool,
  twenty_four_hour_time: bool,
  send_private_typing_notifications: bool,
  send_stream_typing_notifications: bool,
  send_read_receipts: bool,
  web_navigate_to_sent_message: bool,
  web_channel_default_view: intIn(1, 2, 3, 4),
  color_scheme: intIn(1, 2, 3),
  demote_inactive_streams: intIn(1, 2, 3),
  user_list_style: intIn(1, 2, 3),
  web_stream_unreads_count_display_policy: intIn(1, 2, 3),
  desktop_icon_count_display: intIn(1, 2, 3, 4),
  automatically_follow_topics_policy: intIn(1, 2, 3, 4),
  automatically_unmute_topics_in_muted_streams_policy: intIn(1, 2, 3, 4),
  email_address_visibility: { kind: 'int', allowed: EMAIL_VISIBILITY_VALUES },
  web_font_size_px: { kind: 'int', min: 1 },
  web_line_height_percent: { kind: 'int', min: 1 },
  // Positive and at most a week, as the API family bounds it.
  email_notifications_batching_period_seconds: { kind: 'int', min: 1, max: 7 * 24 * 3600 },
  realm_name_in_email_notifications_policy: intIn(1, 2, 3),
  web_home_view: strIn('recent', 'inbox', 'all_messages'),
  emojiset: strIn(...EMOJISET_CHOICES.map((c) => c.key)),
  web_animate_image_previews: strIn('always', 'on_hover', 'never'),
  resolved_topic_notice_auto_read_policy: strIn('always', 'except_followed', 'never'),
  // The family names the refused sound rather than the parameter.
  notification_sound: { kind: 'string', allowed: NOTIFICATION_SOUNDS, invalid: (v) => `Invalid notification sound '${v}'` },
  default_language: { kind: 'string', allowed: Object.keys(LANGUAGES) },
};

export const SETTING_NAMES = Object.keys(SETTINGS).filter((n) => n in DEFAULT_USER_SETTINGS);

/** Parses one raw parameter of a setting; unknown values answer "Invalid <name>". */
export function parseSetting(name: string, raw: unknown): boolean | number | string {
  const spec = SETTINGS[name];
  if (!spec) throw errors.invalidArgument(name);
  const value = typeof raw === 'string' ? raw : typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined;
  if (value === undefined) throw errors.invalidArgument(name);
  if (spec.kind === 'bool') {
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw errors.invalidArgument(name, `${name} is not a boolean`);
  }
  if (spec.kind === 'int') {
    if (!/^-?\d+$/.test(value.trim())) throw errors.invalidArgument(name, `${name} is not an integer`);
    const n = Number(value);
    if (spec.allowed && !spec.allowed.includes(n)) throw errors.invalidArgument(name);
    if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
      if (name === 'email_notifications_batching_period_seconds') throw errors.badRequest(`Invalid email batching period: ${n} seconds`);
      throw errors.invalidArgument(name);
    }
    return n;
  }
  if (spec.allowed && !spec.allowed.includes(value)) throw errors.invalidArgument(name, spec.invalid?.(value));
  return value;
}
