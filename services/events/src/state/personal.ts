/** The viewer's own data: settings, drafts, recent direct conversations, message bounds. */
import type { Db } from '@chat/db';
import { draftObject } from '@chat/wire';
import { DEFAULT_USER_SETTINGS, EMOJISET_CHOICES, NOTIFICATION_SOUNDS } from '@chat/realm';
import { viewerRow } from './realm-people';
import { registerRows } from './register-rows';
import type { StateOptions, Want } from '.';

/**
 * Settings clients without the user_settings_object capability read at the top level, under
 * update_global_notifications and update_display_settings, as the family's server gives them.
 */
const LEGACY_NOTIFICATION_SETTINGS = [
  'enable_desktop_notifications', 'enable_digest_emails', 'enable_login_emails', 'enable_marketing_emails',
  'email_notifications_batching_period_seconds', 'enable_offline_email_notifications', 'enable_offline_push_notifications',
  'enable_online_push_notifications', 'enable_sounds', 'enable_stream_desktop_notifications', 'enable_stream_email_notifications',
  'enable_stream_push_notifications', 'enable_stream_audible_notifications', 'wildcard_mentions_notify',
  'message_content_in_email_notifications', 'notification_sound', 'pm_content_in_desktop_notifications',
  'desktop_icon_count_display', 'presence_enabled',
];
const LEGACY_DISPLAY_SETTINGS = [
  'color_scheme', 'default_language', 'demote_inactive_streams', 'emojiset', 'enable_drafts_synchronization', 'fluid_layout_width',
  'web_home_view', 'high_contrast_mode', 'left_side_userlist', 'starred_message_counts', 'timezone', 'translate_emoticons',
  'twenty_four_hour_time', 'receives_typing_notifications', 'enter_sends',
];

function legacySettings(settings: Record<string, unknown>, want: Want): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const copy = (keys: string[]) => keys.filter((k) => k in settings).forEach((k) => (out[k] = settings[k]));
  if (want('update_global_notifications')) {
    copy(LEGACY_NOTIFICATION_SETTINGS);
    out.available_notification_sounds = NOTIFICATION_SOUNDS;
  }
  if (want('update_display_settings')) {
    copy(LEGACY_DISPLAY_SETTINGS);
    out.emojiset_choices = EMOJISET_CHOICES;
  }
  return out;
}

export async function personalSections(db: Db, opts: StateOptions, want: Want): Promise<Record<string, unknown>> {
  const userId = opts.identity.userId;
  const out: Record<string, unknown> = {};
  const user = await viewerRow(db, opts);
  const settings: Record<string, unknown> = { ...DEFAULT_USER_SETTINGS, ...((user?.settings ?? {}) as Record<string, unknown>) };
  if (user) settings.timezone = user.timezone;
  if (want('user_settings')) {
    // The choices clients offer for two of the settings travel with them.
    out.user_settings = { ...settings, emojiset_choices: EMOJISET_CHOICES, available_notification_sounds: NOTIFICATION_SOUNDS };
  }
  if (opts.clientCapabilities.user_settings_object !== true) Object.assign(out, legacySettings(settings, want));
  const rows = await registerRows(db, opts);
  if (want('drafts')) {
    // Drafts are shared between a user's clients only while the user allows it.
    const synced = user && (user.settings as Record<string, unknown> | null)?.enable_drafts_synchronization !== false;
    out.drafts = synced ? rows.drafts.map(draftObject) : [];
  }
  if (want('recent_private_conversations')) {
    out.recent_private_conversations = userId === undefined ? [] : rows.recentConversations.map(([maxMessageId, members]) => ({
      max_message_id: maxMessageId,
      user_ids: members.filter((id) => id !== userId).sort((a, b) => a - b),
    }));
  }
  if (want('message')) out.max_message_id = rows.maxMessageId ?? -1;
  return out;
}
