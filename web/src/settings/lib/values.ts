/**
 * The choices of each personal setting, with the API's codes (numbers or strings) and the
 * words shown for them, as the family's settings pages list them; and the settings each page
 * shows, in order. A setting the server's snapshot does not carry is not shown.
 */
import type { StringKey } from '../../i18n';

export type SettingValue = boolean | number | string;

export interface ChoiceSpec {
  value: number | string;
  label: StringKey;
}

const c = (value: number | string, label: StringKey): ChoiceSpec => ({ value, label });

export const CHOICES: Record<string, ChoiceSpec[]> = {
  color_scheme: [c(1, 'settings.pref.color_scheme.automatic'), c(3, 'settings.pref.color_scheme.light'), c(2, 'settings.pref.color_scheme.dark')],
  twenty_four_hour_time: [c('false', 'settings.pref.time.12'), c('true', 'settings.pref.time.24')],
  web_home_view: [c('inbox', 'nav.inbox'), c('recent', 'nav.recent'), c('all_messages', 'nav.feed')],
  demote_inactive_streams: [c(1, 'settings.choice.automatic'), c(2, 'settings.choice.always'), c(3, 'settings.choice.never')],
  web_mark_read_on_scroll_policy: [c(1, 'settings.choice.always'), c(2, 'settings.pref.mark_read.conversation'), c(3, 'settings.choice.never')],
  web_channel_default_view: [c(1, 'settings.pref.channel_view.top_topic'), c(4, 'settings.pref.channel_view.top_unread'), c(3, 'settings.pref.channel_view.topics'), c(2, 'settings.pref.channel_view.feed')],
  user_list_style: [c(1, 'settings.pref.user_list.compact'), c(2, 'settings.pref.user_list.status'), c(3, 'settings.pref.user_list.avatar')],
  web_animate_image_previews: [c('always', 'settings.choice.always'), c('on_hover', 'settings.pref.animate.hover'), c('never', 'settings.pref.animate.never')],
  web_stream_unreads_count_display_policy: [c(1, 'settings.pref.unreads.all'), c(2, 'settings.pref.unreads.unmuted'), c(3, 'settings.pref.unreads.none')],
  resolved_topic_notice_auto_read_policy: [c('always', 'settings.choice.always'), c('except_followed', 'settings.pref.resolved.except_followed'), c('never', 'settings.choice.never')],
  email_address_visibility: [
    c(1, 'settings.privacy.visibility.everyone'), c(2, 'settings.privacy.visibility.members'), c(5, 'settings.privacy.visibility.moderators'),
    c(3, 'settings.privacy.visibility.admins'), c(4, 'settings.privacy.visibility.nobody'),
  ],
  desktop_icon_count_display: [c(1, 'settings.notif.count.all'), c(2, 'settings.notif.count.dm_mention_followed'), c(3, 'settings.notif.count.dm_mention'), c(4, 'settings.notif.count.none')],
  realm_name_in_email_notifications_policy: [c(1, 'settings.choice.automatic'), c(2, 'settings.choice.always'), c(3, 'settings.choice.never')],
  automatically_follow_topics_policy: [c(1, 'settings.notif.auto.participate'), c(2, 'settings.notif.auto.send'), c(3, 'settings.notif.auto.start'), c(4, 'settings.choice.never')],
  automatically_unmute_topics_in_muted_streams_policy: [c(1, 'settings.notif.auto.participate'), c(2, 'settings.notif.auto.send'), c(3, 'settings.notif.auto.start'), c(4, 'settings.choice.never')],
  email_notifications_batching_period_seconds: [
    c(120, 'settings.notif.batch.2m'), c(300, 'settings.notif.batch.5m'), c(600, 'settings.notif.batch.10m'), c(1800, 'settings.notif.batch.30m'),
    c(3600, 'settings.notif.batch.1h'), c(21600, 'settings.notif.batch.6h'), c(86400, 'settings.notif.batch.1d'), c(604800, 'settings.notif.batch.1w'),
  ],
};

/** Font sizes and line heights offered (the family's information density settings). */
export const FONT_SIZES = [12, 13, 14, 15, 16, 17, 18, 19, 20];
export const LINE_HEIGHTS = [100, 110, 120, 122, 130, 140, 150, 160, 170, 180];

/**
 * Settings whose select stands for a boolean: the API's value is a boolean, the select's a
 * string. `toChoice`/`fromChoice` convert.
 */
export function toChoice(value: SettingValue): number | string {
  return typeof value === 'boolean' ? String(value) : value;
}

export function fromChoice(name: string, value: number | string, current: SettingValue): SettingValue {
  if (typeof current === 'boolean') return value === 'true';
  if (typeof current === 'number') return Number(value);
  return name === 'twenty_four_hour_time' ? value === 'true' : value;
}

/** The interface languages (used when the snapshot carries no `language_list`). */
export const LANGUAGES: ReadonlyArray<{ code: string; name: string }> = [
  { code: 'en', name: 'English' }, { code: 'en-gb', name: 'British English' }, { code: 'de', name: 'Deutsch' }, { code: 'es', name: 'español' },
  { code: 'fr', name: 'français' }, { code: 'it', name: 'italiano' }, { code: 'ja', name: '日本語' }, { code: 'ko', name: '한국어' },
  { code: 'nl', name: 'Nederlands' }, { code: 'pl', name: 'polski' }, { code: 'pt', name: 'português' }, { code: 'pt-br', name: 'Português Brasileiro' },
  { code: 'ru', name: 'Русский' }, { code: 'sv', name: 'svenska' }, { code: 'tr', name: 'Türkçe' }, { code: 'uk', name: 'українська' },
  { code: 'zh_hans', name: '简体中文' }, { code: 'zh_hant', name: '繁體中文' }, { code: 'hi', name: 'हिंदी' }, { code: 'id', name: 'Bahasa Indonesia' },
];

/** The snapshot's language_list (`[{code, name, ...}]`) or the built-in one. */
export function languageChoices(list: unknown): Array<{ code: string; name: string }> {
  if (Array.isArray(list)) {
    const out = list
      .filter((l): l is { code: string; name?: string; locale?: string } => !!l && typeof (l as { code?: unknown }).code === 'string')
      .map((l) => ({ code: l.code, name: l.name ?? l.code }));
    if (out.length) return out;
  }
  return [...LANGUAGES];
}

/** Every time zone the browser knows, for the time zone setting ("" means not set). */
export function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : ['UTC'];
}

/** The rows of the notification triggers table: per kind of message, the setting of each column. */
export const NOTIFICATION_COLUMNS = ['desktop', 'audible', 'push', 'email', 'wildcard'] as const;
export type NotificationColumn = (typeof NOTIFICATION_COLUMNS)[number];

export const NOTIFICATION_ROWS: ReadonlyArray<{ label: StringKey; settings: Partial<Record<NotificationColumn, string>> }> = [
  {
    label: 'settings.notif.row.channels',
    settings: { desktop: 'enable_stream_desktop_notifications', audible: 'enable_stream_audible_notifications', push: 'enable_stream_push_notifications', email: 'enable_stream_email_notifications', wildcard: 'wildcard_mentions_notify' },
  },
  {
    label: 'settings.notif.row.dms',
    settings: { desktop: 'enable_desktop_notifications', audible: 'enable_sounds', push: 'enable_offline_push_notifications', email: 'enable_offline_email_notifications' },
  },
  {
    label: 'settings.notif.row.followed',
    settings: { desktop: 'enable_followed_topic_desktop_notifications', audible: 'enable_followed_topic_audible_notifications', push: 'enable_followed_topic_push_notifications', email: 'enable_followed_topic_email_notifications', wildcard: 'enable_followed_topic_wildcard_mentions_notify' },
  },
];

/** Per-channel overrides (POST /users/me/subscriptions/properties) and the general setting each falls back to. */
export const CHANNEL_OVERRIDES: ReadonlyArray<{ property: string; column: NotificationColumn; general: string }> = [
  { property: 'desktop_notifications', column: 'desktop', general: 'enable_stream_desktop_notifications' },
  { property: 'audible_notifications', column: 'audible', general: 'enable_stream_audible_notifications' },
  { property: 'push_notifications', column: 'push', general: 'enable_stream_push_notifications' },
  { property: 'email_notifications', column: 'email', general: 'enable_stream_email_notifications' },
  { property: 'wildcard_mentions_notify', column: 'wildcard', general: 'wildcard_mentions_notify' },
];

/** A channel's effective value: its own override, or the general setting where it has none (null). */
export function effectiveChannelSetting(own: boolean | null | undefined, general: unknown): boolean {
  return own ?? general === true;
}
